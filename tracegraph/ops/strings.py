"""String ops (`tf.strings`): join, length, upper/lower, strip, substr, regex_replace,
as_string, to_number. String tensors are NumPy object arrays of `bytes` (SPEC R-1.5).
"""

from __future__ import annotations

import builtins
import re

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, broadcast_shapes, format_dims
from .registry import ALL_TYPES, INDEX, PURE, TypeAttr, defop


def _map(fn, *arrays, otype=object):
    """Applies a Python function elementwise (with broadcasting) and returns a NumPy value."""
    arrays = np.broadcast_arrays(*[np.asarray(a) for a in arrays])
    out = np.empty(arrays[0].shape, dtype=otype)
    flat = out.reshape(-1)
    for i, values in enumerate(zip(*[a.reshape(-1) for a in arrays])):
        flat[i] = fn(*values)
    return out


def _same_string(x, **_):
    return TensorType(d.string, x.shape)


def _join_shape(shapes):
    """StringJoin: scalars broadcast, every other input has the same shape (no broadcasting)."""
    out = ()
    for shape in shapes:
        if shape == ():
            continue
        if shape is None or out is None:
            out = None if shape is None else (shape if out == () else out)
            continue
        if out == ():
            out = shape
        elif len(out) != len(shape) or any(None not in (a, b) and a != b
                                           for a, b in zip(out, shape)):
            raise ValueError(f"Input shapes do not match: {format_dims(out)} vs. "
                             f"{format_dims(shape)}")
    return out


def kernel_join(inputs, separator=""):
    sep = separator.encode("utf-8")
    if not inputs:
        out = np.empty((), dtype=object)
        out[()] = b""
        return out
    try:
        _join_shape([np.shape(x) for x in inputs])
    except ValueError as e:
        raise InvalidArgumentError(str(e)) from None
    return _map(lambda *parts: sep.join(parts), *inputs)


def infer_join(inputs, separator=""):
    return TensorType(d.string, _join_shape([t.shape for t in inputs]))


join_op = defop("string_join", "StringJoin", inputs=("inputs: N * string",),
                attrs={"separator": ""}, infer=infer_join, kernel=kernel_join, flags=PURE)


def kernel_length(input, unit="BYTE"):  # noqa: A002
    if unit == "UTF8_CHAR":
        return _map(lambda s: len(s.decode("utf-8")), input, otype=np.int32)
    return _map(len, input, otype=np.int32)


length_op = defop("string_length", "StringLength", inputs=("input: string",),
                  attrs={"unit": "BYTE"},
                  infer=lambda input, unit="BYTE": TensorType(d.int32, input.shape),  # noqa: A006
                  kernel=kernel_length, flags=PURE)


def kernel_upper(input, encoding=""):  # noqa: A002
    return _map(lambda s: s.decode("utf-8").upper().encode("utf-8") if encoding else s.upper(),
                input)


def kernel_lower(input, encoding=""):  # noqa: A002
    return _map(lambda s: s.decode("utf-8").lower().encode("utf-8") if encoding else s.lower(),
                input)


def kernel_strip(input):  # noqa: A002
    return _map(lambda s: s.strip(), input)


upper_op = defop("string_upper", "StringUpper", inputs=("input: string",),
                 attrs={"encoding": ""}, infer=_same_string, kernel=kernel_upper, flags=PURE)
lower_op = defop("string_lower", "StringLower", inputs=("input: string",),
                 attrs={"encoding": ""}, infer=_same_string, kernel=kernel_lower, flags=PURE)
strip_op = defop("string_strip", "StringStrip", inputs=("input: string",), infer=_same_string,
                 kernel=kernel_strip, flags=PURE)


