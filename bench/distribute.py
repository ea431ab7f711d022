"""tracegraph.distribute on a dask LocalCluster (worker processes, one thread each, loopback):

1. per-task overhead of `map_blocks` (the graph shipped once and reused): many tiny blocks of
   `x * 2 + 1`, against dask's own floor (the same blocks through `dask.array.map_blocks` with a
   NumPy function), and the first map (trace, save, ship, load) against later ones;
2. inference throughput over a large float32 array (default 2 GiB in 64 partitions, generated
   and kept on the workers) with 1 and with 2 workers: a 64-32-1 MLP per row;
3. time per data-parallel training step (`DaskStrategy`: run, reduce, apply on the driver) vs
   the same step in one process on the full batch (an MLP 784-256-128-10, batch 4096).

    python bench/distribute.py [--gb 2] [--partitions 64] [--repeats 5]

TensorFlow has no dask strategy to compare with; figures are medians on this machine.
"""

import argparse
import importlib
import statistics
import time

import numpy as np

import tracegraph as tf


def _median(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _cluster(n_workers):
    from distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=n_workers, processes=True, threads_per_worker=1,
                           host="127.0.0.1", dashboard_address=None)
    return cluster, Client(cluster)


def overhead(client, repeats):
    import dask.array as da
    blocks = 256
    arr = da.ones((blocks * 8, 4), chunks=(8, 4), dtype=np.float32).persist()

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def affine(x):
        return x * 2.0 + 1.0

    from distributed import wait
    wait(arr)
    client.run(importlib.import_module, "tracegraph.distribute")  # not the graph's cost
    t = time.perf_counter()
    tf.distribute.map_blocks(affine, arr).sum().compute()
    first = time.perf_counter() - t
    ours = _median(lambda: tf.distribute.map_blocks(affine, arr).sum().compute(), repeats)
    floor = _median(lambda: arr.map_blocks(lambda b: b * np.float32(2) + np.float32(1))
                    .sum().compute(), repeats)
    build = _median(lambda: tf.distribute.map_blocks(affine, arr), repeats)
    from tracegraph.distribute import bundle_concrete, shipping
    bundle = bundle_concrete(affine.get_concrete_function())
    block = np.ones((8, 4), np.float32)
    info = {None: {"chunk-shape": (8, 4)}}
    shipping.run_block_single(block, bundle.data, key=bundle.key, batch=True, block_info=info)
    n = 2000
    t = time.perf_counter()
    for _ in range(n):
        shipping.run_block_single(block, bundle.data, key=bundle.key, batch=True,
                                  block_info=info)
    task = (time.perf_counter() - t) / n
    print(f"map_blocks, {blocks} blocks of 8x4 on 2 workers:")
    print(f"  the task function itself, graph cached (in process): {task * 1e6:6.1f} us")
    print(f"  first map (trace, save, ship, load on each worker): {first * 1e3:8.1f} ms")
    print(f"  later maps (graph cached on the workers):           {ours * 1e3:8.1f} ms "
          f"= {ours / blocks * 1e6:.0f} us per block")
    print(f"  dask with a NumPy function (the floor):             {floor * 1e3:8.1f} ms "
          f"= {floor / blocks * 1e6:.0f} us per block")
    print(f"  tracegraph's share per block: {(ours - floor) / blocks * 1e6:.0f} us; building "
          f"the dask graph (bundle included): {build * 1e3:.1f} ms")


def _mlp():
    rng = np.random.default_rng(0)
    w1 = tf.Variable(rng.normal(0, 0.1, (64, 32)).astype(np.float32))
    w2 = tf.Variable(rng.normal(0, 0.1, (32, 1)).astype(np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 64], tf.float32)])
    def score(x):
        return tf.sigmoid(tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2))
    return score


def throughput(gb, partitions, repeats):
    import dask.array as da
    rows = int(gb * (1 << 30)) // (64 * 4)
    rows -= rows % partitions
    score = _mlp()
    results = {}
    for n in (1, 2):
        cluster, client = _cluster(n)
        try:
            arr = da.random.default_rng(0).random((rows, 64), chunks=(rows // partitions, 64),
                                                  dtype=np.float32).persist()
            client.wait_for_workers(n)
            arr.sum().compute()   # materialized on the workers before timing
            mapped = tf.distribute.map_blocks(score, arr)
            mapped.sum().compute()  # the graph is loaded on every worker
            results[n] = _median(
                lambda a=arr: tf.distribute.map_blocks(score, a).sum().compute(), repeats)
        finally:
            client.close()
            cluster.close()
    nbytes = rows * 64 * 4
    print(f"inference, {nbytes / (1 << 30):.2f} GiB float32 ({rows}x64) in {partitions} "
          "partitions, MLP 64-32-1:")
    for n, t in results.items():
        print(f"  {n} worker(s): {t:7.2f} s = {nbytes / t / (1 << 20):7.0f} MiB/s")
    print(f"  speed-up with 2 workers: {results[1] / results[2]:.2f}x")


def training(client, repeats):
    from tracegraph.distribute import DaskStrategy, ReduceOp
    rng = np.random.default_rng(0)
    batch = 4096
    x = rng.normal(size=(batch, 784)).astype(np.float32)
    y = rng.integers(0, 10, batch).astype(np.int32)
    sizes = [(784, 256), (256, 128), (128, 10)]

    def model_and_step():
        ws = [tf.Variable(rng.normal(0, 0.05, s).astype(np.float32)) for s in sizes]
        bs = [tf.Variable(np.zeros(s[1], np.float32)) for s in sizes]
        variables = ws + bs

        def step(x, y):
            with tf.GradientTape() as tape:
                h = x
                for i, (w, b) in enumerate(zip(ws, bs)):
                    h = tf.matmul(h, w) + b
                    if i < 2:
                        h = tf.nn.relu(h)
                losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=h)
                loss = tf.reduce_sum(losses) / batch
            return loss, tape.gradient(loss, variables)
        return variables, step

    variables, step = model_and_step()
    single = tf.function(step)
    xt, yt = tf.constant(x), tf.constant(y)

    def one_single():
        _, grads = single(xt, yt)
        for v, g in zip(variables, grads):
            v.assign_sub(0.1 * g)
    one_single()
    t_single = _median(one_single, repeats)

    variables, step = model_and_step()
    strategy = DaskStrategy(client)
    dx, dy = strategy.distribute_values(x, y)

    def one_distributed():
        _, grads = strategy.reduce(ReduceOp.SUM, strategy.run(step, args=(dx, dy)))
        for v, g in zip(variables, grads):
            v.assign_sub(0.1 * g)
    one_distributed()
    t_dist = _median(one_distributed, repeats)
    print(f"data-parallel step, MLP 784-256-128-10, batch {batch}:")
    print(f"  one process, full batch:                    {t_single * 1e3:8.1f} ms")
    print(f"  DaskStrategy, {strategy.num_replicas_in_sync} replicas on 2 workers "
          f"(run+reduce+apply): {t_dist * 1e3:8.1f} ms ({t_single / t_dist:.2f}x)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gb", type=float, default=2.0)
    parser.add_argument("--partitions", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", choices=["overhead", "throughput", "training"])
    args = parser.parse_args()
    if args.only in (None, "overhead", "training"):
        cluster, client = _cluster(2)
        try:
            if args.only in (None, "overhead"):
                overhead(client, args.repeats)
            if args.only in (None, "training"):
                training(client, args.repeats)
        finally:
            client.close()
            cluster.close()
    if args.only in (None, "throughput"):
        throughput(args.gb, args.partitions, args.repeats)


if __name__ == "__main__":
    main()
