"""Text functions with ragged results (`tf.strings.split`, `bytes_split`, `unicode_split`,
`unicode_decode`), `tf.io.decode_raw` and `tf.strings.regex_full_match`: composites over the
records in `ops/text.py` that wrap the flat results in a `RaggedTensor`.

A scalar input gives a plain 1-D tensor; an input of rank k gives a RaggedTensor whose first k
dims are the input's (uniform) and whose last dim is ragged, as in TensorFlow.
"""

from __future__ import annotations

from .. import dtypes as d
from ..library.array import shape
from ..library.math import range_
from ..ops.registry import bind, convert_to_tensor
from ..ops.text import (
    DECODE_RAW_TYPES,
    decode_raw_op,
    ragged_string_split_op,
    regex_full_match_op,
    unicode_decode_op,
)
from .ragged import RaggedTensor

__all__ = ["split", "bytes_split", "unicode_split", "unicode_decode", "decode_raw",
           "regex_full_match"]


def _over_rows(fn):
    """`fn` on a RaggedTensor's flat values: each string's pieces become one more ragged
    dimension of the rows (TensorFlow's ragged dispatch of the text functions)."""
    def wrapper(input, *args, **kwargs):  # noqa: A002
        if isinstance(input, RaggedTensor):
            return input.with_flat_values(fn(input.flat_values, *args, **kwargs))
        return fn(input, *args, **kwargs)
    wrapper.__name__, wrapper.__doc__ = fn.__name__, fn.__doc__
    return wrapper


def _as_strings(input, what):  # noqa: A002
    t = convert_to_tensor(input)
    if t.dtype is not d.string:
        raise TypeError(f"{what} expects a string tensor, got {t.dtype.name}")
    if t.shape.rank is None:
        raise ValueError(f"{what} needs an input of known rank")
    return t


def _wrap(t, values, splits):
    """The flat (values, splits) of every element of `t` as TensorFlow's result."""
    rank = t.shape.rank
    if rank == 0:
        return values
    out = RaggedTensor.from_row_splits(values, splits, validate=False)
    dims = t.shape.as_list()
    if rank > 1:
        dynamic = shape(t, out_type=d.int64)
        for axis in range(rank - 1, 0, -1):
            width = dims[axis] if dims[axis] is not None else dynamic[axis]
            outer = out.shape[0] if out.shape[0] is not None else \
                out.nrows()
            out = RaggedTensor.from_row_splits(out, range_(0, outer + 1, width, dtype=d.int64),
                                               validate=False)
    return out


@_over_rows
def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """`tf.strings.split`: words (split at runs of whitespace, or at every `sep`)."""
    t = _as_strings(input, "tf.strings.split")
    sep = b"" if sep is None else (sep.encode("utf-8") if isinstance(sep, str) else bytes(sep))
    values, splits = bind(ragged_string_split_op, (t,),
                          {"unit": "WORD", "sep": sep, "maxsplit": int(maxsplit)}, name)
    return _wrap(t, values, splits)


@_over_rows
def bytes_split(input, name=None):  # noqa: A002
    """`tf.strings.bytes_split`: every byte as a one-byte string."""
    t = _as_strings(input, "tf.strings.bytes_split")
    values, splits = bind(ragged_string_split_op, (t,), {"unit": "BYTE"}, name)
    return _wrap(t, values, splits)


def _check_encoding(encoding):
    if encoding.upper().replace("-", "") not in ("UTF8",):
        raise NotImplementedError(f"input_encoding {encoding!r} is not supported in "
                                  "tracegraph (UTF-8 only)")


@_over_rows
def unicode_split(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                  name=None):
    """`tf.strings.unicode_split`: every character as its UTF-8 bytes."""
    _check_encoding(input_encoding)
    t = _as_strings(input, "tf.strings.unicode_split")
    values, splits = bind(ragged_string_split_op, (t,), {"unit": "UTF8_CHAR"}, name)
    return _wrap(t, values, splits)


@_over_rows
def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """`tf.strings.unicode_decode`: every character's code point (int32)."""
    _check_encoding(input_encoding)
    t = _as_strings(input, "tf.strings.unicode_decode")
    splits, values = bind(unicode_decode_op, (t,), {"input_encoding": "UTF-8"}, name)
    return _wrap(t, values, splits)


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """`tf.io.decode_raw`: the bytes of each string reinterpreted as numbers of `out_type`."""
    out_type = d.as_dtype(out_type)
    if out_type not in DECODE_RAW_TYPES:
        raise TypeError(f"Value passed to parameter 'out_type' has DataType {out_type.name} not "
                        f"in list of allowed values: "
                        f"{', '.join(sorted(t.name for t in DECODE_RAW_TYPES))}")
    if fixed_length is not None:
        raise NotImplementedError("decode_raw(fixed_length=...) is not supported in tracegraph")
    t = convert_to_tensor(input_bytes, dtype=d.string)
    return bind(decode_raw_op, (t,), {"out_type": out_type, "little_endian":
                                      bool(little_endian)}, name)


def regex_full_match(input, pattern, name=None):  # noqa: A002
    """`tf.strings.regex_full_match`: whether each whole string matches `pattern`."""
    return bind(regex_full_match_op, (input, pattern), {}, name)

