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
    to_number,
    upper,
)
