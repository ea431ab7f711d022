"""Random-number cases run alike under TensorFlow 2.21 and tracegraph: each case is a function
of `(tf, raw)` (`raw(op_type, **inputs_and_attrs)` runs one op, `tf.raw_ops` style) returning
a dict of NumPy arrays. `fixtures/make_random_fixture.py` stores TensorFlow's results in
`fixtures/tf_random.npz`; `test_random_fixture.py` runs the same cases on tracegraph and
compares bit for bit; `test_random_live.py` reruns them on TensorFlow when it is installed.
Large draws are stored as a SHA-256 of their bytes and their first values."""

from __future__ import annotations

import hashlib

import numpy as np

FLOATS = ("float16", "bfloat16", "float32", "float64")
BIG = 100_003   # elements of the large draws: an odd count leaves a partial group


def as_numpy(t) -> np.ndarray:
    """bfloat16 values as float32 (both frameworks print them from float32)."""
    if str(getattr(t, "dtype", "")).find("bfloat16") >= 0:
        t = t.numpy().astype(np.float32) if hasattr(t, "numpy") else t
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def digest(values) -> dict:
    a = np.ascontiguousarray(as_numpy(values))
    return {"sha256": np.frombuffer(hashlib.sha256(a.tobytes()).digest(), np.uint8),
            "head": a.reshape(-1)[:8], "shape": np.array(a.shape, np.int64)}


def stateless_floats(tf, raw):
    out = {}
    for dt in FLOATS:
        for seed_name, seed in (("a", [1, 2]), ("b", [-1, 2 ** 40]), ("c", [123, 456])):
            out[f"uniform_{dt}_{seed_name}"] = tf.random.stateless_uniform([7], seed, dtype=dt)
            out[f"normal_{dt}_{seed_name}"] = tf.random.stateless_normal([2, 3], seed, dtype=dt)
            out[f"truncated_{dt}_{seed_name}"] = tf.random.stateless_truncated_normal(
                [9], seed, dtype=dt)
        if dt != "bfloat16":   # tracegraph's bfloat16 arithmetic is float32's, not rounded
            out[f"scaled_{dt}"] = tf.random.stateless_uniform([5], [4, 5], minval=-2.5,
                                                              maxval=7, dtype=dt)
            out[f"shifted_{dt}"] = tf.random.stateless_normal([5], [4, 5], mean=3.,
                                                              stddev=0.5, dtype=dt)
    out["int32_seed"] = tf.random.stateless_normal([4], tf.constant([3, -4], tf.int32))
    out["empty"] = tf.random.stateless_uniform([0, 3], [1, 2])
    out["scalar"] = tf.random.stateless_truncated_normal([], [1, 2], dtype="float64")
    out["tensor_bounds"] = tf.random.stateless_uniform([3], [1, 2], minval=[0., 10., 20.],
                                                       maxval=30.)
    for alg in ("philox", "auto_select", tf.random.Algorithm.PHILOX, 1):
        out[f"alg_{alg!s}"] = tf.random.stateless_uniform([3], [8, 9], alg=alg)
    return {k: as_numpy(v) for k, v in out.items()}


def stateless_big(tf, raw):
    out = {}
    for dt in FLOATS:
        n = BIG if dt in ("float32", "float64") else BIG // 10
        for kind, fn in (("uniform", tf.random.stateless_uniform),
                         ("normal", tf.random.stateless_normal),
                         ("truncated", tf.random.stateless_truncated_normal)):
            for key, value in digest(fn([n], [7, -9], dtype=dt)).items():
                out[f"{kind}_{dt}|{key}"] = value
    return out


def stateless_ints(tf, raw):
    out = {
        "int32": tf.random.stateless_uniform([20], [-5, 2 ** 40], minval=-7, maxval=1000,
                                             dtype=tf.int32),
        "int64": tf.random.stateless_uniform([20], [-5, 2 ** 40], minval=-2 ** 40,
                                             maxval=2 ** 40, dtype=tf.int64),
        "int32_span": tf.random.stateless_uniform([9], [3, 4], minval=-2 ** 31,
                                                  maxval=2 ** 31 - 1, dtype=tf.int32),
        "int64_span": tf.random.stateless_uniform([9], [3, 4], minval=-2 ** 63,
                                                  maxval=2 ** 63 - 1, dtype=tf.int64),
    }
    for dt in ("int32", "int64", "uint32", "uint64"):
        out[f"full_{dt}"] = tf.random.stateless_uniform([7], [1, 2], minval=None, maxval=None,
                                                        dtype=dt)
    for key, value in digest(tf.random.stateless_uniform(
            [BIG], [11, 12], minval=-3, maxval=12345, dtype=tf.int64)).items():
        out[f"big_int64|{key}"] = value
    return {k: as_numpy(v) for k, v in out.items()}


