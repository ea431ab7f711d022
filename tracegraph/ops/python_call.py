"""Ops that call Python at run time: `tf.py_function` (`EagerPyFunc`) and `tf.numpy_function`
(`PyFunc`, `PyFuncStateless`).

The `func` attr is a Python callable taking the input arrays and returning the output arrays
(framework/python_function.py wraps the user's function: eager tensors in, conversion and
TensorFlow's errors out). All three records are stateful, so they run once per call, in program
order, and are never constant-folded, deduplicated or hoisted out of loops (`PyFuncStateless`
too: tracegraph cannot know a Python function is pure). Output shapes are unknown to type
inference, as in TensorFlow.

A graph holding one of these ops cannot be saved: Python code does not travel in a saved graph
(TensorFlow's SavedModel drops it too). The records carry the flag `CALLS_PYTHON` so a saver
rejects such graphs by the flag, with a message naming the op.
"""

from __future__ import annotations

from ..shapes import TensorType
from .registry import ALL_TYPES, REQUIRED, TypeAttr, defop

__all__ = ["CALLS_PYTHON", "py_function_op", "numpy_function_op", "numpy_function_stateless_op"]

CALLS_PYTHON = "calls_python"  # flag: the op runs Python code; the graph cannot be saved


def infer_python_call(input, func=REQUIRED, Tout=()):  # noqa: A002
    return tuple(TensorType(dtype, None) for dtype in Tout)


def kernel_python_call(input, func=REQUIRED, Tout=()):  # noqa: A002
    return func(*input)


_PYTHON_CALL = dict(inputs=("input: list(Tin)",),
                    attrs={"Tin": TypeAttr(ALL_TYPES), "func": REQUIRED, "Tout": ()},
                    infer=infer_python_call, kernel=kernel_python_call, num_outputs=None,
                    stateful=True, flags={CALLS_PYTHON, "data_dependent_shape"})

py_function_op = defop("py_function", "EagerPyFunc", **_PYTHON_CALL)
numpy_function_op = defop("numpy_function", "PyFunc", **_PYTHON_CALL)
numpy_function_stateless_op = defop("numpy_function_stateless", "PyFuncStateless",
                                    **_PYTHON_CALL)
