"""ONNX export of the loops users write (issue 26 item 15): `for i in tf.range(n)` indexing with
`i`, and `for row in x`, whose bodies slice with a run-time index (StridedSlice), checked in
onnxruntime; and every kind of export failure as the documented `ONNXExportError` naming the
op and the user line that created it."""

import re

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.formats.onnx import lowering_table
from tracegraph.formats.onnx.exporter import ONNXExportError

from .test_onnx import assert_same, run_onnx

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

HERE = "test_loops_and_errors.py"


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                              tf.TensorSpec([], tf.int32)])
def weighted_rows(x, n):
    s = tf.zeros([3])
    for i in tf.range(n):
        s += x[i] * tf.cast(i, tf.float32)
    return s


@tf.function(input_signature=[tf.TensorSpec([4, 3], tf.float32)])
def row_loop(x):
    s = tf.zeros([3])
    for row in x:
        s += row * 2.0
    return s


@tf.function(input_signature=[tf.TensorSpec([None, 5], tf.float32)])
def windows(x):
    total = tf.zeros([2])
    for i in tf.range(tf.shape(x)[1] - 1):
        total += x[0, i:i + 2]          # begin and end at run time
        total += x[-1, ::-1][i:i + 2]   # a reversed row, then a run-time window
    return total


@tf.function(input_signature=[tf.TensorSpec([3, None], tf.float32)])
def columns(x):
    out = tf.zeros([3])
    for j in tf.range(tf.shape(x)[1]):
        out += x[:, j] + x[..., -1 - j]  # begin mask on the first axis, an ellipsis
    return out


CASES = [
    (weighted_rows, [(np.arange(12, dtype=np.float32).reshape(4, 3), np.int32(4)),
                     (np.ones((6, 3), np.float32), np.int32(2)),
                     (np.ones((2, 3), np.float32), np.int32(0))]),
    (row_loop, [(np.arange(12, dtype=np.float32).reshape(4, 3),)]),
    (windows, [(np.arange(10, dtype=np.float32).reshape(2, 5),),
               (np.arange(5, dtype=np.float32).reshape(1, 5),)]),
    (columns, [(np.arange(12, dtype=np.float32).reshape(3, 4),),
               (np.arange(3, dtype=np.float32).reshape(3, 1),)]),
]


@pytest.mark.parametrize("optimized", [True, False])
@pytest.mark.parametrize("fn,inputs", CASES, ids=[f.__name__ for f, _ in CASES])
def test_loops_with_run_time_indices_match_onnxruntime(fn, inputs, optimized):
    model = tf.onnx.export(fn, optimized=optimized)
    for args in inputs:
        want = fn(*[tf.constant(a) for a in args]).numpy()
        assert_same(want, run_onnx(model, list(args))[0], loose=True, what=fn.__name__)


# ---- every kind of failure: ONNXExportError, naming the op and the user line ----------------

def _line_of(fn, text: str) -> str:
    import inspect
    lines, first = inspect.getsourcelines(fn.python_function)
    return f"{HERE}:{first + next(i for i, line in enumerate(lines) if text in line)}"


def _refused(fn, op_type: str, text: str, problem: str, **kwargs):
    with pytest.raises(ONNXExportError) as info:
        tf.onnx.export(fn, **kwargs)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert re.search(problem, message), message
    assert f"({op_type})" in message and _line_of(fn, text) in message, message
    return info.value


def test_no_lowering():
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def f(x):
        return tf.strings.as_string(x)
    _refused(f, "AsString", "as_string", "no ONNX lowering")


def test_a_variable_write():
    v = tf.Variable(1.0)

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def f(x):
        v.assign_add(x)
        return x
    _refused(f, "AssignAddVariableOp", "assign_add", "writes a variable")


def test_an_input_a_lowering_needs_at_export_time():
    @tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32),
                                  tf.TensorSpec([2], tf.int32)])
    def f(x, perm):
        return tf.transpose(x, perm)
    _refused(f, "Transpose", "tf.transpose", "needs a constant perm.*does not lower")


def test_a_case_a_lowering_does_not_cover():
    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def f(x):
        return tf.pad(x, [[1, 1]], mode="SYMMETRIC")
    _refused(f, "MirrorPad", "tf.pad", "SYMMETRIC does not lower")


def test_a_strided_slice_of_unknown_rank():
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        return x[0]
    _refused(f, "StridedSlice", "x[0]", "unknown rank does not lower", optimized=False)


def test_a_dtype_an_onnx_op_does_not_take(monkeypatch):
    monkeypatch.setitem(lowering_table.ONNX_OPS, "AddV2", "And")   # And takes bool only

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def f(x):
        return tf.add(x, x)
    _refused(f, "AddV2", "tf.add", "ONNX's And takes no float32")


def test_a_lowering_that_fails_unexpectedly(monkeypatch):
    def broken(ctx, x):
        return {}["missing"]
    monkeypatch.setitem(lowering_table._LOWERINGS, "Relu", broken)
    monkeypatch.delitem(lowering_table.ONNX_OPS, "Relu")

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def f(x):
        return tf.nn.relu(x)
    error = _refused(f, "Relu", "tf.nn.relu", "its ONNX lowering failed \\(KeyError")
    assert isinstance(error.__cause__, KeyError)


def test_a_model_the_onnx_checker_refuses(monkeypatch):
    def invalid(ctx, x):
        return ctx.node("NoSuchOnnxOp", [x])
    monkeypatch.setitem(lowering_table._LOWERINGS, "Relu", invalid)
    monkeypatch.delitem(lowering_table.ONNX_OPS, "Relu")

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def f(x):
        return tf.nn.relu(x)
    with pytest.raises(ONNXExportError, match="fails ONNX's checker.*NoSuchOnnxOp"):
        tf.onnx.export(f)


def test_a_function_without_an_input_signature():
    @tf.function
    def f(x):
        return x + 1
    with pytest.raises(ONNXExportError, match="input_signature"):
        tf.onnx.export(f)


def test_no_bare_value_error_is_raised_by_the_exporter():
    import pathlib
    root = pathlib.Path(tf.__file__).parent / "formats" / "onnx"
    raising = [f"{p.name}:{i + 1}" for p in sorted(root.glob("*.py"))
               for i, line in enumerate(p.read_text().splitlines())
               if re.search(r"raise ValueError\b", line)]
    assert raising == []
