"""On a real dask.distributed LocalCluster (2 worker processes, loopback only): mapped graphs
equal the single-process results (bit for bit where no BLAS call sums, else within the
rounding bound of a float32 matmul, which holds whatever kernel OpenBLAS picks for a core type,
block size or thread count: run them with and without OPENBLAS_CORETYPE), data-parallel
training equals full-batch training, a lost worker does not change a result, workers run graphs
whose Python module they cannot import, and a graph a worker cannot load fails with the loader's
error on the driver.

Marked `slow` and `cluster`: `python -m pytest -q -m cluster tests/distribute`."""

import importlib.util
import os
import signal
import sys
import textwrap
import time

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.distribute import DaskStrategy, ReduceOp, cache_info, shipping
from tracegraph.formats.saved_data_error import SavedDataError

from . import models

pytestmark = [pytest.mark.slow, pytest.mark.cluster]
da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    # workers (and the ones that replace a killed worker) run with op determinism: thread
    # counts then no longer follow the machine's load, so a recomputed block has the same bits
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                       host="127.0.0.1", dashboard_address=None,
                                       env={"TF_DETERMINISTIC_OPS": "1"})
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def _per_block(fn, x, rows):
    parts, start = [], 0
    for r in rows:
        parts.append(fn(tf.constant(x[start:start + r])))
        start += r
    return parts


def _rng(seed=0):
    return np.random.default_rng(seed)


def test_map_blocks_of_guide_functions_equals_single_process(client):
    x2 = _rng(0).normal(size=(1000, 2)).astype(np.float32)
    outer = models.outer_function()          # x @ [[2], [3]] + 4
    got = tf.distribute.map_blocks(outer, da.from_array(x2, chunks=125)).compute()
    want = np.concatenate([p.numpy() for p in _per_block(outer, x2, [125] * 8)])
    layers = [([[2.0], [3.0]], 4.0)]
    models.assert_within_rounding(got, want, x2, layers)
    models.assert_within_rounding(got, outer(tf.constant(x2)).numpy(), x2, layers)

    x3 = _rng(1).normal(size=(999, 3)).astype(np.float32)
    arr = da.from_array(x3, chunks=100)
    chain, branches = models.make_chain(), models.make_branches()
    out = tf.distribute.map_blocks(chain, arr)
    y, norm = client.compute([out["y"], out["norm"]], sync=True)
    whole = chain(tf.constant(x3))       # elementwise and per-row: exact on the whole
    np.testing.assert_array_equal(y, whole["y"].numpy())
    np.testing.assert_array_equal(norm, whole["norm"].numpy())

    x3[:500] = np.abs(x3[:500])                  # blocks whose sums take different branches
    x3[500:] = -np.abs(x3[500:])
    got = tf.distribute.map_blocks(branches, da.from_array(x3, chunks=250)).compute()
    want = np.concatenate([p.numpy() for p in _per_block(branches, x3, [250] * 4)])
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got[:500], x3[:500] * 2)
    np.testing.assert_array_equal(got[500:], -x3[500:])


def test_map_blocks_of_a_row_score_and_of_inputs_of_different_ranks(client):
    x = _rng(3).normal(size=(1000, 8)).astype(np.float32)
    w = _rng(4).normal(size=(1000,)).astype(np.float32)
    score = tf.function(lambda t, u: tf.reduce_sum(t * t, axis=1) * u)
    out = tf.distribute.map_blocks(score, da.from_array(x, chunks=125), da.from_array(w, 200))
    assert out.shape == (1000,)
    got = client.compute(out, sync=True)
    parts, start = [], 0
    for r in [125] * 8:
        parts.append(score(tf.constant(x[start:start + r]), tf.constant(w[start:start + r])))
        start += r
    np.testing.assert_array_equal(got, np.concatenate([p.numpy() for p in parts]))


