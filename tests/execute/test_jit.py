"""jit_compile=True: clusters of elementwise ops compiled into numba kernels. Oracles: the same
function without jit (NumPy kernels op by op, bit for bit where the kernel is exact), the
correctly rounded result for the approximated functions, a fresh process for the disk cache."""

import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.execute.compile import compile_subgraph
from tracegraph.execute.jit import APPROX_ULPS, numba_available

pytestmark = pytest.mark.skipif(not numba_available(), reason="needs the numba extra")


def clusters(fn, *args):
    graph = fn.get_concrete_function(*args).optimized_graph
    return [op for op in graph.get_operations() if op.type == "_FusedElementwise"]


def kernel_of(op):
    return compile_subgraph(op.attrs["f"], "jit")


def both(py_fn, *args):
    """(jit result, plain tf.function result) as NumPy arrays."""
    jit = tf.function(py_fn, jit_compile=True)(*args)
    plain = tf.function(py_fn)(*args)
    return jit, plain


def ulps(got, ref):
    return np.abs(got.view(np.int32).astype(np.int64) - ref.view(np.int32).astype(np.int64))


def test_the_benchmark_chain_is_one_kernel_with_the_plain_results():
    def work(x):
        return tf.nn.relu(x * 1.5 + 0.25) * tf.tanh(x) - 0.5 * x

    x = tf.constant(np.random.default_rng(0).normal(size=(1000,)).astype(np.float32))
    f = tf.function(work, jit_compile=True)
    assert len(clusters(f, x)) == 1
    jit, plain = both(work, x)
    np.testing.assert_allclose(jit.numpy(), plain.numpy(), rtol=1e-6, atol=1e-6)
    report = f.get_concrete_function(x).optimizer_report
    assert "jit_fusion" in report.text()
    assert any(r.rule == "fuse_elementwise" for r in report.rewrites)
    source = kernel_of(clusters(f, x)[0]).source
    assert "tanh_f32" in source and "np.float32(1.5)" in source   # constants are literals


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_functions_only_libm_computes_per_element_stay_with_numpy(dtype):
    # sin has no vectorizable form in a kernel (NumPy's loop is several times faster), nor has
    # exp in float64; float32 exp has one. The arithmetic around them still fuses.
    def work(x):
        return tf.exp(tf.sin(x * 2.0) * 0.5) + 1.0

    x = tf.constant(np.linspace(-3, 3, 1000).astype(dtype))
    f = tf.function(work, jit_compile=True)
    cluster_types = [op.type for c in clusters(f, x) for op in c.attrs["f"].get_operations()]
    graph_types = [op.type for op in f.get_concrete_function(x).optimized_graph.get_operations()]
    assert "Sin" in graph_types and "Sin" not in cluster_types
    assert ("Exp" in cluster_types) == (dtype == np.float32)
    jit, plain = both(work, x)
    np.testing.assert_allclose(jit.numpy(), plain.numpy(), rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exact_clusters_are_bit_for_bit(dtype):
    rng = np.random.default_rng(1)
    a = tf.constant(rng.normal(size=(64, 33)).astype(dtype))
    b = tf.constant(rng.normal(size=(64, 33)).astype(dtype))

    def exact(a, b):
        c = tf.maximum(a * b - 0.75, tf.minimum(a, b) / (tf.abs(b) + 1.0))
        d = tf.where(a > b, c * c, tf.sqrt(tf.abs(c)) - a)
        return tf.clip_by_value(d, -1.0, 2.0) + tf.square(a - b) + tf.nn.relu6(b * 3.0)

    jit, plain = both(exact, a, b)
    assert jit.dtype == plain.dtype
    np.testing.assert_array_equal(jit.numpy(), plain.numpy())


def test_special_values_follow_numpy():
    x = tf.constant([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-40, -3.0, 3.0], tf.float32)

    def special(x):
        return (tf.maximum(x, 0.0) + tf.minimum(x, 1.0), tf.nn.relu(x), x / 0.0,
                tf.sign(-x) * 2.0)   # NumPy's sign(-0.0) is +0.0 (found by the property test)

    jit, plain = both(special, x)
    for j, p in zip(jit, plain):
        np.testing.assert_array_equal(j.numpy(), p.numpy())
        assert np.array_equal(np.signbit(j.numpy()), np.signbit(p.numpy()))


def test_integer_and_bool_clusters_wrap_as_numpy_does():
    big = tf.constant([2**31 - 1, -(2**31), 5, -7], tf.int32)

    def ints(a):
        return (a + 1) * 3 - a, tf.logical_and(a > 0, a < 10)

    jit, plain = both(ints, big)
    for j, p in zip(jit, plain):
        assert j.dtype == p.dtype
        np.testing.assert_array_equal(j.numpy(), p.numpy())


@pytest.mark.parametrize("shapes", [
    [(6, 5), (6, 5)],      # full arrays
    [(6, 5), ()],          # a scalar
    [(6, 5), (5,)],        # a row that repeats (a bias)
    [(6, 5), (1, 5)],      # a row with a leading 1
    [(6, 1), (1, 5)],      # both sides broadcast: the kernel falls back to the reference
    [(0, 5), (5,)],        # empty
    [(2, 3, 4), (3, 4)],   # a row of two dims
])
def test_broadcast_patterns(shapes):
    rng = np.random.default_rng(2)
    a, b = (tf.constant(rng.normal(size=s).astype(np.float32)) for s in shapes)

    def f(a, b):
        return (a - b) * 2.0 + a * b

    jit, plain = both(f, a, b)
    assert jit.shape == plain.shape
    np.testing.assert_array_equal(jit.numpy(), plain.numpy())


def test_a_smaller_intermediate_is_computed_per_element():
    v = tf.constant([1.0, 2.0, 3.0])
    m = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))

    def f(v, m):
        small = v * 2.0 + 1.0          # shape (3,)
        return small * m - v, small    # (2, 3) and the small value exported

    jit, plain = both(f, v, m)
    for j, p in zip(jit, plain):
        np.testing.assert_array_equal(j.numpy(), p.numpy())


