"""Optimizers in training loops: minimize, a tf.Module model trained with Adam eagerly and in a
tf.function, and a checkpoint of model + optimizer restored in a fresh process that continues
exactly where training stopped."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tracegraph as tf


class Linear(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.array([[0.5], [-0.25], [1.0]], np.float32), name="w")
        self.b = tf.Variable(np.zeros([1], np.float32), name="b")

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


def _data():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(16, 3)).astype(np.float32)
    y = (x @ np.array([[2.0], [-1.0], [0.5]], np.float32) + 0.3).astype(np.float32)
    return tf.constant(x), tf.constant(y)


def test_minimize_with_a_callable_loss_and_with_a_tape():
    x, y = _data()
    a, b = Linear(), Linear()
    opt_a, opt_b = tf.optimizers.SGD(0.1), tf.optimizers.SGD(0.1)
    for _ in range(5):
        opt_a.minimize(lambda: tf.reduce_mean(tf.square(a(x) - y)), a.trainable_variables)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(b(x) - y))
        opt_b.minimize(loss, b.trainable_variables, tape=tape)
    np.testing.assert_array_equal(a.w.numpy(), b.w.numpy())
    assert opt_a.iterations.numpy() == 5
    with pytest.raises(ValueError, match="`tape` is required"):
        opt_a.minimize(tf.constant(1.0), a.trainable_variables)


def test_adam_trains_a_module_the_same_eagerly_and_in_a_function():
    x, y = _data()
    models = [Linear(), Linear()]
    opts = [tf.optimizers.Adam(0.05), tf.optimizers.Adam(0.05)]

    def step(model, opt):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    traced = tf.function(lambda: step(models[1], opts[1]))
    losses = [[], []]
    for _ in range(30):
        losses[0].append(float(step(models[0], opts[0])))
        losses[1].append(float(traced()))
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-5)
    assert losses[0][-1] < losses[0][0] / 10
    cf = traced.get_concrete_function()
    assert "AssignSubVariableOp" in cf.generated_code          # the update is in the graph
    assert "Sqrt" in {op.type for op in cf.graph.get_operations()}


SCRIPT = """
import sys, numpy as np, tracegraph as tf
rng = np.random.default_rng(5)
x = tf.constant(rng.normal(size=(16, 3)).astype(np.float32))
y = tf.constant((x.numpy() @ np.array([[2.0], [-1.0], [0.5]], np.float32) + 0.3)
                .astype(np.float32))

class Linear(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.array([[0.5], [-0.25], [1.0]], np.float32), name="w")
        self.b = tf.Variable(np.zeros([1], np.float32), name="b")

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b

model = Linear()
opt = tf.optimizers.Adam(0.05, amsgrad=True)

@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss

ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
mode, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
if mode == "resume":
    opt.build(model.trainable_variables)     # the slots exist before they are restored
    ckpt.read(path).assert_consumed()   # read: written by write (TF)
for _ in range(n):
    step()
if mode == "save":
    ckpt.write(path)
print(repr(model.w.numpy().ravel().tolist()), repr(model.b.numpy().ravel().tolist()),
      int(opt.iterations.numpy()))
"""


def _run(tmp_path, *args):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(SCRIPT))
    result = subprocess.run([sys.executable, str(script), *map(str, args)], capture_output=True,
                            text=True, timeout=300, cwd=tmp_path, env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_a_checkpoint_of_model_and_optimizer_continues_training_in_a_new_process(tmp_path):
    path = tmp_path / "ckpt"
    uninterrupted = _run(tmp_path, "plain", path, 20)
    _run(tmp_path, "save", path, 10)
    resumed = _run(tmp_path, "resume", path, 10)
    assert resumed == uninterrupted
    assert resumed.endswith(" 20")


def test_optimizer_variables_are_in_the_checkpoint(tmp_path):
    model, opt = Linear(), tf.optimizers.RMSprop(0.01, momentum=0.9)
    opt.build(model.trainable_variables)
    path = tf.train.Checkpoint(model=model, optimizer=opt).write(str(tmp_path / "c"))
    keys = [name for name, _ in tf.train.list_variables(path)]
    assert any("optimizer" in k and "iteration" in k for k in keys)
    assert sum("optimizer" in k for k in keys) == 2 + 2 * len(model.trainable_variables)