def test_map_blocks_of_a_loaded_saved_model(client, tmp_path):
    model = models.SequentialModule()
    model.__call__.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
    tf.saved_model.save(model, str(tmp_path / "model"))
    loaded = tf.saved_model.load(str(tmp_path / "model"))
    x = _rng(2).normal(size=(800, 3)).astype(np.float32)
    layers = [(d.w.numpy(), d.b.numpy()) for d in (model.dense_1, model.dense_2)]
    for fn in (loaded, loaded.__call__):
        got = tf.distribute.map_blocks(fn, da.from_array(x, chunks=100)).compute()
        want = np.concatenate([p.numpy() for p in _per_block(model, x, [100] * 8)])
        models.assert_within_rounding(got, want, x, layers)
        models.assert_within_rounding(
            got, np.concatenate([p.numpy() for p in _per_block(loaded, x, [100] * 8)]), x,
            layers)


def test_each_worker_loads_a_graph_once(client):
    x = _rng(3).normal(size=(640, 3)).astype(np.float32)
    out = tf.distribute.map_blocks(models.make_chain(), da.from_array(x, chunks=10))  # 64 blocks
    before = client.run(cache_info)
    out["y"].compute()
    out["norm"].compute()
    after = client.run(cache_info)
    new = [after[w]["loads"] - before[w]["loads"] for w in after]
    assert sum(new) <= len(after) and max(new) <= 1, (before, after)


def test_data_parallel_training_matches_full_batch_training(client):
    x, y = models.regression_data(256)
    lr = 0.1

    single = models.MLP()
    full_step = tf.function(models.train_step_fn(single, 256.0))
    single_losses = []
    for _ in range(20):
        loss, grads = full_step(tf.constant(x), tf.constant(y))
        for v, g in zip(single.trainable_variables, grads):
            v.assign_sub(lr * g)
        single_losses.append(float(loss))

    strategy = DaskStrategy(client, num_replicas=4)
    assert strategy.num_replicas_in_sync == 4
    with strategy.scope():
        model = models.MLP()
    step = models.train_step_fn(model, 256.0)
    dx, dy = strategy.distribute_values(x, y)
    losses = []
    for _ in range(20):
        per_replica = strategy.run(step, args=(dx, dy))
        loss, grads = strategy.reduce(ReduceOp.SUM, per_replica, axis=None)
        for v, g in zip(model.trainable_variables, grads):
            v.assign_sub(lr * g)
        losses.append(float(loss))
    np.testing.assert_allclose(losses, single_losses, rtol=1e-5)
    assert losses[-1] < losses[0] * 0.8
    for a, b in zip(model.trainable_variables, single.trainable_variables):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
    # the step was traced and shipped once for all 20 steps, and MEAN averages the replicas
    assert len(strategy._bundles) == 1
    local = strategy.experimental_local_results(per_replica)
    mean_loss, _ = strategy.reduce(ReduceOp.MEAN, per_replica)
    np.testing.assert_allclose(float(mean_loss), np.mean([float(r[0]) for r in local]),
                               rtol=1e-6)


def test_a_step_that_assigns_variables_is_refused(client):
    strategy = DaskStrategy(client, num_replicas=2)
    v = tf.Variable(1.0)

    def step(x):
        v.assign_add(tf.reduce_sum(x))
        return x

    dx = strategy.distribute_values(np.ones((4, 1), np.float32))
    with pytest.raises(ValueError, match="apply them on the driver"):
        strategy.run(step, args=(dx,))


def test_a_worker_lost_during_a_map_does_not_change_the_result(client):
    @tf.function(input_signature=[tf.TensorSpec([None, 64], tf.float32)])
    def heavy(x):
        y = x
        for _ in range(40):
            y = tf.tanh(tf.matmul(y, tf.ones([64, 64]) * 0.01) + x)
        return y

    x = _rng(4).normal(size=(32 * 1000, 64)).astype(np.float32)
    arr = da.from_array(x, chunks=(1000, 64))
    mapped = tf.distribute.map_blocks(heavy, arr)
    clean = client.compute(mapped).result(timeout=300)
    # workers run NumPy's BLAS on one thread (dask sets OMP_NUM_THREADS=1), the driver on
    # several: a 64-wide matmul may differ in the last bit, so the driver's result is a
    # tolerance check and the fault check is exact against the fault-free run
    np.testing.assert_allclose(clean, heavy(tf.constant(x)).numpy(), rtol=1e-5, atol=1e-6)
    pids = client.run(os.getpid)
    future = client.compute(mapped)
    deadline = time.time() + 60
    while not any(client.processing().values()):
        assert time.time() < deadline
        time.sleep(0.01)
    victim = sorted(pids)[0]
    assert not future.done()
    os.kill(pids[victim], signal.SIGKILL)   # a lost worker: no goodbye, its memory gone
    got = future.result(timeout=300)
    np.testing.assert_array_equal(got, clean)
    client.wait_for_workers(2, timeout=120)
    assert client.run(os.getpid).get(victim) != pids[victim]   # the worker really was replaced