def test_incompatible_shapes_raise_tensorflows_error():
    spec = tf.TensorSpec([None], tf.float32)
    f = tf.function(lambda a, b: a * 2.0 + b, jit_compile=True, input_signature=[spec, spec])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        f(tf.constant([1.0, 2.0, 3.0]), tf.constant([1.0, 2.0]))


def test_variable_updates_keep_their_order_around_clusters():
    w, m = tf.Variable([1.0, 2.0]), tf.Variable([0.5, 0.5])
    w2, m2 = tf.Variable([1.0, 2.0]), tf.Variable([0.5, 0.5])

    def step(g, w, m):
        m.assign(m * 0.9 - g * 0.1)
        w.assign_add(m * 0.9 - g * 0.1)

    g = tf.constant([1.0, -1.0])
    jit = tf.function(lambda g: step(g, w, m), jit_compile=True)
    plain = tf.function(lambda g: step(g, w2, m2))
    for _ in range(3):
        jit(g)
        plain(g)
    np.testing.assert_array_equal(w.numpy(), w2.numpy())
    np.testing.assert_array_equal(m.numpy(), m2.numpy())


def test_clusters_inside_control_flow():
    def f(x, n):
        y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.nn.relu(x * 2.0 - 1.0), lambda: x * x + 1.0)
        i, acc = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a * 0.5 + y * 2.0),
                               [0, y])
        return acc

    x = tf.constant([0.5, -1.0, 2.0])
    jit, plain = both(f, x, tf.constant(3))
    np.testing.assert_array_equal(jit.numpy(), plain.numpy())