def seeds_and_raw_ops(tf, raw):
    out = {}
    for name, seed in (("small", [1, 2]), ("negative", [-1, -5]), ("wide", [2 ** 62, -2 ** 63])):
        for dt in ("int32", "int64"):
            if dt == "int32" and name == "wide":
                continue
            key, counter = raw("StatelessRandomGetKeyCounter", seed=tf.constant(seed, dt))
            out[f"key_{name}_{dt}"], out[f"counter_{name}_{dt}"] = key, counter
    key, counter, alg = raw("StatelessRandomGetKeyCounterAlg", seed=tf.constant([5, 6]))
    out.update(kca_key=key, kca_counter=counter, kca_alg=alg)
    out["get_alg"] = raw("StatelessRandomGetAlg")
    k = tf.constant([5], tf.uint64)
    c = tf.constant([2 ** 64 - 2, 7], tf.uint64)      # block 2 carries into the high word
    for op in ("StatelessRandomUniformV2", "StatelessRandomNormalV2",
               "StatelessTruncatedNormalV2"):
        out[op] = raw(op, shape=[11], key=k, counter=c, alg=1)
    out["StatelessRandomUniformFullIntV2"] = raw(
        "StatelessRandomUniformFullIntV2", shape=[5], key=k, counter=c, alg=3, dtype=tf.int64)
    out["StatelessRandomUniformIntV2"] = raw(
        "StatelessRandomUniformIntV2", shape=[6], key=k, counter=c, alg=1,
        minval=tf.constant(-10, tf.int64), maxval=tf.constant(10, tf.int64))
    seed = tf.constant([10, 20], tf.int64)
    for op in ("StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal"):
        out[op] = raw(op, shape=[5], seed=seed, dtype=tf.float64)
    out["StatelessRandomUniformInt"] = raw("StatelessRandomUniformInt", shape=[5], seed=seed,
                                           minval=tf.constant(0), maxval=tf.constant(10))
    out["StatelessRandomUniformFullInt"] = raw("StatelessRandomUniformFullInt", shape=[5],
                                               seed=seed, dtype=tf.uint32)
    return {k: as_numpy(v) for k, v in out.items()}


def categorical_and_seeds(tf, raw):
    inf = float("inf")
    out = {
        "cat": tf.random.stateless_categorical([[0., 1., 2.]], 5, seed=[1, 2]),
        "cat_rows": tf.random.stateless_categorical(
            tf.math.log([[0.5, 0.5, 0.0], [0.1, 0.2, 0.7]]), 6, seed=[7, 17]),
        "cat_inf": tf.random.stateless_categorical([[-inf, 0., 1.], [0.5, 0.5, 0.5],
                                                    [-inf, -inf, 3.]], 20, seed=[3, 4],
                                                   dtype=tf.int32),
        "cat_f64": tf.random.stateless_categorical(tf.constant([[1., 2., 3., 4.]], tf.float64),
                                                   12, seed=[-3, 9]),
        "cat_many": tf.random.stateless_categorical(tf.zeros([8, 10]), 30, seed=[5, 5]),
        # split into parts by TensorFlow's CPU threads (fixture: "threads")
        "cat_parts": tf.random.stateless_categorical(
            tf.math.log(tf.reshape(tf.range(1., 641.), [64, 10])), 50, seed=[1, 2]),
        "split": tf.random.split([1, 2], 3),
        "split_int64": tf.random.experimental.stateless_split(tf.constant([1, 2], tf.int64)),
        "fold_in": tf.random.fold_in([1, 2], 7),
        "fold_in_int64": tf.random.experimental.stateless_fold_in([1, 2],
                                                                  tf.constant(7, tf.int64)),
    }
    x = tf.reshape(tf.range(1, 13, dtype=tf.float32), [3, 4])
    out["dropout"] = tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2])
    out["dropout_rows"] = tf.nn.experimental.stateless_dropout(x, 0.25, seed=[1, 2],
                                                               noise_shape=[None, 1])
    out["dropout_tensor_rate"] = tf.nn.experimental.stateless_dropout(
        x, tf.constant(0.3), seed=[4, 2])
    out["dropout_f16"] = tf.nn.experimental.stateless_dropout(tf.cast(x, tf.float16), 0.4,
                                                              seed=[4, 2])
    return {k: as_numpy(v) for k, v in out.items()}