def test_workers_run_a_function_from_a_module_they_cannot_import(client, tmp_path):
    name = "tracegraph_driver_only_module"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent("""
        import tracegraph as tf

        @tf.function
        def scaled_softplus(x):
            return tf.math.softplus(x * 3.0) - tf.reduce_mean(x, axis=1, keepdims=True)
    """))
    sys.path.insert(0, str(tmp_path))   # after the workers started: only the driver sees it
    try:
        module = importlib.import_module(name)
        assert all(spec is None for spec in
                   client.run(importlib.util.find_spec, name).values())
        x = _rng(5).normal(size=(300, 4)).astype(np.float32)
        got = tf.distribute.map_blocks(module.scaled_softplus,
                                       da.from_array(x, chunks=50)).compute()
        want = np.concatenate([p.numpy() for p in
                               _per_block(module.scaled_softplus, x, [50] * 6)])
        np.testing.assert_array_equal(got, want)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)


def test_a_graph_a_worker_cannot_load_fails_with_the_loaders_error(client):
    bundle = shipping.bundle_concrete(models.make_chain().get_concrete_function())
    key, data = models.repack(bundle.data, models.unknown_op)
    future = client.submit(shipping.run_block, key, data, np.ones((2, 3), np.float32),
                           pure=False)
    with pytest.raises(SavedDataError, match="OpFromTheFuture|op_from_the_future") as info:
        future.result(timeout=60)
    assert f"graph bundle {key[:12]}" in str(info.value)


def test_a_worker_lost_during_a_step_does_not_change_the_gradients(client):
    w = tf.Variable(_rng(6).normal(scale=0.1, size=(64, 64)).astype(np.float32))
    x = _rng(7).normal(size=(8000, 64)).astype(np.float32)

    def step(x):
        with tf.GradientTape() as tape:
            y = x
            for _ in range(40):
                y = tf.tanh(tf.matmul(y, w) + x)
            loss = tf.reduce_sum(y) / 8000.0
        return loss, tape.gradient(loss, w)

    strategy = DaskStrategy(client, num_replicas=4)
    dx = strategy.distribute_values(x)
    clean_loss, clean_grad = strategy.reduce(ReduceOp.SUM, strategy.run(step, args=(dx,)))
    full_loss, full_grad = tf.function(step)(tf.constant(x))
    np.testing.assert_allclose(clean_grad.numpy(), full_grad.numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(float(clean_loss), float(full_loss), rtol=1e-5)

    pids = client.run(os.getpid)
    per_replica = strategy.run(step, args=(dx,))
    deadline = time.time() + 60
    while not any(client.processing().values()):
        assert time.time() < deadline
        time.sleep(0.01)
    assert not all(f.done() for f in per_replica.futures)
    os.kill(pids[sorted(pids)[1]], signal.SIGKILL)
    loss, grad = strategy.reduce(ReduceOp.SUM, per_replica)
    np.testing.assert_array_equal(grad.numpy(), clean_grad.numpy())
    assert float(loss) == float(clean_loss)
    client.wait_for_workers(2, timeout=120)


def test_values_from_a_function_and_local_results(client):
    strategy = DaskStrategy(client, num_replicas=3)
    w = tf.Variable(np.float32(2.0))
    per_replica = strategy.experimental_distribute_values_from_function(
        lambda ctx: np.full((2, 1), ctx.replica_id_in_sync_group, np.float32))
    out = strategy.run(lambda x: x * w, args=(per_replica,))
    local = strategy.experimental_local_results(out)
    assert [t.numpy().ravel().tolist() for t in local] == [[0, 0], [2, 2], [4, 4]]
    total = strategy.reduce("SUM", out, axis=0)
    np.testing.assert_array_equal(total.numpy(), [12.0])
    np.testing.assert_array_equal(strategy.reduce(ReduceOp.MEAN, out, axis=0).numpy(), [2.0])