def _jit_vs_correctly_rounded(name, x):
    """The compiled helper's results (through a jit_compile=True function, as users get them)
    and NumPy's float64 function rounded to float32 (the correctly rounded result: float64 is
    accurate to far less than the half ulp of float32 at which rounding could flip)."""
    got = tf.function(getattr(tf, name), jit_compile=True)(tf.constant(x)).numpy()
    with np.errstate(over="ignore", invalid="ignore"):   # signalling NaNs among random bits
        ref = getattr(np, name)(x.astype(np.float64)).astype(np.float32)
    return got, ref


def _check_ulps(name, got, ref):
    nan = np.isnan(ref)
    np.testing.assert_array_equal(np.isnan(got), nan)
    # Distances between bit patterns: subnormal results, 0 and inf count as their neighbours'
    # ulps, and a wrong sign (-0.0 for 0.0 included) is a huge distance.
    worst = ulps(got[~nan], ref[~nan]).max(initial=0)
    assert worst <= APPROX_ULPS[(name, "float32")], worst
    return worst


def _edges(name):
    """Inputs at which the result is exact (first) and inputs near where the helper's
    behaviour changes (second), both signs and both float32 neighbours of each edge."""
    big = [np.finfo(np.float32).max, 1e30, 200.0]
    if name == "tanh":   # +-0, subnormals, +-1 past the clamp at 9.02 (tanh rounds to 1 from
        exact = [0.0, 1e-45, 1e-40, np.finfo(np.float32).tiny, 2.0 ** -30, 9.02, 9.03, 20.0]
        exact += big     # 9.011 on); near the clamp and where the old helper switched branch
        exact += [-v for v in exact]
        edges = [9.0109, 9.02, 0.55, 1.0, 4.0]
        edges += [-v for v in edges]
    else:   # overflow to inf from 88.72284, underflow to 0 below -103.97208; the last normal
        exact = [0.0, -0.0, 1e-45, -1e-45, 1e-10, -1e-10, 88.72284, 89.0, -103.97209, -104.0,
                 -110.0] + big + [-v for v in big]   # result, the last nonzero one, the clamps
        edges = [88.72283, 88.72284, -87.33655, -103.27893, -103.97208, -104.0, 89.0]
    exact = np.array(exact + [np.inf, -np.inf, np.nan, -np.nan], np.float32)
    edges = np.array(edges, np.float32)
    edges = np.concatenate([edges, np.nextafter(edges, np.float32(np.inf)),
                            np.nextafter(edges, np.float32(-np.inf))])
    return exact, edges


@pytest.mark.parametrize("name,low,high", [("tanh", -12.0, 12.0), ("exp", -110.0, 90.0)])
def test_approximations_stay_within_their_stated_ulps(name, low, high):
    rng = np.random.default_rng(3)
    bits = rng.integers(0, 2**32, 1_000_000, dtype=np.uint64).astype(np.uint32)
    exact, edges = _edges(name)
    x = np.concatenate([rng.uniform(low, high, 2_000_000).astype(np.float32),
                        rng.uniform(-1, 1, 1_000_000).astype(np.float32),
                        np.geomspace(1e-30, 1, 10_000).astype(np.float32),
                        -np.geomspace(1e-30, 1, 10_000).astype(np.float32),
                        bits.view(np.float32), exact, edges])   # any float32 bits
    _check_ulps(name, *_jit_vs_correctly_rounded(name, x))
    got, ref = _jit_vs_correctly_rounded(name, exact)
    np.testing.assert_array_equal(got, ref)
    number = ~np.isnan(ref)
    np.testing.assert_array_equal(np.signbit(got[number]), np.signbit(ref[number]))   # -0.0


def test_tanh_of_tiny_and_subnormal_values_is_the_value_itself():
    x = np.concatenate([np.arange(1, 2**20, 97, dtype=np.uint32).view(np.float32),
                        np.geomspace(1e-38, 2.0 ** -13, 100_000).astype(np.float32)])
    x = np.concatenate([x, -x])
    got, _ = _jit_vs_correctly_rounded("tanh", x)
    assert got.tobytes() == x.tobytes()