def generator(tf, raw):
    out = {}
    g = tf.random.Generator.from_seed(1234)
    steps = [
        ("normal", lambda: g.normal([2, 3])),
        ("uniform_int32", lambda: g.uniform([5], minval=-3, maxval=3, dtype=tf.int32)),
        ("uniform_int64", lambda: g.uniform([5], minval=-2 ** 40, maxval=7, dtype=tf.int64)),
        ("uniform_f64", lambda: g.uniform([3], minval=-3, maxval=3, dtype=tf.float64)),
        ("uniform_bf16", lambda: g.uniform([4], dtype=tf.bfloat16)),
        ("normal_f16", lambda: g.normal([5], mean=1., stddev=2., dtype=tf.float16)),
        ("truncated", lambda: g.truncated_normal([6], stddev=3.)),
        ("truncated_f64", lambda: g.truncated_normal([3], dtype=tf.float64)),
        ("full_u32", lambda: g.uniform_full_int([3], dtype=tf.uint32)),
        ("full_default", lambda: g.uniform_full_int([2])),
        ("full_via_uniform", lambda: g.uniform([2], minval=None, maxval=None, dtype=tf.int64)),
        ("scalar", lambda: g.normal([])),
        ("make_seeds", lambda: g.make_seeds(3)),
    ]
    for name, step in steps:
        out[name] = step()
        out[f"{name}|state"] = g.state.numpy()
    for i, child in enumerate(g.split(2)):
        out[f"split{i}|state"] = child.state.numpy()
        out[f"split{i}|normal"] = child.normal([3])
    out["after_split|state"] = g.state.numpy()
    g.skip(5)
    out["skip|state"] = g.state.numpy()
    g.reset_from_seed(7)
    out["reset_from_seed|state"] = g.state.numpy()
    g.reset([1, 2, 3])
    out["reset|uniform"] = g.uniform([4])
    g.reset_from_key_counter(9, [3, 4])
    out["reset_from_key_counter|state"] = g.state.numpy()
    wrap = tf.random.Generator.from_state([-1, 0, 7], tf.random.Algorithm.PHILOX)
    out["wrap|normal"] = wrap.normal([6])          # the counter's low word carries
    out["wrap|state"] = wrap.state.numpy()
    for name, seed in (("list", [1, 2, 3, 4, 5]), ("short", [5]), ("negative", -5),
                       ("huge", 2 ** 70 + 5), ("top", 2 ** 64 - 1)):
        out[f"from_seed_{name}|state"] = tf.random.Generator.from_seed(seed).state.numpy()
    out["key_counter|state"] = tf.random.Generator.from_key_counter(
        5, [1, 2], "philox").state.numpy()
    out["auto_select|normal"] = tf.random.Generator.from_seed(
        5, alg="auto_select").normal([3])
    out["create_rng_state"] = tf.random.create_rng_state(1234, "philox")
    out["create_rng_state_threefry"] = tf.random.create_rng_state([12, 34], "threefry")
    h = tf.random.Generator.from_seed(77)

    @tf.function
    def two_draws():
        return h.normal([2]), h.uniform([2], maxval=10, dtype=tf.int32)

    for i in range(2):
        a, b = two_draws()
        out[f"function{i}|normal"], out[f"function{i}|uniform"] = a, b
    out["function|state"] = h.state.numpy()
    return {k: as_numpy(v) for k, v in out.items()}


def threads(tf, raw):
    """The CPU threads the categorical sampler split its batch over."""
    import os
    return {"cpu_threads": np.array(len(os.sched_getaffinity(0)))}


CASES = {f.__name__: f for f in (stateless_floats, stateless_big, stateless_ints,
                                  seeds_and_raw_ops, categorical_and_seeds, generator, threads)}


def run_all(tf, raw) -> dict:
    """Every case's arrays, keyed `case/name`."""
    return {f"{case}/{key}": value for case, fn in CASES.items()
            for key, value in fn(tf, raw).items()}
