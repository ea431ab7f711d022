"""Sibling tests for the passes other than arithmetic: what each rewrites (graph text before
and after) and that results stay the same."""

import contextlib
import io

import numpy as np

import tracegraph as tf

from .helpers import apply_pass, op_types, ops_text, run, same, spec, traced


def test_pruning_removes_unneeded_and_trivial_identities():
    def f(x):
        tf.gather(x, [5])                  # not needed
        y = tf.identity(x * 2.0)           # a trivial identity
        return y + 1.0

    g = traced(f, spec([2]))
    new = apply_pass("pruning", g)
    assert "GatherV2" not in op_types(new) and op_types(new).count("Identity") == 1
    assert ops_text(new).splitlines()[-2:] == ["add = AddV2(mul, add/y)",
                                               "Identity_1 = Identity(add)"]
    assert same(run(g, np.ones(2, np.float32))[0], run(new, np.ones(2, np.float32))[0])


def test_pruning_keeps_stateful_ops():
    v = tf.Variable(1.0)

    def f(x):
        v.assign_add(x)
        return x

    g = traced(f, spec([]))
    assert "AssignAddVariableOp" in ops_text(apply_pass("pruning", g))


def test_function_inlining():
    @tf.function
    def inner(x):
        return x * 2.0

    def outer(x):
        return inner(x) + 1.0

    g = traced(outer, spec([3]))
    assert "PartitionedCall" in ops_text(g)
    new = apply_pass("function_optimization", g)
    text = ops_text(new)
    assert "PartitionedCall" not in text and "inner/mul = Mul(x, inner/mul/y)" in text
    x = np.array([1.0, 2.0, 3.0], np.float32)
    assert same(run(g, x)[0], run(new, x)[0])


def test_function_inlining_keeps_side_effect_order():
    v = tf.Variable(0.0)

    @tf.function
    def bump(x):
        v.assign_add(x)
        return v.read_value()

    def outer(x):
        a = bump(x)
        v.assign(10.0)
        b = bump(x)
        return a, b

    g = traced(outer, spec([]))
    new = apply_pass("function_optimization", g)
    v.assign(0.0)
    first = run(g, np.float32(1.0))
    v.assign(0.0)
    second = run(new, np.float32(1.0))
    assert [float(a) for a in first] == [float(b) for b in second] == [1.0, 11.0]


def test_cse_merges_pure_ops_only():
    def f(x):
        a = tf.sin(x) + tf.sin(x)
        b = tf.random.uniform([2], seed=1) + tf.random.uniform([2], seed=1)
        return a * (x + 1.0) * (1.0 + x), b

    g = traced(f, spec([2]))
    new = apply_pass("common_subgraph_elimination", g)
    text = ops_text(new)
    assert text.count("= Sin(") == 1 and text.count("= RandomUniform(") == 2
    assert text.count("= AddV2(x, ") == 1  # x + 1 and 1 + x (commutative) merged
    x = np.array([0.5, -1.0], np.float32)
    assert same(run(g, x)[0], run(new, x)[0])


