"""tf.distribute on one machine (issue 24, family 6): MirroredStrategy over CPU devices
(replicas as threads taking turns between collectives), OneDeviceStrategy, the default
strategy. Printed forms and values are TensorFlow 2.21's (two logical CPUs)."""

import numpy as np
import pytest

import tracegraph as tf

TWO_CPUS = ["/cpu:0", "/cpu:1"]


def _step_with_all_reduce(v):
    def step(x):
        ctx = tf.distribute.get_replica_context()
        total = ctx.all_reduce(tf.distribute.ReduceOp.SUM, x * v)
        return total, ctx.replica_id_in_sync_group
    return step


def test_run_all_reduce_and_reduce_as_tensorflow():
    strategy = tf.distribute.MirroredStrategy(TWO_CPUS)
    assert strategy.num_replicas_in_sync == 2
    with strategy.scope():
        v = tf.Variable(2.0)
        assert tf.distribute.get_strategy() is strategy
    assert tf.distribute.get_strategy().num_replicas_in_sync == 1
    dataset = tf.data.Dataset.from_tensor_slices(tf.range(8, dtype=tf.float32)).batch(4)
    batches = list(strategy.experimental_distribute_dataset(dataset))
    assert str(batches[0]) == ("PerReplica:{\n  0: tf.Tensor([0. 1.], shape=(2,), "
                               "dtype=float32),\n  1: tf.Tensor([2. 3.], shape=(2,), "
                               "dtype=float32)\n}")
    step = _step_with_all_reduce(v)
    total, ids = strategy.run(step, args=(batches[0],))
    assert [t.numpy().tolist() for t in total.values] == [[4.0, 8.0], [4.0, 8.0]]
    assert [int(i) for i in strategy.experimental_local_results(ids)] == [0, 1]
    assert strategy.reduce("SUM", total, axis=None).numpy().tolist() == [8.0, 16.0]
    assert float(strategy.reduce("MEAN", batches[1], axis=0)) == 5.5
    assert strategy.gather(batches[1], axis=0).numpy().tolist() == [4.0, 5.0, 6.0, 7.0]

    @tf.function
    def traced(batch):
        out, _ = strategy.run(step, args=(batch,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, out, axis=None)

    assert traced(batches[1]).numpy().tolist() == [40.0, 48.0]
    with pytest.raises(ValueError, match="cannot be reduced"):
        strategy.reduce("SUM", tf.constant(1.0), axis=None)


def test_merge_call_runs_once_in_cross_replica_context():
    strategy = tf.distribute.MirroredStrategy(TWO_CPUS)
    calls = []

    def merge(strat, value):
        calls.append(tf.distribute.in_cross_replica_context())
        return strat.reduce("SUM", value, axis=None)

    out = strategy.run(lambda x: tf.distribute.get_replica_context().merge_call(
        merge, args=(x,)), args=(tf.distribute.one_machine.PerReplica(
            [tf.constant([1.0, 2.0]), tf.constant([10.0, 20.0])]),))
    assert calls == [True]
    assert out.numpy().tolist() == [11.0, 22.0]     # the same value: not a PerReplica


def test_a_training_step_sums_gradients_over_replicas_as_tensorflow():
    strategy = tf.distribute.MirroredStrategy(TWO_CPUS)
    with strategy.scope():
        w = tf.Variable([[1.0], [2.0]])
        opt = tf.optimizers.SGD(0.1)
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    y = tf.constant([[1.0], [2.0], [3.0], [4.0]])
    ds = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((x, y)).batch(4))

    def step(inputs):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(xb @ w - yb)) / 4.0
        opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
        return loss

    @tf.function
    def train(inputs):
        return strategy.reduce("SUM", strategy.run(step, args=(inputs,)), axis=None)

    seen = []
    for _ in range(3):
        for batch in ds:
            seen.append((float(train(batch)), w.numpy().reshape(-1).tolist()))
    # TensorFlow 2.21 with a Keras SGD(0.1): the same losses and weights
    np.testing.assert_allclose([s[0] for s in seen], [163.5, 13779.29, 1.161303e+06], rtol=1e-5)
    np.testing.assert_allclose(seen[-1][1], [-889.568115234375, -1063.199951171875], rtol=1e-6)


def test_a_failing_replica_raises_in_the_caller():
    strategy = tf.distribute.MirroredStrategy(TWO_CPUS)

    def step(x):
        ctx = tf.distribute.get_replica_context()
        if int(ctx.replica_id_in_sync_group) == 1:
            raise RuntimeError("replica 1 failed")
        return ctx.all_reduce("SUM", x)

    with pytest.raises(RuntimeError, match="replica 1 failed"):
        strategy.run(step, args=(tf.constant(1.0),))


def test_one_device_and_default_mirrored_strategies():
    one = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert one.num_replicas_in_sync == 1
    assert int(one.run(lambda x: x + 1, args=(tf.constant(1),))) == 2
    default = tf.distribute.MirroredStrategy()
    assert default.num_replicas_in_sync == 1
    assert default.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:CPU:0",)
    with pytest.raises(ValueError, match="CPU"):
        tf.distribute.MirroredStrategy(["/gpu:0"])
    with pytest.raises(ValueError, match="duplicates"):
        tf.distribute.MirroredStrategy(["/cpu:0", "/device:CPU:0"])


def test_datasets_from_a_function_give_each_replica_its_own_elements():
    strategy = tf.distribute.MirroredStrategy(TWO_CPUS)

    def dataset_fn(context):
        batch = context.get_per_replica_batch_size(4)
        return tf.data.Dataset.range(8).batch(batch)

    elements = list(strategy.distribute_datasets_from_function(dataset_fn))
    assert [[t.numpy().tolist() for t in e.values] for e in elements] == \
        [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]


def test_values_from_a_function_one_per_replica():
    strategy = tf.distribute.MirroredStrategy(TWO_CPUS)
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(ctx.replica_id_in_sync_group))
    context = tf.distribute.experimental.ValueContext(1, 2)
    assert (context.replica_id_in_sync_group, context.num_replicas_in_sync) == (1, 2)
    out = strategy.run(lambda x: x * 10, args=(values,))
    assert [int(v) for v in strategy.experimental_local_results(out)] == [0, 10]
