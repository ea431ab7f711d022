"""tf.function, tf.cond and tf.while_loop with composite results (values made of tensors and
described by a spec, here tf.experimental.Optional): a traced function returns
them as TensorFlow does, rebuilt around its graph outputs at each call (what Keras's trainer
needs: its traced step returns `Optional.from_value(logs)`)."""

import numpy as np
import pytest

import tracegraph as tf

Optional = tf.experimental.Optional


def test_function_returns_an_optional_with_a_value():
    @tf.function
    def f(x):
        return Optional.from_value({"double": x * 2.0, "sum": tf.reduce_sum(x)})

    out = f(tf.constant([1.0, 2.0]))
    assert isinstance(out, Optional)
    assert bool(out.has_value())
    value = out.get_value()
    np.testing.assert_array_equal(value["double"].numpy(), [2.0, 4.0])
    assert float(value["sum"]) == 3.0
    assert out.element_spec["double"] == tf.TensorSpec((2,), tf.float32)
    # the graph outputs the Optional's variant tensor
    graph = f.get_concrete_function(tf.constant([1.0, 2.0])).graph
    assert [t.dtype for t in graph.outputs] == [tf.variant]


def test_function_returns_nested_structures_holding_optionals_and_tensors():
    @tf.function
    def f(x):
        return {"opt": Optional.from_value(x + 1), "plain": x - 1,
                "pair": (Optional.empty(tf.TensorSpec((), tf.float32)), 7)}

    out = f(tf.constant(1.0))
    assert float(out["opt"].get_value()) == 2.0
    assert float(out["plain"]) == 0.0
    assert not bool(out["pair"][0].has_value())
    assert out["pair"][1] == 7
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        out["pair"][0].get_value()


def test_optional_of_an_iterator_per_call():
    dataset = tf.data.Dataset.range(3)

    @tf.function
    def next_of(iterator):
        return iterator.get_next_as_optional()

    iterator = iter(dataset)
    got = []
    for _ in range(4):
        opt = next_of(iterator)
        got.append(int(opt.get_value()) if bool(opt.has_value()) else None)
    assert got == [0, 1, 2, None]
    assert next_of.experimental_get_tracing_count() == 1


def test_called_from_another_function_and_in_cond_branches():
    @tf.function
    def inner(x):
        return Optional.from_value(x * 3.0)

    @tf.function
    def outer(x, flag):
        opt = tf.cond(flag, lambda: inner(x), lambda: Optional.from_value(x - 1.0))
        return opt.get_value(), opt.has_value()

    value, has = outer(tf.constant(2.0), tf.constant(True))
    assert float(value) == 6.0 and bool(has)
    value, _ = outer(tf.constant(2.0), tf.constant(False))
    assert float(value) == 1.0


def test_cond_branches_must_both_return_optionals():
    @tf.function
    def f(flag):
        return tf.cond(flag, lambda: Optional.from_value(1.0), lambda: tf.constant(1.0))

    with pytest.raises(TypeError, match="same dtype in both branches"):
        f(tf.constant(True))


def test_while_loop_carries_an_optional():
    """Keras's steps_per_execution loop: an Optional of the last step's outputs is a loop
    variable, and the loop reads the next element as an Optional."""
    dataset = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0, 4.0, 5.0])

    @tf.function
    def run(iterator, steps):
        def cond(i, last, nxt):
            return tf.logical_and(i < steps, nxt.has_value())

        def body(i, last, nxt):
            out = tf.cond(nxt.has_value(), lambda: Optional.from_value(nxt.get_value() * 10.0),
                          lambda: last)
            return i + 1, out, iterator.get_next_as_optional()

        start = Optional.from_value(tf.constant(0.0))
        _, last, _ = tf.while_loop(cond, body, [tf.constant(0), start,
                                                iterator.get_next_as_optional()])
        return last

    iterator = iter(dataset)
    assert float(run(iterator, tf.constant(2)).get_value()) == 20.0
    # the iterator moved 3 elements (the loop reads one ahead)
    assert float(run(iterator, tf.constant(5)).get_value()) == 50.0


def test_a_training_step_returns_its_logs_as_an_optional():
    """Keras's pattern: gradients are taken inside the step, the logs leave in an Optional."""
    w = tf.Variable(3.0)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = (w * x) ** 2
        w.assign_sub(0.1 * tape.gradient(loss, w))
        return Optional.from_value({"loss": loss})

    logs = step(tf.constant(1.0)).get_value()
    assert float(logs["loss"]) == 9.0
    assert float(w) == pytest.approx(3.0 - 0.1 * 6.0)


def test_gradient_of_a_tensor_returned_beside_an_optional():
    """Called eagerly under a tape, the call's entry matches graph outputs to the returned
    tensors, an Optional standing for its variant tensor."""
    @tf.function
    def f(x):
        return Optional.from_value(x + 1.0), x * x

    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        opt, y = f(x.read_value())
    assert float(opt.get_value()) == 4.0
    assert float(tape.gradient(y, x)) == pytest.approx(6.0)
