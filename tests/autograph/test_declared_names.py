"""A function's `global` and `nonlocal` names assigned inside converted control flow keep
their scope: the generated branch and loop bodies repeat the declaration (as TensorFlow's
AutoGraph does), so `global g; if g is None: g = ...` sets the module's `g` (the random
numbers guide makes its Generator that way)."""

import tracegraph as tf

made = None
counter = 0


def test_global_assigned_in_an_if_body():
    global made
    made = None

    @tf.function
    def f():
        global made
        if made is None:
            made = tf.Variable(2.0)
        return made.read_value()

    assert f().numpy() == 2.0 and f().numpy() == 2.0
    assert isinstance(made, tf.Variable)
    assert "global made" in tf.autograph.to_code(f.python_function).split("def if_body")[1]


def test_global_assigned_in_a_python_loop():
    global counter
    counter = 0

    @tf.function
    def f(n):
        global counter
        for _ in range(n):
            counter += 1
        return tf.constant(counter)

    assert f(3).numpy() == 3 and counter == 3


def test_nonlocal_assigned_in_a_branch():
    state = []
    box = None

    @tf.function
    def f():
        nonlocal box
        if box is None:
            box = tf.Variable(1)
            state.append(box)
        return box.read_value()

    assert f().numpy() == 1 and box is state[0]
