"""Side-effecting debug ops: `tf.print` (StringFormat + PrintV2), `tf.Assert`,
`tf.debugging.check_numerics` and the `tf.debugging.assert_*` helpers built on Assert.

These are stateful: a graph runs them at every call, in program order, even though no output
depends on them (SPEC R-4.1, R-4.4).
"""

from __future__ import annotations

import pprint
import sys

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, format_dims
from .registry import (
    ALL_TYPES,
    FLOAT,
    NO_ATTRS,
    REQUIRED,
    TypeAttr,
    bind,
    convert_to_tensor,
    defgrad,
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


@defgrad(check_numerics_op)
def _check_numerics_grad(op, g):
    return g


def kernel_no_op():
    return None


no_op_op = defop("no_op", "NoOp", infer=lambda: (), kernel=kernel_no_op, num_outputs=0,
                 flags={"pure"})

# ---- public functions ----------------------------------------------------------------------------


def _is_tensor_like(x) -> bool:
    return isinstance(getattr(x, "dtype", None), d.DType)


def _output_stream(output_stream) -> str:
    if output_stream in (sys.stdout, sys.__stdout__, "stdout"):
        return "stdout"
    if output_stream is None or output_stream in (sys.stderr, sys.__stderr__, "stderr"):
        return "stderr"
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    raise ValueError(f"Unsupported output stream {output_stream!r}: use sys.stdout, "
                     "sys.stderr or a 'file://' path.")


def _print_template(inputs, sep: str):
    """TensorFlow's template for `tf.print`: a Python string argument is its own text, every
    other argument is `pprint.pformat`-ed (dicts by sorted key, NumPy arrays by repr) with a
    placeholder in place of each tensor. Returns (template, placeholder, tensors)."""
    from .. import nest

    free = [nest.map_structure(lambda x: "" if _is_tensor_like(x) else x, x) for x in inputs]
    free_text = sep.join(pprint.pformat(x) for x in free) + sep
    placeholder, n = "{}", 0
    while placeholder in free_text:
        n += 1
        placeholder = "{" + "%" * n + "}"
    tensors: list = []
    templates = []
    for x in inputs:
        tensors.extend(t for t in nest.flatten(x) if _is_tensor_like(t))
        if isinstance(x, str):
            templates.append(x)
        else:
            packed = nest.map_structure(lambda v: placeholder if _is_tensor_like(v) else v, x)
            templates.append(pprint.pformat(packed))
    template = sep.join(templates).replace(repr(placeholder), placeholder)
    return template, placeholder, tensors


def print_(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    """`tf.print`: prints tensors (and Python values) at run time, in eager and graph mode."""
    stream = _output_stream(output_stream)
    attrs = {"output_stream": stream, "end": end}
    if len(inputs) == 1 and _is_tensor_like(inputs[0]) and inputs[0].dtype is d.string and \
            inputs[0].shape.rank == 0:
        return bind(print_op, (inputs[0],), attrs, name)  # a scalar string prints as it is
    template, placeholder, tensors = _print_template(inputs, sep)
    message = bind(string_format_op, (tensors,), {"template": template,
                                                  "placeholder": placeholder,
                                                  "summarize": int(summarize)}, name)
    return bind(print_op, (message,), attrs, name)


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


def _assert_condition(condition, message, summary, tensors, summarize, name):
    from .reduce import reduce_all
    data = []
    if message:
        data.append(str(message))
    data.append(summary)
    for label, t in tensors:
        data.append(f"{label} ({_tensor_label(t)}) = ")
        data.append(t)
    return Assert(reduce_all(condition), data, summarize=summarize, name=name)


def _compare_assert(op_fn, symbol):
    def check(x, y, message=None, summarize=None, name=None):
        x = convert_to_tensor(x)
        y = convert_to_tensor(y, dtype_hint=x.dtype)
        return _assert_condition(op_fn(x, y), message,
                                 f"Condition x {symbol} y did not hold element-wise:",
                                 [("x", x), ("y", y)], summarize, name)
    return check


def _sign_assert(op_fn, symbol):
    def check(x, message=None, summarize=None, name=None):
        x = convert_to_tensor(x)
        zero = convert_to_tensor(0, dtype=x.dtype)
        return _assert_condition(op_fn(x, zero), message,
                                 f"Condition x {symbol} 0 did not hold element-wise:",
                                 [("x", x)], summarize, name)
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
        prefix = f"{message}.  " if message else ""
        try:
            label = x.name
        except AttributeError:  # eager tensors have no name
            label = ""
        raise ValueError(f"{prefix}Tensor {label} must have rank {int(rank)}.  Received rank "
                         f"{x.shape.rank}, shape {x.shape}")
    return None


def assert_type(tensor, tf_type, message=None, name=None):
    """Static dtype check: TypeError naming the expected and the actual dtype."""
    tf_type = d.as_dtype(tf_type)
    tensor = convert_to_tensor(tensor)
    if tensor.dtype != tf_type:
        prefix = f"{message}.  " if message else ""
        try:
            label = tensor.name
        except AttributeError:  # eager tensors have no name
            label = "tensor"
        raise TypeError(f"{prefix}{label} must be of type {tf_type!r}; got {tensor.dtype!r}")


def assert_all_finite(t, msg, name=None):
    return check_numerics(t, msg, name=name)
