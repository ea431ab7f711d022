"""GraphDefs TensorFlow imports and runs to the same results.

The structural tests run everywhere. The differential tests need a TensorFlow installation:
they run when TRACEGRAPH_TF_PYTHON names a Python that has TensorFlow (the default suite stays
TensorFlow-free), e.g.

    TRACEGRAPH_TF_PYTHON=/path/to/tf-venv/bin/python python -m pytest tests/export -k tensorflow
"""

import json
import os
import pathlib
import subprocess

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import tracegraph as tf
from tracegraph.formats.tensorflow.graph_def_export import (
    TensorFlowExportError,
    export_graph_def,
    tf_graph_def,
)
from tracegraph.formats.tensorflow.op_signatures import OP_SIGNATURES

pytest.importorskip("tensorboard")

TF_PYTHON = os.environ.get("TRACEGRAPH_TF_PYTHON")
needs_tf = pytest.mark.skipif(not TF_PYTHON, reason="set TRACEGRAPH_TF_PYTHON to a Python "
                              "with TensorFlow to run GraphDefs under TensorFlow")
RUNNER = pathlib.Path(__file__).with_name("tf_run_graph_defs.py")


# ---- functions (the guides' shapes of code) ----------------------------------------------------

def _dense():
    w = tf.Variable(np.arange(12, dtype=np.float32).reshape(3, 4) / 10)
    b = tf.constant([0.5, -0.5, 0.25, 0.0])

    @tf.function
    def dense(x):
        return tf.nn.relu(tf.matmul(x, w) + b), tf.reduce_mean(x, axis=1)
    return dense, [np.array([[1, -2, 3], [0.5, 1, -1]], np.float32)]


def _branches():
    @tf.function
    def branches(x, n):
        if tf.reduce_sum(x) > 0:
            y = x * 2.0
        else:
            y = -x
        i = tf.constant(0)
        while i < n:
            y = y + tf.cast(i, tf.float32)
            i += 1
        return y, i
    return branches, [np.array([1.0, 2.0, -0.5], np.float32), np.int32(4)]


def _nested_call():
    @tf.function
    def inner(x):
        return tf.square(x) - 1.0

    @tf.function
    def outer(x):
        return inner(x) + inner(x * 2.0), tf.shape(x), tf.argmax(x, axis=-1)
    return outer, [np.array([[1.0, 3.0, 2.0]], np.float32)]


def _shapes():
    @tf.function
    def shapes(x):
        y = tf.reshape(x, [-1])
        z = tf.concat([y, tf.reverse(y, [0])], 0)
        parts = tf.split(tf.reshape(z, [2, -1]), 2, axis=0)
        return tf.transpose(tf.stack(parts)), tf.strided_slice(z, [1], [5], [2]), \
            tf.cast(tf.reduce_max(x), tf.int64), tf.where(x > 2.0, x, tf.zeros_like(x))
    return shapes, [np.arange(6, dtype=np.float32).reshape(2, 3)]


def _stateless_random():
    @tf.function
    def stateless_random(seed):
        return (tf.random.stateless_normal([2, 3], seed),
                tf.random.stateless_uniform([4], seed, minval=-2, maxval=9, dtype=tf.int64),
                tf.random.stateless_categorical([[0., 1., 2.]], 5, seed),
                tf.random.stateless_truncated_normal([3], seed, dtype=tf.float64),
                tf.nn.experimental.stateless_dropout(tf.ones([4]), 0.5, seed))
    return stateless_random, [np.array([4, 5], np.int32)]


FUNCTIONS = {"dense": _dense, "branches": _branches, "nested_call": _nested_call,
             "shapes": _shapes, "stateless_random": _stateless_random}


def _case(name, function, args):
    concrete = function.get_concrete_function(*[tf.constant(a) for a in args])
    expected = concrete(*[tf.constant(a) for a in args])
    expected = [np.asarray(e) for e in tf.nest.flatten(expected)]
    graph_def, inputs, outputs = export_graph_def(concrete)
    return {"name": name, "graph_def": graph_def, "args": args, "text": str(concrete.graph),
            "inputs": inputs, "outputs": outputs, "expected": expected}


# ---- structure (no TensorFlow needed) ----------------------------------------------------------

def test_op_signature_rows_are_registered_op_types():
    """The TensorFlow format's table is keyed by op types tracegraph registers."""
    from tracegraph.formats.tensorflow.op_signatures import ALLOWED_TYPES
    from tracegraph.ops.registry import all_ops
    registered = {op.tf_type for op in all_ops()}
    assert sorted(set(OP_SIGNATURES) - registered) == []
    assert sorted(set(ALLOWED_TYPES) - set(OP_SIGNATURES)) == []


def test_function_nodes_name_outputs_by_tensorflow_arg_names():
    graph_def = _case("nested_call", *FUNCTIONS["nested_call"]())["graph_def"]
    assert graph_def.library.function
    for function in graph_def.library.function:
        nodes = {n.name: n for n in function.node_def}
        refs = [i for n in function.node_def for i in n.input] + list(function.ret.values())
        for ref in refs:
            parts = ref.lstrip("^").split(":")
            if len(parts) == 3:
                outputs = [name for name, _ in OP_SIGNATURES[nodes[parts[0]].op][0]]
                assert parts[1] in outputs, ref
        assert set(function.ret) == {a.name for a in function.signature.output_arg}


