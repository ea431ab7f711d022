"""Side-effecting debug ops: `tf.print` (StringFormat + PrintV2), `tf.Assert`,
`tf.debugging.check_numerics` and the `tf.debugging.assert_*` helpers built on Assert.

These are stateful: a graph runs them at every call, in program order, even though no output
depends on them (SPEC R-4.1, R-4.4).
"""

from __future__ import annotations

import sys

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, format_dims
from .registry import (
    ALL_TYPES,
    FLOAT,
    REQUIRED,
    TypeAttr,
    defop,
)

# ---- formatting tensors like TensorFlow's C++ summarizer ---------------------------------------


def _format_float(v, kind_bits: int) -> str:
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    short, full = ("%.6g", "%.9g") if kind_bits <= 32 else ("%.15g", "%.17g")
    text = short % v
    parse = np.float32 if kind_bits <= 32 else np.float64
    return text if parse(text) == parse(v) else full % v


def format_scalar(v, quote_strings: bool = True) -> str:
    if isinstance(v, (bytes, np.bytes_)):
        s = bytes(v).decode("utf-8", "backslashreplace")
        return f'"{s}"' if quote_strings else s
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (np.floating, float)):
        bits = np.asarray(v).dtype.itemsize * 8
        return _format_float(float(v), bits)
    if isinstance(v, (np.complexfloating, complex)):
        return f"({_format_float(v.real, 64)},{_format_float(v.imag, 64)})"
    return str(v)


def format_tensor(value, summarize: int = 3, quote_strings: bool = True) -> str:
    """A tensor as `tf.print` shows it: `[1 2 3]`, `[[1 2]\\n [3 4]]`, `[0 1 2 ... 7 8 9]`."""
    arr = np.asarray(value)
    if arr.ndim == 0:
        return format_scalar(arr[()], quote_strings)
    if summarize is not None and summarize < 0:
        summarize = None

    def rows(a, depth):
        n = a.shape[0]
        if summarize is not None and n > 2 * summarize:
            idx = list(range(summarize)) + [None] + list(range(n - summarize, n))
        else:
            idx = list(range(n))
        if a.ndim == 1:
            return "[" + " ".join("..." if i is None else format_scalar(a[i], quote_strings)
                                  for i in idx) + "]"
        sep = "\n" * (a.ndim - 1) + " " * (depth + 1)
        return "[" + sep.join("..." if i is None else rows(a[i], depth + 1) for i in idx) + "]"

    if arr.size == 0 and arr.ndim == 1:
        return "[]"
    return rows(arr, 0)


# ---- StringFormat and PrintV2 --------------------------------------------------------------------

def infer_string_format(inputs, template="%s", placeholder="%s", summarize=3):
    if template.count(placeholder) != len(inputs):
        raise ValueError(f"num placeholders in template and num inputs must match: "
                         f"{template.count(placeholder)} vs. {len(inputs)}")
    return TensorType(d.string, ())


def kernel_string_format(inputs, template="%s", placeholder="%s", summarize=3):
    parts = template.split(placeholder)
    out = [parts[0]]
    for value, rest in zip(inputs, parts[1:]):
        out.append(format_tensor(value, summarize))
        out.append(rest)
    result = np.empty((), dtype=object)
    result[()] = "".join(out).encode("utf-8")
    return result


string_format_op = defop("string_format", "StringFormat", inputs=("inputs: list(T)",),
                         attrs={"T": TypeAttr(ALL_TYPES), "template": "%s",
                                "placeholder": "%s", "summarize": 3},
                         infer=infer_string_format, kernel=kernel_string_format,
                         flags={"pure"})


def kernel_print(input, output_stream="stderr", end="\n"):  # noqa: A002
    text = np.asarray(input)[()]
    text = text.decode("utf-8", "backslashreplace") if isinstance(text, bytes) else str(text)
    if output_stream.startswith("file://"):
        with open(output_stream[len("file://"):], "a", encoding="utf-8") as f:
            f.write(text + end)
        return
    stream = sys.stdout if output_stream == "stdout" else sys.stderr
    stream.write(text + end)
    stream.flush()


print_op = defop("print", "PrintV2", inputs=("input: string",),
                 attrs={"output_stream": "stderr", "end": "\n"},
                 infer=lambda input, **_: (), kernel=kernel_print, num_outputs=0,  # noqa: A006
                 stateful=True, flags={"debug"})

# ---- Assert and CheckNumerics --------------------------------------------------------------------


def summarize_value(value, summarize: int = 3) -> str:
    """A tensor as TensorFlow's Assert shows it (`Tensor::SummarizeValue`): its first
    `summarize` values in row-major order, inner dims bracketed, `...` when cut short."""
    arr = np.asarray(value)
    flat = arr.reshape(-1)
    limit = flat.size if summarize < 0 else min(summarize, flat.size)

    def element(v):
        return format_scalar(v, quote_strings=False)

    if arr.ndim == 0:
        text = " ".join(element(flat[i]) for i in range(limit))
        return text + ("..." if flat.size > limit else "")
    out: list = []
    index = 0

    def dim(k):
        nonlocal index
        if index >= limit:
            return
        if k == arr.ndim - 1:
            for i in range(arr.shape[k]):
                if index >= limit:
                    if k:
                        out.append("...")
                    return
                out.append((" " if i else "") + element(flat[index]))
                index += 1
            return
        for _ in range(arr.shape[k]):
            opened = index < limit
            if opened:
                out.append("[")
            dim(k + 1)
            if opened:
                out.append("]")

    dim(0)
    return "".join(out) + ("..." if flat.size > limit else "")


def kernel_assert(condition, data, summarize=3):
    cond = np.asarray(condition)
    if cond.size != 1 or cond.ndim > 1:
        raise InvalidArgumentError(f"In[0] should be a scalar: {format_dims(cond.shape)}")
    if not cond.reshape(()):
        shown = " ".join("[" + summarize_value(v, summarize) + "]" for v in data)
        raise InvalidArgumentError(f"assertion failed: {shown}")


assert_op = defop("assert", "Assert", inputs=("condition: bool", "data: list(T)"),
                  attrs={"T": TypeAttr(ALL_TYPES), "summarize": 3},
                  infer=lambda condition, data, **_: (), kernel=kernel_assert, num_outputs=0,
                  stateful=True, flags={"debug"})


def kernel_check_numerics(tensor, message=REQUIRED):
    x = np.asarray(tensor)
    nan, inf = bool(np.isnan(x).any()), bool(np.isinf(x).any())
    if nan or inf:
        what = "Inf and NaN" if nan and inf else ("NaN" if nan else "Inf")
        raise InvalidArgumentError(f"{message} : Tensor had {what} values")
    return tensor


check_numerics_op = defop("check_numerics", "CheckNumerics", inputs=("tensor: T",),
                          attrs={"T": TypeAttr(FLOAT), "message": REQUIRED},
                          infer=lambda tensor, **_: TensorType(tensor.dtype, tensor.shape),
                          kernel=kernel_check_numerics, stateful=True, flags={"debug"})


def kernel_no_op():
    return None


no_op_op = defop("no_op", "NoOp", infer=lambda: (), kernel=kernel_no_op, num_outputs=0,
                 flags={"pure"})
