"""shuffle: TensorFlow's buffer semantics (the buffer holds `buffer_size` elements; each output
is drawn uniformly from it and replaced by the next input; the rest drains in random order),
determinism per seed, a new order per epoch, and the same order on both paths."""

import numpy as np
import pytest

import tracegraph as tf
from tests.data.helpers import both_paths, element_by_element, values


def test_buffer_of_one_keeps_the_order():
    assert values(tf.data.Dataset.range(20).shuffle(1, seed=3)) == list(range(20))


@pytest.mark.parametrize("size", [1, 5, 50])
def test_each_output_comes_from_the_buffer(size):
    out = values(tf.data.Dataset.range(200).shuffle(size, seed=7))
    assert sorted(out) == list(range(200))
    for i, v in enumerate(out):          # the i-th output was among the first i + size inputs
        assert v < i + size


def test_the_guide_claim_about_the_first_batch():
    counter = tf.data.experimental.Counter()
    lines = tf.data.Dataset.from_tensor_slices([str(i) for i in range(627)])
    first = next(iter(tf.data.Dataset.zip((counter, lines)).shuffle(100).batch(20)))[0]
    assert max(first.numpy()) < 120


def test_seed_gives_the_same_order_and_each_epoch_a_new_one():
    def run(reshuffle):
        ds = tf.data.Dataset.range(30).shuffle(30, seed=5, reshuffle_each_iteration=reshuffle)
        return values(ds), values(ds)
    first, second = run(True)
    assert first != second and sorted(first) == sorted(second) == list(range(30))
    assert run(True) == (first, second)                 # a new dataset replays the sequence
    same_a, same_b = run(False)
    assert same_a == same_b
    epochs = values(tf.data.Dataset.range(10).shuffle(10, seed=2).repeat(3))
    assert len({tuple(epochs[i:i + 10]) for i in (0, 10, 20)}) == 3


def test_global_seed_makes_shuffles_reproducible():
    tf.random.set_seed(42)
    a = values(tf.data.Dataset.range(50).shuffle(50))
    tf.random.set_seed(42)
    b = values(tf.data.Dataset.range(50).shuffle(50))
    assert a == b
    tf.random.set_seed(None)


def test_unseeded_shuffles_differ():
    runs = {tuple(values(tf.data.Dataset.range(30).shuffle(30))) for _ in range(4)}
    assert len(runs) > 1


def test_shuffle_before_repeat_finishes_an_epoch_first():
    out = values(tf.data.Dataset.range(100).shuffle(100, seed=1).repeat(2))
    assert sorted(out[:100]) == list(range(100)) == sorted(out[100:])
    mixed = values(tf.data.Dataset.range(100).repeat(2).shuffle(100, seed=1))
    assert sorted(mixed[:100]) != list(range(100))


@pytest.mark.parametrize("n,size", [(200, 7), (50, 64), (64, 64), (1000, 999), (30, 1)])
def test_both_paths_give_the_same_order(n, size):
    x = np.arange(n * 3).reshape(n, 3)
    fast, slow = both_paths(lambda: tf.data.Dataset.from_tensor_slices(
        (x, np.arange(n))).shuffle(size, seed=9).batch(8))
    assert fast == slow


def test_orders_are_uniform():
    """Where element 0 lands, over many seeds: uniform over the positions it can reach."""
    positions = [values(tf.data.Dataset.range(8).shuffle(8, seed=s)).index(0)
                 for s in range(800)]
    counts = np.bincount(positions, minlength=8)
    assert counts.min() > 60 and counts.max() < 140      # 100 expected each
    firsts = [values(tf.data.Dataset.range(20).shuffle(4, seed=s).take(1))[0]
              for s in range(400)]
    assert set(firsts) == {0, 1, 2, 3}                  # the first output: one of the buffer


def test_shuffle_errors_and_autotune():
    with pytest.raises(tf.errors.InvalidArgumentError, match="buffer_size must be greater"):
        tf.data.Dataset.range(3).shuffle(0)
    assert sorted(values(tf.data.Dataset.range(5).shuffle(tf.data.AUTOTUNE))) == [0, 1, 2, 3, 4]
    assert int(tf.data.Dataset.range(5).shuffle(2).cardinality()) == 5
    assert values(element_by_element(tf.data.Dataset.range(0).shuffle(3))) == []
