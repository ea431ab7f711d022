"""TF1's dataset iterators run by a Session (TF 2.21's values and errors)."""

import sys

import pytest

import tracegraph as tf

v1 = tf.compat.v1


def test_initializable_iterator_ends_and_restarts():
    with tf.Graph().as_default():
        ds = v1.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda x: x * 10)
        it = ds.make_initializable_iterator()
        nxt = it.get_next()
        assert nxt.dtype == tf.int32
        with v1.Session() as s:
            with pytest.raises(tf.errors.FailedPreconditionError,
                               match="GetNext\\(\\) failed because the iterator has not been "
                                     "initialized."):
                s.run(nxt)
            s.run(it.initializer)
            assert [s.run(nxt) for _ in range(3)] == [10, 20, 30]
            with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
                s.run(nxt)
            s.run(it.initializer)
            assert s.run(nxt) == 10


def test_one_shot_iterator_and_structures():
    with tf.Graph().as_default():
        ds = v1.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [[1., 2.], [3., 4.]]})
        it = v1.data.make_one_shot_iterator(ds)
        element = it.get_next()
        with pytest.raises(ValueError, match="does not have an initializer"):
            _ = it.initializer
        s = v1.Session()
        first = s.run(element)
        assert first["a"] == 1 and list(first["b"]) == [1., 2.]
        assert s.run(element)["a"] == 2
        with pytest.raises(tf.errors.OutOfRangeError):
            s.run(element)


def test_eager_iterators_are_refused_or_python():
    ds = v1.data.Dataset.range(3)
    with pytest.raises(RuntimeError, match="not supported in eager mode"):
        ds.make_initializable_iterator()
    assert [int(x) for x in ds.make_one_shot_iterator()] == [0, 1, 2]


def test_the_dataset_methods_warn_once_as_tensorflow(caplog, monkeypatch):
    """TF 2.21 logs its deprecation notice for `DatasetV1.make_*_iterator` (the methods, not
    `tf.compat.v1.data`'s functions) once per method, naming the caller's line, through the
    "tensorflow" logger (`WARNING:tensorflow:From file:line: ...` on stderr)."""
    from tracegraph import tf_logging
    monkeypatch.setattr(tf_logging, "_noticed", set())
    with tf.Graph().as_default():
        ds = v1.data.Dataset.range(3)
        v1.data.make_one_shot_iterator(ds)
        v1.data.make_initializable_iterator(ds)
        assert not caplog.records
        ds.make_one_shot_iterator()
        ds.make_one_shot_iterator()
        line = sys._getframe().f_lineno + 1
        ds.make_initializable_iterator()
    notices = [r.getMessage().splitlines() for r in caplog.records]
    assert [r.name for r in caplog.records] == ["tensorflow"] * 2
    assert [n[0].split(": ", 1)[1] for n in notices] == [
        "DatasetV1.make_one_shot_iterator (from tensorflow.python.data.ops.dataset_ops) is "
        "deprecated and will be removed in a future version.",
        "DatasetV1.make_initializable_iterator (from tensorflow.python.data.ops.dataset_ops) is "
        "deprecated and will be removed in a future version."]
    assert notices[1][0].startswith(f"From {__file__}:{line}: ")
    assert notices[1][1] == "Instructions for updating:"
    assert "you can use `tf.compat.v1.data.make_initializable_iterator(dataset)`" in notices[1][2]
