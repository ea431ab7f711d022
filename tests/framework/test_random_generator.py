"""`tf.random.Generator` as TensorFlow 2.21 has it, beyond its numbers (test_random_fixture.py
checks those): its state Variable in tf.function (program order, every executor), in threads,
in checkpoints and saved models; the global generator; TensorFlow's errors."""

import threading

import numpy as np
import pytest

import tracegraph as tf
from tracegraph import config


def _sequence(g, n=4):
    return [g.normal([3]).numpy() for _ in range(n)]


@pytest.mark.parametrize("executor", ["codegen", "interpreter", "parallel", "jit"])
def test_function_draws_in_program_order_on_every_executor(executor):
    eager = tf.random.Generator.from_seed(5)
    want = [(eager.normal([2]).numpy(), eager.uniform([3], maxval=9, dtype=tf.int64).numpy(),
             eager.truncated_normal([2]).numpy()) for _ in range(2)]
    g = tf.random.Generator.from_seed(5)

    @tf.function(executor=executor)
    def draws():
        return g.normal([2]), g.uniform([3], maxval=9, dtype=tf.int64), g.truncated_normal([2])

    for expected in want:
        for got, w in zip(draws(), expected):
            np.testing.assert_array_equal(got.numpy(), w)
    np.testing.assert_array_equal(g.state.numpy(), eager.state.numpy())


def test_the_state_update_is_a_stateful_op_ordered_by_control_dependencies():
    g = tf.random.Generator.from_seed(1)

    @tf.function
    def two():
        return g.normal([]) + g.normal([])

    graph = two.get_concrete_function().graph
    skips = [op for op in graph.operations if op.type == "RngReadAndSkip"]
    assert len(skips) == 2 and skips[0] in skips[1].control_inputs


def test_generator_made_in_a_function_on_its_first_trace():
    made = []

    @tf.function
    def draw():
        if not made:
            made.append(tf.random.Generator.from_seed(1))
        return made[0].normal([])

    first, second = draw().numpy(), draw().numpy()
    again = tf.random.Generator.from_seed(1)
    assert [first, second] == [again.normal([]).numpy(), again.normal([]).numpy()]


def test_generators_as_function_arguments_retrace_per_object_as_tensorflow():
    traces = []

    @tf.function
    def draw(g):
        traces.append(1)
        return g.normal([])

    draw(tf.random.Generator.from_seed(1))
    draw(tf.random.Generator.from_seed(2))
    assert len(traces) == 2


def test_threads_never_share_numbers():
    g = tf.random.Generator.from_seed(3)
    drawn, lock = [], threading.Lock()

    def work():
        for _ in range(25):
            value = g.uniform_full_int([1], dtype=tf.int64).numpy()[0]
            with lock:
                drawn.append(value)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    sequential = tf.random.Generator.from_seed(3)
    want = [sequential.uniform_full_int([1], dtype=tf.int64).numpy()[0] for _ in range(100)]
    assert sorted(drawn) == sorted(want)


def test_checkpoint_restores_the_stream(tmp_path):
    g = tf.random.Generator.from_seed(1)
    g.normal([])
    ckpt = tf.train.Checkpoint(generator=g)
    path = ckpt.write(str(tmp_path / "ckpt"))
    assert [k for k, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "generator/_state_var/.ATTRIBUTES/VARIABLE_VALUE"]
    after_save = _sequence(g)
    ckpt.restore(path)
    np.testing.assert_array_equal(_sequence(g), after_save)
    other = tf.random.Generator.from_seed(99)
    tf.train.Checkpoint(generator=other).restore(path)
    np.testing.assert_array_equal(_sequence(other), after_save)


class Sampler(tf.Module):
    def __init__(self):
        super().__init__()
        self.g = tf.random.Generator.from_seed(0)

    @tf.function(input_signature=[])
    def __call__(self):
        return self.g.normal([2])

    @tf.function(input_signature=[])
    def state(self):
        return self.g.state.read_value()


def test_saved_model_keeps_the_state_and_continues_the_stream(tmp_path):
    m = Sampler()
    m()
    tf.saved_model.save(m, str(tmp_path / "model"))
    after_save = [m().numpy() for _ in range(3)]
    loaded = tf.saved_model.load(str(tmp_path / "model"))
    np.testing.assert_array_equal(loaded.state().numpy(), [256 * 2, 0, 0])
    np.testing.assert_array_equal([loaded().numpy() for _ in range(3)], after_save)
    np.testing.assert_array_equal(loaded.state().numpy(), m.state().numpy())


