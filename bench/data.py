"""tf.data pipelines, side by side with TensorFlow (issue 21's workloads):

1. one epoch of `from_tensor_slices((x, y)).shuffle(60000).batch(128)` over 60,000x784 float32;
2. the same with a traced `map` (normalize x, cast y) before the shuffle;
3. (TFRecord / tf.train.Example: written and read by the files helper's `bench/data_files.py`);
4. eager per-element iteration of `Dataset.range` (microseconds per element);
5. a training loop `for x, y in ds` inside one tf.function (an epoch of an MLP 784-256-10 on
   10,000 examples, batches of 128).

    python bench/data.py [--compare ~/.cache/tracegraph-tf221/bin/python] [--quick]
    BENCH_INTRA_OP_THREADS=1 python bench/data.py ...   # both libraries' intra-op threads

The machine is shared: run several rounds and read the medians with the load in mind.
"""

import os

import numpy as np
from harness import Workload, main

N, FEATURES, BATCH = 60_000, 784, 128


def _threads(tf):
    """`BENCH_INTRA_OP_THREADS=n` sets tf.config.threading's intra-op threads (before the
    first op) in both runs: tracegraph's NumPy BLAS threads, TensorFlow's intra-op pool."""
    n = os.environ.get("BENCH_INTRA_OP_THREADS")
    if n and not getattr(_threads, "done", False):
        tf.config.threading.set_intra_op_parallelism_threads(int(n))
        _threads.done = True


def _arrays(n=N):
    rng = np.random.default_rng(0)
    x = rng.random((n, FEATURES), dtype=np.float32)
    y = rng.integers(0, 10, size=n).astype(np.int64)
    return x, y


def _epoch(ds):
    def run():
        for _ in ds:
            pass
    return run


def shuffle_batch(tf):
    _threads(tf)
    x, y = _arrays()
    return _epoch(tf.data.Dataset.from_tensor_slices((x, y)).shuffle(N).batch(BATCH))


def shuffle_batch_map(tf):
    _threads(tf)
    x, y = _arrays()

    def normalize_and_cast(image, label):
        return (image - 0.5) / 0.25, tf.cast(label, tf.int32)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).map(normalize_and_cast)
    return _epoch(ds.shuffle(N).batch(BATCH))


def numpy_shuffle_batch():
    x, y = _arrays()
    rng = np.random.default_rng(1)

    def run():
        order = rng.permutation(N)
        for i in range(0, N, BATCH):
            take = order[i:i + BATCH]
            x[take], y[take]
    return run


def range_per_element(tf):
    _threads(tf)
    it = iter(tf.data.Dataset.range(10 ** 12))
    return lambda: next(it)


def training_loop(tf):
    _threads(tf)
    n = 10_000
    x, y = _arrays(n)
    rng = np.random.default_rng(2)
    w1 = tf.Variable((rng.normal(size=(FEATURES, 256)) * 0.05).astype(np.float32))
    b1 = tf.Variable(np.zeros(256, np.float32))
    w2 = tf.Variable((rng.normal(size=(256, 10)) * 0.05).astype(np.float32))
    b2 = tf.Variable(np.zeros(10, np.float32))
    params = [w1, b1, w2, b2]

    @tf.function
    def train_epoch(ds):
        total = tf.constant(0.0)
        for xb, yb in ds:
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.matmul(xb, w1) + b1)
                logits = tf.matmul(h, w2) + b2
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                    labels=yb, logits=logits))
            for p, g in zip(params, tape.gradient(loss, params)):
                p.assign_sub(0.01 * g)
            total += loss
        return total
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(n).batch(BATCH)
    train_epoch(ds)
    return lambda: train_epoch(ds)


def numpy_training_loop():
    """The same epoch in bare NumPy (shuffle, batches, forward, backward, SGD): the floor the
    matrix products set."""
    n = 10_000
    x, y = _arrays(n)
    rng = np.random.default_rng(2)
    w1 = (rng.normal(size=(FEATURES, 256)) * 0.05).astype(np.float32)
    b1 = np.zeros(256, np.float32)
    w2 = (rng.normal(size=(256, 10)) * 0.05).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    params = [w1, b1, w2, b2]

    def run():
        order = rng.permutation(n)
        for i in range(0, n, BATCH):
            take = order[i:i + BATCH]
            xb, yb = x[take], y[take]
            w1, b1, w2, b2 = params
            a = xb @ w1 + b1
            h = np.maximum(a, 0)
            logits = h @ w2 + b2
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            p = e / e.sum(axis=1, keepdims=True)
            p[np.arange(len(yb)), yb] -= 1
            dlogits = p / len(yb)
            da = (dlogits @ w2.T) * (a > 0)
            params[:] = [w1 - 0.01 * (xb.T @ da), b1 - 0.01 * da.sum(0),
                         w2 - 0.01 * (h.T @ dlogits), b2 - 0.01 * dlogits.sum(0)]
    return run


WORKLOADS = [
    Workload("1. epoch: from_tensor_slices((x, y)).shuffle(60000).batch(128), 60000x784 f32",
             shuffle_batch, number=1, repeat=5, numpy=numpy_shuffle_batch),
    Workload("2. the same with a traced map (normalize x, cast y) before the shuffle",
             shuffle_batch_map, number=1, repeat=5),
    Workload("4. eager iteration of Dataset.range, per element", range_per_element,
             number=20000, repeat=7),
    Workload("5. training loop `for x, y in ds` in one tf.function, epoch of 10000 (MLP)",
             training_loop, number=1, repeat=5, numpy=numpy_training_loop),
]

if __name__ == "__main__":
    main("tf.data: input pipelines (microseconds per epoch, or per element for 4)", WORKLOADS)
