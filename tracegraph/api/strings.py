"""`tf.strings`."""

from ..ops.logging import string_format as format  # noqa: F401
from ..ops.strings import (  # noqa: F401
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
