"""`tf.py_function` and `tf.numpy_function`: a Python function as an op of the graph.

Both bind a record of ops/python_call.py whose `func` attr is an adapter around the user's
function. At run time (eagerly, or when an executor reaches the op) the adapter converts the
input arrays (to eager tensors for `py_function`, plain NumPy arrays for `numpy_function`),
calls the function under the eager context, checks and converts its results to `Tout`, and
turns a Python exception into TensorFlow's runtime error (ValueError and TypeError:
InvalidArgumentError; StopIteration and IndexError: OutOfRangeError; NotImplementedError:
UnimplementedError; MemoryError: ResourceExhaustedError; others: UnknownError).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from .. import errors
from ..ops import python_call as pc
from ..ops.convert import to_array
from ..ops.registry import bind, context_scope
from .eager import EAGER, tf_type_name, wrap
from .tensor import EagerTensor, Tensor

__all__ = ["py_function", "numpy_function"]

_ERRORS = ((errors.OpError, None), ((ValueError, TypeError), errors.InvalidArgumentError),
           ((StopIteration, IndexError), errors.OutOfRangeError),
           (NotImplementedError, errors.UnimplementedError),
           (MemoryError, errors.ResourceExhaustedError), (Exception, errors.UnknownError))


def _runtime_error(e: Exception, name: str) -> Exception:
    for kinds, error_type in _ERRORS:
        if isinstance(e, kinds):
            if error_type is None:
                return e
            return error_type(f"{type(e).__name__}: {e}\n(raised by the Python function of "
                              f"{name})")
    return e


def _dtypes(Tout):  # noqa: N803 - TensorFlow's argument name
    """(list of DTypes, whether Tout was a single dtype)."""
    if Tout is None:
        raise TypeError("Missing required argument: 'Tout' (the dtype, or list of dtypes, "
                        "of the function's results)")
    if isinstance(Tout, (list, tuple)):
        return [d.as_dtype(t) for t in Tout], False
    return [d.as_dtype(Tout)], True


def _results(value, count: int, single: bool, name: str) -> list:
    if single and not (isinstance(value, (list, tuple)) and len(value) == 1):
        return [value]
    if count == 0 and value is None:
        return []
    if not isinstance(value, (list, tuple)):
        value = [value]
    if len(value) != count:
        raise errors.InvalidArgumentError(f"{name} returns {len(value)} values, but expects "
                                          f"to see {count} values.")
    return list(value)


def _convert_tensor_result(value, dtype: d.DType, name: str) -> np.ndarray:
    if isinstance(value, Tensor):
        if not isinstance(value, EagerTensor):
            raise errors.InvalidArgumentError(f"{name} returned a symbolic tensor {value!r}; "
                                              f"it must return eager values.")
        if value.dtype is not dtype:
            raise errors.InvalidArgumentError(
                f"ValueError: Tensor conversion requested dtype {dtype.name} for Tensor with "
                f"dtype {value.dtype.name}: {value!r}")
        return value._value
    try:
        return np.asarray(to_array(value, dtype))
    except (TypeError, ValueError) as e:
        raise errors.InvalidArgumentError(f"TypeError: Cannot convert {value!r} to EagerTensor "
                                          f"of dtype {dtype.name}") from e


def _convert_array_result(value, dtype: d.DType, index: int, name: str) -> np.ndarray:
    arr = value._value if isinstance(value, EagerTensor) else np.asarray(value)
    got = d.NUMPY_TO_DTYPE.get(arr.dtype)
    if got is d.string and dtype is d.string:
        return arr
    if got is not dtype:
        got_name = tf_type_name(got) if got is not None else str(arr.dtype)
        raise errors.InvalidArgumentError(f"{index}-th value returned by {name} is {got_name}, "
                                          f"but expects {tf_type_name(dtype)}")
    return arr


class _Adapter:
    """The `func` attr: arrays in, arrays out, TensorFlow's errors (a named class, so graph
    printouts and generated code say what it is)."""

    def __init__(self, func, dtypes, single, eager_args: bool, name: str):
        self.func, self.dtypes, self.single = func, dtypes, single
        self.eager_args, self.name = eager_args, name

    def __call__(self, *arrays):
        args = [wrap(a) if self.eager_args else a for a in arrays]
        try:
            with context_scope(EAGER):
                value = self.func(*args)
        except Exception as e:  # noqa: BLE001 - becomes TensorFlow's runtime error
            raise _runtime_error(e, self.name) from e
        values = _results(value, len(self.dtypes), self.single, self.name)
        if self.eager_args:
            return [_convert_tensor_result(v, t, self.name) for v, t in zip(values, self.dtypes)]
        return [_convert_array_result(v, t, i, self.name)
                for i, (v, t) in enumerate(zip(values, self.dtypes))]

    def __repr__(self):
        return f"<python function {getattr(self.func, '__name__', self.func)!r}>"


def _call(op, func, inp, Tout, eager_args, name):  # noqa: N803
    if not callable(func):
        raise TypeError(f"Expected func to be callable, got func of type {type(func).__name__}")
    dtypes, single = _dtypes(Tout)
    inputs = list(inp) if isinstance(inp, (list, tuple)) else [inp]
    label = getattr(func, "__name__", "pyfunc")
    adapter = _Adapter(func, dtypes, single, eager_args, label)
    outs = bind(op, (inputs,), {"func": adapter, "Tout": tuple(dtypes)}, name or op.tf_type)
    outs = list(outs) if outs is not None else []
    return outs[0] if single else outs


def py_function(func=None, inp=None, Tout=None, name=None):  # noqa: N803
    """`tf.py_function`: calls `func` on eager tensors at run time, in graphs too. Used as a
    decorator (`@tf.py_function(Tout=...)`) it wraps the function."""
    if func is None:
        return lambda f: (lambda *args: py_function(f, list(args), Tout, name))
    return _call(pc.py_function_op, func, [] if inp is None else inp, Tout, True, name)


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):  # noqa: N803
    """`tf.numpy_function`: calls `func` on NumPy arrays at run time, in graphs too. Results
    must have exactly the `Tout` dtypes. `stateful=False` records `PyFuncStateless`, which
    tracegraph still never folds or deduplicates."""
    if func is None:
        return lambda f: (lambda *args: numpy_function(f, list(args), Tout, stateful, name))
    op = pc.numpy_function_op if stateful else pc.numpy_function_stateless_op
    return _call(op, func, [] if inp is None else inp, Tout, False, name)
