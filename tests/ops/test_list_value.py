"""TensorList versions (ops/list_value.py): writes are O(1) on the newest version, yet every
version reads as it was when it was made, checked against plain tuples on random histories."""

import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from tracegraph import dtypes as d
from tracegraph.ops.list_value import TensorList

# a history: each step writes `value` at `index` into the version made by step `base`
# (0 = the initial list); indices reach past the end, so lists grow
steps = st.lists(st.tuples(st.integers(0, 30), st.integers(0, 12), st.integers(0, 99)),
                 max_size=40)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, 5), steps)
def test_every_version_reads_as_a_tuple_would(n, history):
    versions = [TensorList([None] * n, d.float32, ())]
    model = [(None,) * n]
    for base, index, value in history:
        base %= len(versions)
        versions.append(versions[base].with_item(index, value))
        old = model[base]
        grown = old + (None,) * max(0, index + 1 - len(old))
        model.append(grown[:index] + (value,) + grown[index + 1:])
        for v, m in zip(versions, model):   # every version, after every write
            assert len(v) == len(m)
            assert v.items == m
            assert [v.get(i) for i in range(len(m))] == list(m)


def test_a_loop_of_writes_keeps_one_store():
    lst = TensorList([], d.float32, ())
    first = lst
    for i in range(1000):
        lst = lst.with_item(i, i)
    assert lst.items == tuple(range(1000)) and len(first) == 0 and first.items == ()
    assert lst._store is first._store   # no copy on the way


def test_threads_writing_and_reading_versions_of_one_list():
    base = TensorList(list(range(100)), d.int32, ())
    errors = []

    def work(offset):
        try:
            v = base
            for k in range(200):
                v = v.with_item(k % 100, offset + k)
                assert base.get(k % 100) == k % 100   # the base version never changes
            assert base.items == tuple(range(100))
        except AssertionError as e:
            errors.append(e)

    threads = [threading.Thread(target=work, args=(1000 * t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
