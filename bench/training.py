"""One SGD training step of a 784-256-10 MLP (batch 128): GradientTape, sparse softmax
cross-entropy, updates by `assign_sub`; eager, as a tf.function, and the tf.function's first
call (trace + optimize + compile + run); and the same step with `tf.optimizers.Adam`.

    python bench/training.py [--compare /root/.cache/tracegraph-tf221/bin/python]
"""

import numpy as np
from harness import Workload, main

BATCH, IN, HIDDEN, OUT, LR = 128, 784, 256, 10, 0.01


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(BATCH, IN)).astype(np.float32)
    y = rng.integers(0, OUT, size=BATCH).astype(np.int64)
    w1 = (rng.normal(size=(IN, HIDDEN)) * 0.05).astype(np.float32)
    w2 = (rng.normal(size=(HIDDEN, OUT)) * 0.05).astype(np.float32)
    return x, y, w1, w2


def _model(tf, optimizer=None):
    """The MLP's training step: SGD by `assign_sub`, or `optimizer.apply_gradients`."""
    x, y, w1, w2 = _data()
    params = [tf.Variable(w1), tf.Variable(np.zeros(HIDDEN, np.float32)),
              tf.Variable(w2), tf.Variable(np.zeros(OUT, np.float32))]

    def step(x, y):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, params[0]) + params[1])
            logits = tf.matmul(h, params[2]) + params[3]
            loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        grads = tape.gradient(loss, params)
        if optimizer is None:
            for p, g in zip(params, grads):
                p.assign_sub(LR * g)
        else:
            optimizer.apply_gradients(zip(grads, params))
        return loss
    return step, tf.constant(x), tf.constant(y)


def _adam_model(tf):
    """The same MLP trained with tf.optimizers.Adam (TensorFlow's Keras 3 Adam)."""
    return _model(tf, tf.optimizers.Adam(0.001))


def adam_graph(tf):
    step, x, y = _adam_model(tf)
    f = tf.function(step)
    f(x, y)
    return lambda: f(x, y)


def eager(tf):
    step, x, y = _model(tf)
    return lambda: step(x, y)


def graph(tf):
    step, x, y = _model(tf)
    f = tf.function(step)
    f(x, y)
    return lambda: f(x, y)


def first_call(tf):
    step, x, y = _model(tf)
    return lambda: tf.function(step)(x, y)


def numpy_step():
    """The floor: the same forward and backward pass written by hand in NumPy."""
    x, y, w1, w2 = _data()
    b1, b2 = np.zeros(HIDDEN, np.float32), np.zeros(OUT, np.float32)
    params = [w1, b1, w2, b2]
    rows = np.arange(BATCH)

    def step():
        w1, b1, w2, b2 = params
        a = x @ w1 + b1
        h = np.maximum(a, 0)
        logits = h @ w2 + b2
        shifted = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        p = e / e.sum(axis=1, keepdims=True)
        loss = -np.log(p[rows, y]).mean()
        p[rows, y] -= 1
        dlogits = p / BATCH
        dw2 = h.T @ dlogits
        db2 = dlogits.sum(axis=0)
        dh = dlogits @ w2.T
        da = dh * (a > 0)
        dw1 = x.T @ da
        db1 = da.sum(axis=0)
        params[:] = [w1 - LR * dw1, b1 - LR * db1, w2 - LR * dw2, b2 - LR * db2]
        return loss
    return step


WORKLOADS = [
    Workload("MLP 784-256-10 training step, tf.function", graph, number=200, numpy=numpy_step),
    Workload("MLP 784-256-10 training step, eager", eager, number=100, numpy=numpy_step),
    Workload("MLP 784-256-10 training step, first call (trace+optimize+run)", first_call,
             number=3, repeat=5),
    Workload("MLP 784-256-10 training step with tf.optimizers.Adam, tf.function", adam_graph,
             number=200),
]

if __name__ == "__main__":
    main("Training: a GradientTape step of a small MLP", WORKLOADS)