def _all_float32_between(low, high, step=1):
    """Every `step`-th float32 with low <= |x| < high, both signs, in chunks of 2^24."""
    b0, b1 = (int(np.float32(v).view(np.uint32)) for v in (low, high))
    for sign in (0, 1 << 31):
        for start in range(b0, b1, (1 << 24) * step):
            bits = np.arange(start, min(start + (1 << 24) * step, b1), step, dtype=np.uint64)
            yield (bits + sign).astype(np.uint32).view(np.float32)


@pytest.mark.slow
@pytest.mark.parametrize("name,low,high,step", [
    ("tanh", 2.0 ** -30, 9.5, 1),    # every float32 tanh is not x, +-1 or NaN at
    ("exp", 1e-10, 110.0, 3),        # every third float32 where exp is not 1, 0 or inf ...
    ("exp", 87.0, 104.0, 1),         # ... and all of those with subnormal results or overflow
])
def test_approximations_stay_within_their_stated_ulps_on_every_float32(name, low, high, step):
    for x in _all_float32_between(low, high, step):
        _check_ulps(name, *_jit_vs_correctly_rounded(name, x))


def _run(code: str, env: dict) -> str:
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                            text=True, env={**os.environ, **env}, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_kernels_are_cached_on_disk_for_a_new_process(tmp_path):
    code = """
        import numpy as np, tracegraph as tf
        from tracegraph.execute.compile import compile_subgraph
        from tracegraph.execute.jit_build import wait_for_kernels
        f = tf.function(lambda x: tf.tanh(x * 3.0) + 1.0, jit_compile=True)
        x = tf.constant(np.ones(5, np.float32))
        print(f(x).numpy().tolist())
        assert wait_for_kernels(120)
        print(f(x).numpy().tolist())
        op = [o for o in f.get_concrete_function(x).optimized_graph.get_operations()
              if o.type == "_FusedElementwise"][0]
        kernel = compile_subgraph(op.attrs["f"], "jit")
        print(sum(sum(k.stats.cache_hits.values()) for k in kernel._kernels.values()))
        print([c.cached for c in kernel.compiles.values()])
    """
    env = {"TRACEGRAPH_CACHE_DIR": str(tmp_path)}
    first = _run(code, env).splitlines()
    second = _run(code, env).splitlines()
    assert first[0] == first[1] == second[0] == second[1]   # served, then by the kernel
    assert first[-2] == "0" and int(second[-2]) >= 1
    assert first[-1] == "[False]" and second[-1] == "[True]"
    assert list((tmp_path / "jit").glob("tracegraph_jit_*.py"))


def test_without_numba_jit_runs_unfused_with_one_warning():
    code = """
        import sys, warnings
        sys.modules["numba"] = None   # as if the numba extra were not installed
        import numpy as np, tracegraph as tf
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            f = tf.function(lambda x: tf.nn.relu(x * 2.0 - 1.0), jit_compile=True)
            g = tf.function(lambda x: x * x + 1.0, jit_compile=True)
            print(f(tf.constant([1.0, -1.0])).numpy().tolist(), g(tf.constant(2.0)).numpy())
        print(len([w for w in caught if "tracegraph[numba]" in str(w.message)]))
    """
    out = _run(code, {}).splitlines()
    assert out == ["[1.0, 0.0] 5.0", "1"]


