"""`tf.autograph`."""

import types as _types

from ..autograph.api import do_not_convert, to_code  # noqa: F401

experimental = _types.SimpleNamespace(do_not_convert=do_not_convert)
