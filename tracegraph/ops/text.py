"""Text ops with ragged results, `DecodeRaw` and regex matching (records only).

A ragged result comes out as its two flat parts, `(values, row_splits)`: the strings or code
points of every input element one after another, and the int64 offsets where each element's
run starts (TensorFlow's own layout, and its `UnicodeDecode` op's outputs). `RaggedStringSplit`
stands for the several TensorFlow ops `tf.strings.split`, `bytes_split` and `unicode_split` run
(StringSplitV2, ...) with one record and a `unit` attr. The framework's `RaggedTensor` wraps
the parts.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, broadcast_shapes
from .registry import INTEGER, PURE, REAL, REQUIRED, defop
from .strings import compile_regex


def _flat_strings(x) -> list:
    return list(np.asarray(x, dtype=object).reshape(-1))


def _ragged_parts(pieces: list, dtype) -> tuple:
    """(values, row_splits) of a list of per-element lists."""
    splits = np.zeros(len(pieces) + 1, np.int64)
    np.cumsum([len(p) for p in pieces], out=splits[1:])
    flat = [v for p in pieces for v in p]
    if dtype is object:
        values = np.empty(len(flat), dtype=object)
        values[:] = flat
    else:
        values = np.array(flat, dtype=dtype)
    return values, splits


def _split_one(s: bytes, unit: str, sep: bytes, maxsplit: int) -> list:
    if unit == "BYTE":
        return [s[i:i + 1] for i in range(len(s))]
    if unit == "UTF8_CHAR":
        return [c.encode("utf-8") for c in _decode(s)]
    if sep:
        return s.split(sep, maxsplit)
    return s.split(None, maxsplit)  # whitespace runs; no empty pieces


def _decode(s: bytes) -> str:
    try:
        return s.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidArgumentError(f"Invalid UTF-8 input at byte {e.start}: {s!r}") from None


def _splits_type(input, dtype=d.int64):  # noqa: A002
    n = None if input.shape is None else _count(input.shape)
    return TensorType(dtype, (None if n is None else n + 1,))


def infer_ragged_split(input, unit="WORD", sep=b"", maxsplit=-1):  # noqa: A002
    return (TensorType(d.string, (None,)), _splits_type(input))


def _count(shape):
    """The number of elements of a shape, None when a dim is unknown."""
    n = 1
    for s in shape:
        if s is None:
            return None
        n *= s
    return n


def kernel_ragged_split(input, unit="WORD", sep=b"", maxsplit=-1):  # noqa: A002
    pieces = [_split_one(s, unit, sep, maxsplit) for s in _flat_strings(input)]
    return _ragged_parts(pieces, object)


ragged_string_split_op = defop(
    "ragged_string_split", "RaggedStringSplit", inputs=("input: string",),
    attrs={"unit": "WORD", "sep": b"", "maxsplit": -1}, infer=infer_ragged_split,
    kernel=kernel_ragged_split, num_outputs=2, flags=PURE | {"data_dependent_shape"})


def infer_unicode_decode(input, input_encoding="UTF-8", Tsplits=d.int64):  # noqa: A002, N803
    return (_splits_type(input, Tsplits), TensorType(d.int32, (None,)))


def kernel_unicode_decode(input, input_encoding="UTF-8", Tsplits=d.int64):  # noqa: A002, N803
    pieces = [[ord(c) for c in _decode(s)] for s in _flat_strings(input)]
    values, splits = _ragged_parts(pieces, np.int32)
    return splits.astype(Tsplits.as_numpy_dtype), values


unicode_decode_op = defop(
    "unicode_decode", "UnicodeDecode", inputs=("input: string",),
    attrs={"input_encoding": "UTF-8", "Tsplits": d.int64}, infer=infer_unicode_decode,
    kernel=kernel_unicode_decode, num_outputs=2, flags=PURE | {"data_dependent_shape"})

# ---- DecodeRaw ----------------------------------------------------------------------------------


def infer_decode_raw(bytes, out_type=REQUIRED, little_endian=True):  # noqa: A002
    shape = None if bytes.shape is None else bytes.shape + (None,)
    return TensorType(out_type, shape)


def kernel_decode_raw(bytes, out_type=REQUIRED, little_endian=True):  # noqa: A002
    flat = _flat_strings(bytes)
    np_type = np.dtype(out_type.as_numpy_dtype).newbyteorder("<" if little_endian else ">")
    size = np_type.itemsize
    lengths = {len(s) for s in flat}
    if len(lengths) > 1:
        raise InvalidArgumentError(f"DecodeRaw requires input strings to all be the same size, "
                                   f"but element 1 has size {len(flat[1])} != {len(flat[0])}")
    n = lengths.pop() if lengths else 0
    if n % size:
        raise InvalidArgumentError(f"Input to DecodeRaw has length {n} that is not a multiple "
                                   f"of {size}, the size of {out_type.name}")
    rows = [np.frombuffer(s, dtype=np_type).astype(out_type.as_numpy_dtype) for s in flat]
    shape = np.shape(bytes) + (n // size,)
    if not rows:
        return np.zeros(shape, out_type.as_numpy_dtype)
    return np.stack(rows).reshape(shape)


decode_raw_op = defop(
    "decode_raw", "DecodeRaw", inputs=("bytes: string",),
    attrs={"out_type": REQUIRED, "little_endian": True}, infer=infer_decode_raw,
    kernel=kernel_decode_raw, flags=PURE | {"data_dependent_shape"})

# ---- regex_full_match ---------------------------------------------------------------------------


def kernel_regex_full_match(input, pattern):  # noqa: A002
    arrays = np.broadcast_arrays(np.asarray(input, dtype=object), np.asarray(pattern,
                                                                             dtype=object))
    out = np.empty(arrays[0].shape, dtype=bool)
    flat = out.reshape(-1)
    for i, (s, p) in enumerate(zip(arrays[0].reshape(-1), arrays[1].reshape(-1))):
        flat[i] = compile_regex(p).fullmatch(s) is not None
    return out


def infer_regex_full_match(input, pattern):  # noqa: A002
    return TensorType(d.bool, broadcast_shapes(input.shape, pattern.shape))


regex_full_match_op = defop(
    "regex_full_match", "RegexFullMatch", inputs=("input: string", "pattern: string"),
    infer=infer_regex_full_match, kernel=kernel_regex_full_match, flags={"pure"})

__all__ = ["ragged_string_split_op", "unicode_decode_op", "decode_raw_op", "regex_full_match_op",
           "DECODE_RAW_TYPES"]

DECODE_RAW_TYPES = frozenset(REAL | INTEGER | {d.complex64, d.complex128, d.bool})