def test_cse_compares_attrs_holding_structures():
    """Attrs that hold dicts (a dataset op's element_spec of a dict) are compared by value: two
    equal datasets merge, and the pass never fails on an unhashable attr (it used to be skipped
    with an OptimizerWarning)."""
    def f(x):
        a = tf.data.Dataset.from_tensors({"a": x}).reduce(0.0, lambda s, e: s + e["a"])
        b = tf.data.Dataset.from_tensors({"a": x}).reduce(0.0, lambda s, e: s + e["a"])
        c = tf.data.Dataset.from_tensors({"b": x}).reduce(0.0, lambda s, e: s + e["b"])
        return a + b + c

    import warnings
    g = traced(f, spec([]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = apply_pass("common_subgraph_elimination", g)
    kinds = op_types(g)
    assert op_types(new).count("TensorDataset") == kinds.count("TensorDataset") - 1
    assert same(run(g, np.float32(2.0))[0], run(new, np.float32(2.0))[0])


def test_constant_folding():
    def f(x):
        a = tf.constant(np.arange(4, dtype=np.float32))
        return x + tf.reduce_sum(a * 2.0) + tf.cast(tf.shape(x)[0], tf.float32)

    g = traced(f, spec([None]))
    new = apply_pass("constant_folding", g)
    assert "Sum" not in op_types(new) and "Mul" not in op_types(new)
    x = np.array([1.0, 2.0], np.float32)
    assert same(run(g, x)[0], run(new, x)[0])


def test_constant_folding_materializes_static_shapes_and_never_folds_random():
    def f(x):
        return tf.cast(tf.size(x), tf.float32) + tf.random.uniform([3], seed=4)

    new = apply_pass("constant_folding", traced(f, spec([3, 2])))
    assert "Size" not in op_types(new) and "RandomUniform" in op_types(new)


def test_constant_folding_respects_the_size_cap():
    def f(x):
        return x + tf.reduce_sum(tf.ones([2000, 2000]))  # 16 MB: above the 10 MiB cap

    new = apply_pass("constant_folding", traced(f, spec([])))
    assert "Fill" in op_types(new)


def test_shape_optimization():
    def f(x):
        n = tf.shape(x)[1]                   # known dim of a partly known shape
        return tf.reshape(x, [2, 3]) * tf.cast(n, tf.float32), tf.reduce_prod(tf.shape(x))

    g = traced(f, spec([2, 3]))
    new = apply_pass("shape_optimization", g)
    types = op_types(new)
    assert "Reshape" not in types and "StridedSlice" not in types and "Size" in types
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for a, b in zip(run(g, x), run(new, x)):
        assert same(a, b)


def test_dependency_optimization_removes_identities_and_noops():
    def f(x):
        return tf.identity(tf.identity(x) * 2.0)

    g = traced(f, spec([]))
    new = apply_pass("dependency_optimization", g)
    assert ops_text(new).count("Identity(") == 1  # only the output's


def test_debug_stripper():
    def f(x):
        tf.debugging.check_numerics(x, "bad")
        tf.Assert(x > 0, [x])
        tf.print(x)
        return x * 2.0

    g = traced(f, spec([]))
    new = apply_pass("pruning", apply_pass("debug_stripper", g))
    text = ops_text(new)
    assert "CheckNumerics" not in text and "Assert" not in text and "PrintV2" not in text
    out = io.StringIO()
    with contextlib.redirect_stderr(out):
        assert run(new, np.float32(-np.inf))[0] == -np.inf
    assert out.getvalue() == ""


def test_loop_invariant_code_motion():
    def f(x, n):
        i = tf.constant(0)
        s = tf.constant(0.0)
        while i < n:
            s += tf.reduce_sum(tf.exp(x) * 2.0)  # invariant: x never changes in the loop
            i += 1
        return s

    g = traced(f, spec([3]), spec([], tf.int32))
    new = apply_pass("loop_optimization", g)
    body = next(op for op in new.operations if op.type.endswith("While")).attrs["body"]
    assert "Exp" not in op_types(body) and "Exp" in op_types(new)
    x = np.array([0.0, 1.0, 2.0], np.float32)
    assert same(run(g, x, np.int32(4))[0], run(new, x, np.int32(4))[0])


def test_dead_branch_removal():
    def f(x):
        return tf.cond(tf.constant(True), lambda: x * 2.0, lambda: x - 1.0)

    g = traced(f, spec([]))
    new = apply_pass("loop_optimization", g)
    text = ops_text(new)
    assert "If" not in text and "cond/mul" in text
    assert run(new, np.float32(3.0))[0] == 6.0


def test_remapper_fuses_matmul_bias_relu():
    w = tf.constant(np.ones((4, 3), np.float32))
    bias = tf.constant(np.arange(3, dtype=np.float32))

    def f(x):
        return tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w), bias)), tf.matmul(x, w) + bias

    g = traced(f, spec([2, 4]))
    new = apply_pass("remapping", g)
    types = op_types(new)
    assert types.count("_FusedMatMul") == 2 and "Relu" not in types and "BiasAdd" not in types
    fused = [op for op in new.operations if op.type == "_FusedMatMul"]
    assert [op.attrs["fused_ops"] for op in fused] == [("BiasAdd", "Relu"), ("BiasAdd",)]
    x = np.random.default_rng(0).standard_normal((2, 4)).astype(np.float32)
    for a, b in zip(run(g, x), run(new, x)):
        assert same(a, b)


