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
from ..shapes import TensorType
from .registry import (ALL_TYPES, FLOAT, NO_ATTRS, REQUIRED, TypeAttr, bind, convert_to_tensor,
                       defop)

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
        sep = "\n" + " " * (depth + 1)
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
                 infer=lambda input, **_: (), kernel=kernel_print, num_outputs=0,
                 stateful=True, flags={"debug"})

# ---- Assert and CheckNumerics --------------------------------------------------------------------


def kernel_assert(condition, data, summarize=3):
    if not np.all(condition):
        shown = " ".join("[" + format_tensor(v, summarize, quote_strings=False) + "]"
                         for v in data)
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

# ---- public functions -----------------------------------------------------------------------------


def _is_tensor_like(x) -> bool:
    return isinstance(getattr(x, "dtype", None), d.DType)


def _template(obj, tensors: list, top: bool) -> str:
    """The format template for one `tf.print` argument; tensors become `{}` placeholders."""
    if _is_tensor_like(obj):
        tensors.append(obj)
        return "{}"
    if isinstance(obj, str):
        return _escape(obj) if top else _escape(repr(obj))
    if isinstance(obj, dict):
        items = ", ".join(f"{_escape(repr(k))}: {_template(v, tensors, False)}"
                          for k, v in obj.items())
        return "{{" + items + "}}"
    if isinstance(obj, list):
        return "[" + ", ".join(_template(v, tensors, False) for v in obj) + "]"
    if isinstance(obj, tuple):
        inner = ", ".join(_template(v, tensors, False) for v in obj)
        return "(" + inner + ("," if len(obj) == 1 else "") + ")"
    return _escape(str(obj))


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def print_(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    """`tf.print`: prints tensors (and Python values) at run time, in eager and graph mode."""
    tensors: list = []
    template = _escape(sep).join(_template(x, tensors, True) for x in inputs)
    template = template.replace("{}", "\0").replace("{{", "{").replace("}}", "}")
    if output_stream in (sys.stdout, sys.__stdout__, "stdout"):
        stream = "stdout"
    elif output_stream is None or output_stream in (sys.stderr, sys.__stderr__, "stderr"):
        stream = "stderr"
    elif isinstance(output_stream, str) and output_stream.startswith("file://"):
        stream = output_stream
    else:
        raise ValueError(f"Unsupported output stream {output_stream!r}: use sys.stdout, "
                         "sys.stderr or a 'file://' path.")
    message = bind(string_format_op, (tensors,), {"template": template, "placeholder": "\0",
                                                  "summarize": int(summarize)}, name)
    return bind(print_op, (message,), {"output_stream": stream, "end": end}, name)


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """`tf.strings.format`: the template with each placeholder replaced by a tensor."""
    if _is_tensor_like(inputs) or not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    if template.count(placeholder) != len(inputs):
        raise ValueError(f"The template expects {template.count(placeholder)} tensors, but the "
                         f"inputs only has {len(inputs)}. Please ensure the number of "
                         f"placeholders in template matches inputs length.")
    tensors = [convert_to_tensor(x) for x in inputs]
    return bind(string_format_op, (tensors,), {"template": template, "placeholder": placeholder,
                                               "summarize": int(summarize)}, name)


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TensorFlow's name
    """`tf.Assert`: raises InvalidArgumentError (at run time in graphs) if `condition` is false."""
    data = [x if _is_tensor_like(x) else convert_to_tensor(x) for x in data]
    return bind(assert_op, (condition, data), {"summarize": 3 if summarize is None
                                               else int(summarize)}, name)


def check_numerics(tensor, message, name=None):
    return bind(check_numerics_op, (tensor,), {"message": str(message)}, name)


def no_op(name=None):
    return bind(no_op_op, (), NO_ATTRS, name)


def _tensor_label(x) -> str:
    try:
        return f"{x.name}"
    except (AttributeError, ValueError):
        return f"shape={x.shape} dtype={x.dtype.name}"


def _assert_condition(condition, message, summary, tensors, name):
    from .reduce import reduce_all
    data = []
    if message:
        data.append(str(message))
    data.append(summary)
    for label, t in tensors:
        data.append(f"{label} ({_tensor_label(t)}) = ")
        data.append(t)
    return Assert(reduce_all(condition), data, name=name)


def _compare_assert(op_fn, symbol):
    def check(x, y, message=None, summarize=None, name=None):
        x = convert_to_tensor(x)
        y = convert_to_tensor(y, dtype_hint=x.dtype)
        return _assert_condition(op_fn(x, y), message,
                                 f"Condition x {symbol} y did not hold element-wise:",
                                 [("x", x), ("y", y)], name)
    return check


def _sign_assert(op_fn, symbol):
    def check(x, message=None, summarize=None, name=None):
        x = convert_to_tensor(x)
        zero = convert_to_tensor(0, dtype=x.dtype)
        return _assert_condition(op_fn(x, zero), message,
                                 f"Condition x {symbol} 0 did not hold element-wise:",
                                 [("x", x)], name)
    return check


def _build_asserts():
    from . import math as m
    return {
        "assert_equal": _compare_assert(m.equal, "=="),
        "assert_none_equal": _compare_assert(m.not_equal, "!="),
        "assert_less": _compare_assert(m.less, "<"),
        "assert_less_equal": _compare_assert(m.less_equal, "<="),
        "assert_greater": _compare_assert(m.greater, ">"),
        "assert_greater_equal": _compare_assert(m.greater_equal, ">="),
        "assert_positive": _sign_assert(m.greater, ">"),
        "assert_negative": _sign_assert(m.less, "<"),
        "assert_non_negative": _sign_assert(m.greater_equal, ">="),
        "assert_non_positive": _sign_assert(m.less_equal, "<="),
    }


ASSERTS = _build_asserts()


def assert_rank(x, rank, message=None, name=None):
    """Static rank check (TensorFlow raises ValueError when the rank is known)."""
    x = convert_to_tensor(x)
    if x.shape.rank is not None and x.shape.rank != int(rank):
        prefix = f"{message}  " if message else ""
        try:
            label = x.name
        except AttributeError:  # eager tensors have no name
            label = ""
        raise ValueError(f"{prefix}Tensor {label} must have rank {int(rank)}.  Received rank "
                         f"{x.shape.rank}, shape {x.shape}")
    return None


def assert_type(tensor, tf_type, message=None, name=None):
    tf_type = d.as_dtype(tf_type)
    if tensor.dtype != tf_type:
        prefix = f"{message}  " if message else ""
        raise TypeError(f"{prefix}{tensor.dtype.name} must be of type {tf_type!r}")


def assert_all_finite(t, msg, name=None):
    return check_numerics(t, msg, name=name)