def test_state_key_algorithm_and_resets():
    g = tf.random.Generator.from_seed(1234)
    assert g.algorithm == 1 and isinstance(g.algorithm, int)
    assert not g.state.trainable and g.state.dtype == tf.int64 and g.state.name == "StateVar:0"
    g.normal([2, 3])
    np.testing.assert_array_equal(g.state.numpy(), [1234 + 6 * 256, 0, 0])
    assert g.key.numpy() == 0
    before = g.skip(5).numpy()
    np.testing.assert_array_equal(before, [2770, 0, 0])
    np.testing.assert_array_equal(g.state.numpy(), [2770 + 5 * 256, 0, 0])
    g.reset([7, 8, 9])
    np.testing.assert_array_equal(g.state.numpy(), [7, 8, 9])
    g.reset_from_key_counter(3, [1, 2])
    np.testing.assert_array_equal(g.state.numpy(), [1, 2, 3])
    copy = tf.random.Generator(copy_from=g)
    np.testing.assert_array_equal(copy.normal([3]), g.normal([3]))
    shared = tf.random.Generator.from_state(g.state, "philox")
    assert shared.state is g.state


def test_make_seeds_and_split_feed_stateless_functions_and_new_generators():
    g = tf.random.Generator.from_seed(1)
    seeds = g.make_seeds(4)
    assert seeds.shape == (2, 4) and seeds.dtype == tf.int64
    assert (seeds.numpy()[1] == 0).all()
    tf.random.stateless_normal([2], seed=seeds[:, 0])
    children = g.split(3)
    assert len(children) == 3 and all(c.algorithm == g.algorithm for c in children)
    assert len({c.state.numpy()[2] for c in children}) == 3
    assert g.split(0) == []


@pytest.fixture
def fresh_global_generator():
    """No global generator yet, and op determinism off (the suite turns it on): restored."""
    saved, deterministic = config.global_generator, config.is_op_determinism_enabled()
    config.global_generator = None
    config.disable_op_determinism()
    yield
    config.global_generator = saved
    if deterministic:
        tf.config.experimental.enable_op_determinism()


def test_global_generator(fresh_global_generator):
    g = tf.random.get_global_generator()
    assert tf.random.get_global_generator() is g
    assert tf.random.experimental.get_global_generator() is g
    mine = tf.random.Generator.from_seed(4)
    tf.random.set_global_generator(mine)
    assert tf.random.get_global_generator() is mine
    a = tf.random.Generator.from_non_deterministic_state().state.numpy()
    b = tf.random.Generator.from_non_deterministic_state().state.numpy()
    assert not np.array_equal(a, b)


def test_determinism_refuses_non_deterministic_states(fresh_global_generator):
    tf.config.experimental.enable_op_determinism()
    with pytest.raises(RuntimeError, match="determinism is enabled"):
        tf.random.Generator.from_non_deterministic_state()
    with pytest.raises(RuntimeError, match='Please call "set_global_generator" first'):
        tf.random.get_global_generator()
    tf.random.set_global_generator(tf.random.Generator.from_seed(1))
    tf.random.get_global_generator().normal([])


def test_create_rng_state_and_seed_forms():
    np.testing.assert_array_equal(tf.random.create_rng_state(1234, "philox"), [1234, 0, 0])
    np.testing.assert_array_equal(tf.random.experimental.create_rng_state([12, 34], "threefry"),
                                  [12, 34])
    assert tf.random.create_rng_state(5, "philox").dtype == tf.int64
    np.testing.assert_array_equal(tf.random.Generator.from_seed([1, 2, 3, 4]).state, [1, 2, 3])
    np.testing.assert_array_equal(tf.random.Generator.from_seed(-5).state, [-5, -1, -1])


def test_errors_as_tensorflow():
    with pytest.raises(tf.errors.UnimplementedError,
                       match="Non-XLA devices don't support the ThreeFry algorithm."):
        tf.random.Generator.from_seed(1, alg="threefry").normal([2])
    with pytest.raises(ValueError, match=r"Shapes \(2,\) and \[3\] are incompatible"):
        tf.random.Generator.from_state([1, 2], alg="philox")
    with pytest.raises(ValueError, match="Argument `alg` got unsupported value 7"):
        tf.random.Generator.from_seed(1, alg=7)
    g = tf.random.Generator.from_seed(1)
    with pytest.raises(ValueError, match="minval and maxval must be both `None` or both "
                       "non-`None`; got minval=0 and maxval=None"):
        g.uniform([2], dtype=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'dtype' of int8 "
                       "is not in the list of allowed values: int32, int64, uint32, uint64"):
        g.uniform_full_int([2], dtype=tf.int8)
    v = tf.Variable([1.0, 2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="dtype of RNG state variable must be int64, not float"):
        tf.random.Generator.from_state(v, "philox").normal([1])
