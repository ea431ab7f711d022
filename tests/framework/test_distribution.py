"""tf.distribute's default strategy and replica context, as TensorFlow 2.21's
(distribute_lib.py; values recorded from TF)."""

import threading

import pytest

import tracegraph as tf
from tracegraph.framework.distribution import Strategy


def test_default_strategy_and_replica_context():
    s = tf.distribute.get_strategy()
    assert type(s).__name__ == "_DefaultDistributionStrategy" and isinstance(s, Strategy)
    assert s.num_replicas_in_sync == 1
    assert not tf.distribute.has_strategy() and not tf.distribute.in_cross_replica_context()
    rc = tf.distribute.get_replica_context()
    assert type(rc).__name__ == "_DefaultReplicaContext"
    assert (rc.num_replicas_in_sync, rc.replica_id_in_sync_group, rc.strategy) == (1, 0, s)
    with s.scope() as scoped:   # the default strategy's scope changes nothing
        assert scoped is s and not tf.distribute.has_strategy()
        assert tf.distribute.get_replica_context() is rc


def test_run_reduce_and_local_results():
    s = tf.distribute.get_strategy()
    assert s.run(lambda x: x * 2, args=(tf.constant(3.0),)).numpy() == 6.0
    assert s.reduce("SUM", tf.constant([1.0, 2.0]), axis=None).numpy().tolist() == [1.0, 2.0]
    assert s.reduce(tf.distribute.ReduceOp.SUM, tf.constant([1.0, 2.0]), axis=0).numpy() == 3.0
    assert s.reduce("MEAN", tf.constant([1.0, 2.0]), axis=0).numpy() == 1.5
    value = tf.constant(1.0)
    assert s.experimental_local_results(value) == (value,)
    rc = tf.distribute.get_replica_context()
    assert rc.all_reduce("SUM", tf.constant(2.0)).numpy() == 2.0
    assert [t.numpy() for t in rc.all_reduce(tf.distribute.ReduceOp.MEAN,
                                             [tf.constant(2.0), tf.constant(3.0)])] == [2.0, 3.0]


def test_merge_call_runs_in_the_cross_replica_context():
    s = tf.distribute.get_strategy()
    rc = tf.distribute.get_replica_context()
    got = rc.merge_call(lambda strategy, a: (strategy is s, a,
                                             tf.distribute.in_cross_replica_context(),
                                             tf.distribute.get_replica_context()), args=(5,))
    assert got == (True, 5, True, None)
    assert tf.__internal__.distribute.strategy_supports_no_merge_call()

    def fn(strategy, x):
        return "inside", tf.distribute.in_cross_replica_context(), x

    assert tf.__internal__.distribute.interim.maybe_merge_call(fn, s, 1) == ("inside", False, 1)


def test_extended_updates_and_placement():
    s = tf.distribute.get_strategy()
    v = tf.Variable(1.0)
    s.extended.update(v, lambda var, d: var.assign_add(d), args=(2.0,))
    assert v.numpy() == 3.0
    with s.extended.colocate_vars_with(v):
        pass
    assert s.extended.variable_created_in_scope(v)
    with pytest.raises(RuntimeError, match="worker_devices\\(\\) method unsupported by default"):
        _ = s.extended.worker_devices


def test_a_strategy_scope_is_per_thread_and_cross_replica():
    s = Strategy()
    seen = {}

    def other_thread():
        seen["other"] = tf.distribute.has_strategy()

    with s.scope():
        assert tf.distribute.has_strategy() and tf.distribute.get_strategy() is s
        assert tf.distribute.get_replica_context() is None
        t = threading.Thread(target=other_thread)
        t.start()
        t.join()
        assert s.run(lambda: tf.distribute.get_replica_context().strategy) is s
    assert seen == {"other": False} and not tf.distribute.has_strategy()


def test_in_a_function():
    @tf.function
    def f():
        ctx = tf.distribute.get_replica_context()
        return ctx is not None, tf.distribute.get_strategy().num_replicas_in_sync

    assert f() == (True, 1)


def test_hardware_strategies_say_what_they_need():
    for cls in (tf.distribute.TPUStrategy, tf.distribute.MultiWorkerMirroredStrategy):
        with pytest.raises(NotImplementedError, match="runs on this machine's CPU"):
            cls()
    assert tf.distribute.ReduceOp.from_variable_aggregation(tf.VariableAggregation.SUM) is \
        tf.distribute.ReduceOp.SUM
