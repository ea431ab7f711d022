"""`tf.strings`."""

from ..library.logging import string_format as format  # noqa: F401
from ..library.strings import (  # noqa: F401
    as_string,
    join,
    length,
    lower,
    regex_replace,
    strip,
    substr,
    to_hash_bucket,
    to_hash_bucket_fast,
    to_hash_bucket_strong,
    to_number,
    upper,
)
from ..framework.ragged_ops import (  # noqa: F401, E402
    bytes_split,
    regex_full_match,
    split,
    unicode_decode,
    unicode_split,
)