def test_jit_compile_false_and_default_do_not_fuse():
    if tf.config.forced_executor() == "jit":
        pytest.skip("the suite runs every function on the jit executor")
    x = tf.constant([1.0, 2.0])
    for f in (tf.function(lambda x: x * 2.0 + 1.0), tf.function(lambda x: x * 2.0 + 1.0,
                                                                  jit_compile=False)):
        assert not clusters(f, x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tf.function(lambda x: x * 2.0 + 1.0, jit_compile=True)(x).numpy().tolist() == \
            [3.0, 5.0]


def test_a_scalar_while_loop_compiles_whole():
    def loop(n):
        i, s = tf.constant(0), tf.constant(0.0)
        while i < n:
            s = s * 0.5 + tf.cast(i, tf.float32)
            if s > 100.0:
                s = s - 1.0
            i += 1
        return s, i

    n = tf.constant(1000)
    f = tf.function(loop, jit_compile=True)
    ops = [op.type for op in f.get_concrete_function(n).optimized_graph.get_operations()]
    assert "_FusedLoop" in ops and "StatelessWhile" not in ops
    jit, plain = both(loop, n)
    for j, p in zip(jit, plain):
        assert j.dtype == p.dtype and j.shape == p.shape
        np.testing.assert_array_equal(j.numpy(), p.numpy())
    fused = next(op for op in f.get_concrete_function(n).optimized_graph.get_operations()
                 if op.type == "_FusedLoop")
    assert "while True:" in kernel_of(fused).source


def test_a_loop_over_vectors_is_not_compiled_whole():
    def loop(x):
        for _ in tf.range(3):
            x = x * 2.0 + 1.0
        return x

    x = tf.constant([1.0, 2.0])
    f = tf.function(loop, jit_compile=True)
    ops = [op.type for op in f.get_concrete_function(x).optimized_graph.get_operations()]
    assert "_FusedLoop" not in ops
    jit, plain = both(loop, x)
    np.testing.assert_array_equal(jit.numpy(), plain.numpy())


def test_a_default_function_fuses_only_large_clusters():
    if tf.config.forced_executor() == "jit":
        pytest.skip("the suite runs every function on the jit executor")

    def chain(x):
        return tf.nn.relu(x * 1.5 + 0.25) * tf.tanh(x) - 0.5 * x

    small = tf.constant(np.linspace(-3, 3, 1000, dtype=np.float32))
    large = tf.constant(np.linspace(-3, 3, 1 << 16, dtype=np.float32))
    unknown = tf.function(chain, input_signature=[tf.TensorSpec([None], tf.float32)])
    f = tf.function(chain)
    assert not clusters(f, small) and not clusters(unknown, large)
    assert len(clusters(f, large)) == 1
    report = f.get_concrete_function(large).optimizer_report.text()
    assert "jit_fusion" in report
    np.testing.assert_array_equal(f(large).numpy(), unknown(large).numpy())


def test_a_default_function_computes_tanh_and_exp_as_eager_does():
    """Issue 26, item 20: without jit_compile the graph's float32 tanh and exp are NumPy's, so
    graph results equal eager ones bit for bit and a threshold after them flips nowhere; the
    exact ops around them still fuse. jit_compile=True keeps its approximations."""
    if tf.config.forced_executor() == "jit":
        pytest.skip("the suite runs every function on the jit executor")

    def chain(x):
        t, e = tf.tanh(x), tf.exp(x * 0.25)
        return tf.nn.relu(x * 1.5 + 0.25) * t - 0.5 * x, e * 2.0 - t, \
            tf.cast(t * e > 0.5, tf.float32)

    rng = np.random.default_rng(20)
    x = tf.constant(rng.normal(scale=4.0, size=1 << 18).astype(np.float32))
    graph = tf.function(chain)
    for eager, traced in zip(chain(x), graph(x)):
        np.testing.assert_array_equal(traced.numpy(), eager.numpy())
    assert clusters(graph, x)                         # the exact parts still fuse
    assert not any("tanh_f32" in kernel_of(op).source or "exp_f32" in kernel_of(op).source
                   for op in clusters(graph, x))
    alone = tf.function(lambda v: (tf.tanh(v), tf.exp(v)))
    for eager, traced in zip((tf.tanh(x), tf.exp(x)), alone(x)):
        np.testing.assert_array_equal(traced.numpy(), eager.numpy())
    approximated = tf.function(chain, jit_compile=True)
    assert any("tanh_f32" in kernel_of(op).source for op in clusters(approximated, x))
    assert not np.array_equal(approximated(x)[0].numpy(), chain(x)[0].numpy())