def kernel_substr(input, pos, len, unit="BYTE"):  # noqa: A002
    index = iter(range(np.size(np.broadcast(np.asarray(input), np.asarray(pos)))))

    def cut(raw, p, n):
        i = next(index)
        s = raw.decode("utf-8") if unit == "UTF8_CHAR" else raw
        size = builtins.len(s)
        if not -size <= p <= size:
            raise InvalidArgumentError(f"pos {p} out of range for string {raw!r} at index {i}")
        if p < 0:  # counts from the end
            p += size
        out = s[p:p + n]
        return out.encode("utf-8") if unit == "UTF8_CHAR" else out
    return _map(cut, input, pos, len)


substr_op = defop("substr", "Substr", inputs=("input: string", "pos: T", "len: T"),
                  attrs={"T": TypeAttr(INDEX), "unit": "BYTE"},
                  infer=lambda input, pos, len, unit="BYTE": TensorType(  # noqa: A006  # noqa: A006
                      d.string, broadcast_shapes(input.shape, pos.shape)),
                  kernel=kernel_substr, flags=PURE)


def _re2_rewrite(rewrite: str) -> str:
    """RE2 rewrites use \\1; Python's re accepts the same, but `\\0` means the whole match."""
    return rewrite.replace("\\0", "\\g<0>")


def compile_regex(pattern: bytes):
    """A compiled pattern; a bad one is TensorFlow's InvalidArgumentError, not `re.error`."""
    try:
        return re.compile(pattern)
    except re.error as e:
        text = pattern.decode("utf-8", "replace")
        raise InvalidArgumentError(f"Invalid pattern: {text}, error: {e.msg}") from None


def kernel_regex_replace(input, pattern, rewrite, replace_global=True):  # noqa: A002
    def sub(s, p, r):
        regex = compile_regex(p)
        return regex.sub(_re2_rewrite(r.decode("utf-8")).encode("utf-8"), s,
                         count=0 if replace_global else 1)
    return _map(lambda s, p, r: sub(s, p, r), input, pattern, rewrite)


regex_replace_op = defop("regex_replace", "RegexReplace",
                         inputs=("input: string", "pattern: string", "rewrite: string"),
                         attrs={"replace_global": True},
                         infer=lambda x, pattern, rewrite, **_: _same_string(x),
                         kernel=kernel_regex_replace, flags=PURE)


def kernel_as_string(input, precision=-1, scientific=False, shortest=False,  # noqa: A002
                     width=-1, fill=""):
    arr = np.asarray(input)

    def fmt(v):
        if arr.dtype == object:
            text = v.decode("utf-8", "backslashreplace")
        elif arr.dtype.kind == "b":
            text = "true" if v else "false"
        elif arr.dtype.kind == "f":
            spec = "e" if scientific else ("g" if shortest else "f")
            text = f"{v:.{6 if precision < 0 else precision}{spec}}"
        elif arr.dtype.kind == "c":
            text = f"({v.real:f},{v.imag:f})"
        else:
            text = str(v)
        if width > 0:
            text = text.rjust(width, fill or " ")
        return text.encode("utf-8")
    return _map(fmt, arr)


as_string_op = defop("as_string", "AsString", inputs=("input: T",),
                     attrs={"T": TypeAttr(ALL_TYPES), "precision": -1,
                            "scientific": False, "shortest": False, "width": -1, "fill": ""},
                     infer=lambda input, **_: TensorType(d.string, input.shape),  # noqa: A006
                     kernel=kernel_as_string, flags=PURE)


def kernel_to_number(string_tensor, out_type=d.float32):
    target = out_type.as_numpy_dtype

    def parse(s):
        text = s.decode("utf-8").strip()
        try:
            return target(int(text)) if out_type.is_integer else target(float(text))
        except (ValueError, OverflowError):
            raise InvalidArgumentError(f"StringToNumberOp could not correctly convert string: "
                                       f"{text}") from None
    return _map(parse, string_tensor, otype=target)


to_number_op = defop("string_to_number", "StringToNumber", inputs=("string_tensor: string",),
                     attrs={"out_type": d.float32},
                     infer=lambda string_tensor, out_type=d.float32: TensorType(
                         out_type, string_tensor.shape),
                     kernel=kernel_to_number, flags=PURE)
