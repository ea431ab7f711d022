"""A tf.function returning a tf.data iterator or dataset (TensorFlow's composite outputs), with
what TF 2.21 returns and prints: an iterator made inside the function is a new one on every
call, one made outside (`tf.init_scope`, an argument) is the same iterator, its state shared."""

import tracegraph as tf


def test_an_iterator_made_inside_is_new_on_each_call():
    @tf.function
    def fresh():
        return iter(tf.data.Dataset.from_tensor_slices([1, 2, 3]))

    assert [int(next(fresh())) for _ in range(3)] == [1, 1, 1]
    it = fresh()
    assert [int(x) for x in it] == [1, 2, 3]   # a Python iterator: the loop ends
    assert fresh.experimental_get_tracing_count() == 1


def test_an_iterator_made_outside_keeps_its_state():
    iterators = {}

    @tf.function
    def shared(key):
        if key not in iterators:
            with tf.init_scope():
                iterators[key] = iter(tf.data.Dataset.from_tensor_slices([1, 2, 3]))
        return iterators[key]

    assert [int(next(shared("a"))) for _ in range(3)] == [1, 2, 3]

    outer = iter(tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4], [5, 6]]))

    @tf.function
    def advance(it):
        return it, next(it)

    again, first = advance(outer)
    assert first.numpy().tolist() == [1, 2]
    assert next(again).numpy().tolist() == [3, 4] and next(outer).numpy().tolist() == [5, 6]


def test_datasets_nested_structures_and_calls_between_functions():
    @tf.function
    def make(n):
        return tf.data.Dataset.range(n).map(lambda x: x * 2), n + 1

    ds, m = make(tf.constant(4, tf.int64))
    assert list(ds.as_numpy_iterator()) == [0, 2, 4, 6] and int(m) == 5
    assert repr(ds.element_spec) == "TensorSpec(shape=(), dtype=tf.int64, name=None)"

    @tf.function
    def pair():
        return {"it": iter(tf.data.Dataset.range(5, 9)), "x": tf.constant(1.0)}

    out = pair()
    assert sorted(out) == ["it", "x"] and float(out["x"]) == 1.0
    assert [int(v) for v in out["it"]] == [5, 6, 7, 8]

    @tf.function
    def inner():
        return iter(tf.data.Dataset.range(3))

    @tf.function
    def outer():
        it = inner()      # a call op whose output is the iterator's resource
        return next(it) + next(it)

    assert int(outer()) == 1 and int(outer()) == 1


def test_the_function_type_names_the_iterator_spec():
    @tf.function
    def make(n):
        return iter(tf.data.Dataset.range(n)), n + 1

    cf = make.get_concrete_function(tf.constant(3, tf.int64))
    assert str(cf.function_type) == (
        "(n: TensorSpec(shape=(), dtype=tf.int64, name=None)) -> "
        "Tuple[IteratorSpec(TensorSpec(shape=(), dtype=tf.int64, name=None),), "
        "TensorSpec(shape=(), dtype=tf.int64, name=None)]")
    it, n = cf.structured_outputs
    assert type(it).__name__ == "OwnedIterator" and n.name == "Identity_1:0"
    assert len(cf.outputs) == 2
