"""Plan, reference interpreter and code generator (DESIGN layer 8)."""

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.execute.compile import compile_graph
from tracegraph.execute.plan import make_plan


def concrete(fn, *args):
    return tf.function(fn).get_concrete_function(*args)


def test_plan_is_non_strict_but_keeps_stateful_ops():
    def f(x):
        tf.gather(x, [5])        # unused: not planned
        tf.print(x)              # stateful: planned
        return x + 1

    g = concrete(f, tf.constant([1.0])).graph
    plan = make_plan(g, g.inputs, g.outputs)
    types = [op.type for op in plan.schedule]
    assert "GatherV2" not in types and "PrintV2" in types and "AddV2" in types


def test_plan_liveness():
    g = concrete(lambda x: tf.exp(tf.sin(x)) + x, tf.constant(1.0)).graph
    plan = make_plan(g, g.inputs, g.outputs)
    sin = next(i for i, op in enumerate(plan.schedule) if op.type == "Sin")
    exp = next(i for i, op in enumerate(plan.schedule) if op.type == "Exp")
    sin_out = plan.slot(plan.schedule[sin].outputs[0])
    assert plan.last_use[sin_out] == exp


@pytest.mark.parametrize("executor", ["codegen", "interpreter"])
def test_both_executors(executor):
    def f(x, y):
        z = tf.matmul(x, y)
        parts = tf.split(z, 2, axis=1)
        return tf.concat([parts[1], parts[0]], axis=1), tf.reduce_max(z)

    f = tf.function(f, executor=executor)
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    a, b = f(x, y)
    z = x.numpy() @ y.numpy()
    assert np.array_equal(a.numpy(), np.concatenate([z[:, 2:], z[:, :2]], 1))
    assert b.numpy() == z.max()


def test_generated_code_is_readable(no_optimizer):
    def power(x, y):
        result = tf.eye(3, dtype=tf.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    cf = concrete(power, tf.ones([3, 3], tf.int32), 2)
    source = cf.generated_code
    lines = source.splitlines()
    assert lines[0] == "def power(x):"
    body = [line for line in lines if "# " in line]
    assert len(body) == 3  # Eye and two MatMuls; Identity is an alias, no line
    assert "k_eye(num_rows=3, dtype=int32)" in body[0]  # attrs at their defaults left out
    assert "# Eye" in body[0] and "test_executors.py:" in body[0]
    assert "= x @ v" in body[1] and "# MatMul" in body[1]


def test_dead_values_are_freed_by_name_reuse(no_optimizer):
    def chain(x):
        for _ in range(10):
            x = tf.sin(x)
        return x

    source = concrete(chain, tf.constant(1.0)).generated_code
    names = {line.split(" = ")[0].strip() for line in source.splitlines() if " = k_sin" in line}
    assert len(names) <= 2


def test_inputs_dying_at_an_inlined_branch_stay_alive_through_it():
    # y and z die at the cond; their names must not be reused inside the inlined branches
    # (the generated code once wrote the branch's temporaries over y).
    def f(x, p):
        y = x * 2.0
        z = x * 3.0
        return tf.cond(p, lambda: (y + 1.0) * z + y, lambda: y - z)

    cf = concrete(f, tf.TensorSpec([2]), tf.TensorSpec([], tf.bool))
    x = np.array([1.0, 2.0], np.float32)
    for executor in ("codegen", "interpreter"):
        fn = compile_graph(cf.graph, cf.graph.inputs, cf.graph.outputs, executor=executor)
        np.testing.assert_array_equal(fn(x.copy(), np.bool_(True))[0], (2 * x + 1) * 3 * x + 2 * x)
        np.testing.assert_array_equal(fn(x.copy(), np.bool_(False))[0], 2 * x - 3 * x)


def test_compile_graph_with_constants():
    g = concrete(lambda x: x + 1.0, tf.constant(1.0)).graph
    for executor in ("codegen", "interpreter"):
        fn = compile_graph(g, g.inputs, g.outputs, executor=executor)
        assert fn(np.float32(2.0))[0] == 3.0


def test_codegen_error_maps_to_op_and_line():
    spec = tf.TensorSpec([None], tf.int32)

    @tf.function(input_signature=[spec])
    def f(i):
        return tf.gather(tf.constant([1, 2, 3]), i)

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant([7]))
    assert "[[node GatherV2 (GatherV2) defined at" in str(info.value)
    assert "test_executors.py" in str(info.value)


def test_cross_check_of_nested_calls_with_seeded_random_ops():
    # The suite runs with the cross-check on: the reference and the generated code each draw
    # from their own copy of the inner function's seeded random op, once per call.
    inner = tf.function(lambda y: y + tf.random.uniform([3], seed=7))
    middle = tf.function(lambda y: inner(y))
    outer = tf.function(lambda x: middle(x))
    x = tf.constant([0.0, 1.0, 2.0])
    first, second = outer(x).numpy(), outer(x).numpy()
    assert not np.array_equal(first, second)  # the state advances between calls