def test_nodes_carry_only_tensorflow_attrs_and_captures_become_constants():
    graph_def = _case("dense", *FUNCTIONS["dense"]())["graph_def"]
    kinds = {n.op for n in graph_def.node}
    assert "ReadVariableOp" not in kinds and "Placeholder" in kinds
    for node in graph_def.node:
        assert all(k in OP_SIGNATURES[node.op][1] or k.startswith("_") for k in node.attr)
        for t in node.attr.values():
            assert t.type != 20  # no DT_RESOURCE left


def test_unexportable_ops_are_listed_with_their_lines():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        v.assign_add(x)
        return tf.eye(2) * x

    with pytest.raises(TensorFlowExportError) as info:
        tf_graph_def(f.get_concrete_function(tf.constant(1.0)))
    problems = info.value.problems
    assert any("Eye" in p and "test_tensorflow_interop.py" in p for p in problems)
    assert any("AssignAddVariableOp" in p for p in problems)


# ---- under TensorFlow --------------------------------------------------------------------------

def _run_under_tensorflow(cases, directory: pathlib.Path):
    manifest = []
    for case in cases:
        (directory / f"{case['name']}.pb").write_bytes(case["graph_def"].SerializeToString())
        np.savez(directory / f"{case['name']}.in.npz",
                 **{f"a{i}": np.asarray(a) for i, a in enumerate(case["args"])})
        manifest.append({k: case[k] for k in ("name", "inputs", "outputs")})
    (directory / "cases.json").write_text(json.dumps(manifest))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    subprocess.run([TF_PYTHON, str(RUNNER), str(directory)], check=True, env=env,
                   capture_output=True, timeout=600)
    failures = []
    for case in cases:
        error = directory / f"{case['name']}.error.txt"
        if error.exists():
            text = error.read_text()
            if "No OpKernel was registered" not in text:  # TensorFlow has no CPU kernel
                failures.append(f"{case['name']}: {text[:2000]}")
            continue
        with np.load(directory / f"{case['name']}.out.npz", allow_pickle=False) as out:
            got = [out[f"r{i}"] for i in range(len(case["expected"]))]
        for i, (want, have) in enumerate(zip(case["expected"], got)):
            if want.dtype != have.dtype or want.shape != have.shape or not np.allclose(
                    want, have, rtol=1e-6, atol=1e-6, equal_nan=True):
                failures.append(f"{case['name']} output {i}: tracegraph {want!r}, "
                                f"TensorFlow {have!r}, fed {case['args']!r}\n{case['text']}")
    assert not failures, "\n".join(failures)


@needs_tf
def test_tensorflow_runs_guide_functions(tmp_path):
    cases = [_case(name, *make()) for name, make in FUNCTIONS.items()]
    _run_under_tensorflow(cases, tmp_path)


@needs_tf
def test_tensorflow_runs_random_programs(tmp_path):
    from tests.optimize.programs import trace
    from tests.optimize.strategies import programs
    cases, skipped = [], []

    @settings(max_examples=int(os.environ.get("TG_TF_EXAMPLES", "150")), derandomize=True,
              deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(programs())
    def collect(program):
        traced = trace(program)
        if any("random" in op.op_def.flags for op in _all_ops(traced.graph)):
            return  # TensorFlow's random streams differ from tracegraph's
        if any(_differs_in_tensorflow(op, program) for op in _all_ops(traced.graph)):
            return
        try:
            graph_def, inputs, outputs = export_graph_def(traced.graph)
        except TensorFlowExportError as e:
            skipped.append(e.problems[0])
            return
        try:
            concrete_outputs = _run_traced(traced.graph, program.feeds)
        except tf.errors.OpError as e:  # a program that raises (CheckNumerics, Assert)
            skipped.append(str(e).splitlines()[0])
            return
        cases.append({"name": f"p{len(cases)}", "graph_def": graph_def, "args": program.feeds,
                      "inputs": inputs, "outputs": outputs,
                      "expected": concrete_outputs, "text": str(traced.graph)})

    collect()
    print(f"{len(cases)} programs run under TensorFlow; skipped: {skipped}")
    assert len(cases) >= 10, skipped
    _run_under_tensorflow(cases, tmp_path)


def _differs_in_tensorflow(op, program) -> bool:
    """Graphs TensorFlow's kernels run differently, for reasons other than the export."""
    if op.attrs.get("data_format") == "NCHW" and "Pool" in op.type:
        return True  # TensorFlow's CPU kernels pool NHWC only
    if op.type == "Round" and op.inputs[0].dtype.is_integer:
        return True  # TensorFlow 2.21's Round kernel returns 0 for integers (tf.round never
        # makes that op: it returns integer tensors as they are)
    if op.type in ("LeftShift", "RightShift"):
        return True  # shifting by a negative or too wide amount is implementation-defined
    if not _finite(program.feeds + program.captures + program.variables) or (
            op.type == "Const" and not _finite([op.attrs["value"]])):
        return True  # NaN and inf: TensorFlow's kernels and Grappler differ from IEEE rules
        # (padded convolutions skip inf * 0, Relu6(NaN) is 0, LogicalNot(Less) -> GreaterEqual)
    return False


def _finite(arrays) -> bool:
    return all(np.isfinite(np.asarray(a, dtype=np.float64)).all() for a in arrays
               if np.asarray(a).dtype.kind in "fiub")


def _all_ops(graph):
    for op in graph.operations:
        yield op
        for _, sub in op.subgraphs():
            yield from _all_ops(sub)


def _run_traced(graph, feeds):
    from tracegraph.execute.compile import compile_graph
    constants = [(ph, getattr(v, "_value", v)) for v, ph in graph.captures.values()]
    fn = compile_graph(graph, list(graph.inputs), list(graph.outputs), constants, "interpreter")
    return [np.asarray(v) for v in fn(*[np.asarray(f) for f in feeds])]
