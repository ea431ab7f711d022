"""`tf.compat` (`v1`, `v2`, text helpers) and, in sub-packages, the modules of TensorFlow's
private tree that Keras imports by path (`tensorflow.python.*`, `tensorflow.compiler.*`,
`tensorflow.core.*`): thin re-exports of tracegraph's own implementations, reached through
the alias importer (`importer.py`) that the Keras bridge installs. Nothing here implements
anything itself."""

from __future__ import annotations

import numpy as np

from . import v1

__all__ = ["v1", "v2", "as_bytes", "as_text", "as_str", "as_str_any", "path_to_str",
           "bytes_or_text_types", "integral_types", "real_types", "complex_types"]


def as_bytes(bytes_or_text, encoding="utf-8") -> bytes:
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text, encoding="utf-8") -> str:
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


def as_str_any(value, encoding="utf-8") -> str:
    """`tf.compat.as_str_any`: bytes decoded, anything else through `str` (TensorBoard's
    readers call it on paths and tags)."""
    if isinstance(value, bytes):
        return as_str(value, encoding)
    return str(value)


bytes_or_text_types = (bytes, str)
integral_types = (int, np.integer)
real_types = (int, float, np.integer, np.floating)
complex_types = (int, float, complex, np.number)


def path_to_str(path):
    import os
    return os.fspath(path) if hasattr(path, "__fspath__") else path


def __getattr__(name):
    if name == "v2":  # tf.compat.v2 is the TF2 API: tracegraph itself
        import tracegraph
        return tracegraph
    raise AttributeError(f"module 'tracegraph.compat' has no attribute {name!r}")