def test_remapper_fuses_conv2d():
    k = tf.constant(np.ones((3, 3, 2, 4), np.float32) / 9)
    bias = tf.constant(np.arange(4, dtype=np.float32))

    def f(x):
        return tf.nn.relu6(tf.nn.bias_add(tf.nn.conv2d(x, k, 1, "SAME"), bias))

    g = traced(f, spec([1, 5, 5, 2]))
    new = apply_pass("remapping", g)
    assert "_FusedConv2D" in op_types(new) and "Relu6" not in op_types(new)
    x = np.random.default_rng(1).standard_normal((1, 5, 5, 2)).astype(np.float32)
    assert same(run(g, x)[0], run(new, x)[0])


def test_memory_optimization_reuses_dead_buffers():
    def f(x):
        y = tf.sin(x)
        for _ in range(4):
            y = tf.exp(y) * 0.5 + 1.0
        return y

    g = traced(f, spec([1000]))
    from tracegraph.optimize import options
    from tracegraph.optimize.passes import PASSES, PassContext
    ctx = PassContext(options.current())
    new = PASSES["memory_optimization"].fn(g, ctx)
    marked = [op for op in new.operations if op.inplace_input is not None]
    assert len(marked) >= 8
    assert "peak intermediate memory 8,000 -> 4,000 bytes" in ctx.detail
    x = np.linspace(-1, 1, 1000, dtype=np.float32)
    assert same(run(g, x)[0], run(new, x)[0])


def test_memory_optimization_never_overwrites_inputs_or_shared_values():
    def f(x):
        a = x * 2.0             # x is an argument: never overwritten
        b = a + 1.0             # a is read twice: not overwritten
        return b * a

    new = apply_pass("memory_optimization", traced(f, spec([4])))
    inplace = {op.name: op.inplace_input for op in new.operations}
    assert inplace["mul"] is None and inplace["add"] is None


def test_layout_optimizer_runs_nchw_as_nhwc_with_one_transpose_each_end():
    k1 = tf.constant(np.ones((3, 3, 2, 4), np.float32) / 9)
    k2 = tf.constant(np.ones((3, 3, 4, 4), np.float32) / 9)
    bias = tf.constant(np.arange(4, dtype=np.float32))

    def f(x):
        y = tf.nn.conv2d(x, k1, 1, "SAME", data_format="NCHW")
        y = tf.nn.relu(tf.nn.bias_add(y, bias, data_format="NCHW"))
        return tf.nn.conv2d(y, k2, 1, "SAME", data_format="NCHW")

    g = traced(f, spec([1, 2, 5, 5]))
    new = apply_pass("layout_optimizer", g)
    text = ops_text(new)
    assert text.count("= Transpose(") == 2
    assert all(op.attrs.get("data_format", "NHWC") == "NHWC" for op in new.operations)
    x = np.random.default_rng(2).standard_normal((1, 2, 5, 5)).astype(np.float32)
    assert same(run(g, x)[0], run(new, x)[0])


def test_auto_mixed_precision():
    w = tf.constant(np.ones((4, 3), np.float32) / 4)

    def f(x):
        return tf.matmul(tf.matmul(x, tf.ones([4, 4])), w)

    g = traced(f, spec([2, 4]))
    new = apply_pass("pruning", apply_pass("auto_mixed_precision", g))
    casts = [op for op in new.operations if op.type == "Cast"]
    matmuls = [op for op in new.operations if op.type == "MatMul"]
    assert all(op.outputs[0].dtype is tf.float16 for op in matmuls)
    assert len(casts) == 4  # x, the two weights, the output: the pair between cancels
    x = np.ones((2, 4), np.float32)
    assert np.allclose(run(g, x)[0], run(new, x)[0], rtol=1e-2)


def test_no_effect_passes_change_nothing():
    g = traced(lambda x: x * 2.0 + 1.0, spec([3]))
    for name in ("pin_to_host_optimization", "scoped_allocator_optimization", "auto_parallel"):
        assert apply_pass(name, g) is g
