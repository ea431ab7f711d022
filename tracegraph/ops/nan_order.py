"""The order TensorFlow's CPU TopKV2 gives a row holding NaN (so tf.sort, tf.argsort and
tf.math.top_k place NaN where TensorFlow 2.21 does).

NaN compares false with everything, so the kernel's comparisons stop being an order and the
result is whatever its algorithm leaves behind. This module replays that algorithm on the
row's indices, comparison for comparison:

- k == n (every sort): the C++ standard library's introsort (GCC's libstdc++: median-of-three
  quicksort down to runs of 16, heapsort past 2*log2(n) levels, a final insertion sort) with
  "x[b] < x[a]", then each run of equal adjacent values is put in index order;
- k == 1: Eigen's max reduction (8 lanes of float32 or 4 of float64 that skip NaN, a scalar
  tail that does not), then the first index holding that maximum (index 0 when it is NaN);
- otherwise: a bounded heap of k indices fed in index order with "larger, or equal and lower
  index"; a new index replaces the heap's least when it compares above it.

Measured against TensorFlow 2.21 on random rows of 1 to 3000 values with NaN, inf and ties
(tests/ops/test_nan_order.py). Rows without NaN never come here: the vectorized order in
top_k_order.py is the same one. Each row here costs Python-level work, about 8 µs per element
for a sort (a row of 100,000 in under a second).
"""

from __future__ import annotations

import numpy as np

__all__ = ["nan_row_order"]

_RUN = 16          # libstdc++'s insertion-sort threshold
_LOWEST = {4: float(np.finfo(np.float32).min), 8: float(np.finfo(np.float64).min)}


def nan_row_order(row: np.ndarray, k: int) -> list[int]:
    """Indices of TopKV2's k outputs for one row (values compared as TensorFlow's kernel)."""
    x = row.astype(np.float64 if row.dtype.itemsize == 8 else np.float32).tolist()
    if k == 1:
        return [_max_index(x, 4 if row.dtype.itemsize == 8 else 8, row.dtype.itemsize)]
    if k == len(x):
        return _sorted_with_runs(x)
    return _bounded_heap(x, k)


# --- k == n: introsort, then runs of equal values in index order -----------------------------

def _sorted_with_runs(x: list) -> list[int]:
    def before(a, b):          # a goes first: x[a] larger
        return x[b] < x[a]

    idx = list(range(len(x)))
    _introsort_all(idx, before)
    i, n = 0, len(idx)
    while i + 1 < n:
        j = i + 1
        if x[idx[i]] == x[idx[j]]:
            while j < n and x[idx[i]] == x[idx[j]]:
                j += 1
            idx[i:j] = sorted(idx[i:j])
        i = j
    return idx


def _introsort_all(a: list, before) -> None:
    n = len(a)
    if n < 2:
        return
    _introsort(a, 0, n, 2 * (n.bit_length() - 1), before)
    if n > _RUN:
        _insertion_sort(a, 0, _RUN, before)
        for i in range(_RUN, n):
            _shift_down(a, i, 0, before)
    else:
        _insertion_sort(a, 0, n, before)


def _introsort(a: list, first: int, last: int, depth: int, before) -> None:
    while last - first > _RUN:
        if depth == 0:
            _heapsort(a, first, last, before)
            return
        depth -= 1
        cut = _partition(a, first, last, before)
        _introsort(a, cut, last, depth, before)
        last = cut


def _partition(a: list, first: int, last: int, before) -> int:
    """Median of a[first+1], the middle and the last moved to a[first] as the pivot, then
    the unguarded Hoare partition of a[first+1:last] around it."""
    i, j, m = first + 1, last - 1, first + (last - first) // 2
    if before(a[i], a[m]):
        pick = m if before(a[m], a[j]) else (j if before(a[i], a[j]) else i)
    else:
        pick = i if before(a[i], a[j]) else (j if before(a[m], a[j]) else m)
    a[first], a[pick] = a[pick], a[first]
    pivot, lo, hi = a[first], first + 1, last
    while True:
        while before(a[lo], pivot):
            lo += 1
        hi -= 1
        while before(pivot, a[hi]):
            hi -= 1
        if lo >= hi:
            return lo
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1


def _insertion_sort(a: list, first: int, last: int, before) -> None:
    for i in range(first + 1, last):
        v = a[i]
        if before(v, a[first]):
            a[first + 1:i + 1] = a[first:i]
            a[first] = v
        else:
            _shift_down(a, i, first, before)


def _shift_down(a: list, i: int, floor: int, before) -> None:
    """Moves a[i] left past the values it goes before (the library does not check `floor`;
    a comparison with NaN always stops it first)."""
    v = a[i]
    while i > floor and before(v, a[i - 1]):
        a[i] = a[i - 1]
        i -= 1
    a[i] = v


def _heapsort(a: list, first: int, last: int, before) -> None:
    n = last - first
    for parent in range((n - 2) // 2, -1, -1):
        _sift(a, first, parent, n, a[first + parent], before)
    while n > 1:
        n -= 1
        v = a[first + n]
        a[first + n] = a[first]
        _sift(a, first, 0, n, v, before)


def _sift(a: list, first: int, hole: int, n: int, value, before) -> None:
    """libstdc++'s heap adjustment: the hole goes down to a leaf along the larger children,
    then `value` goes up from there."""
    top = child = hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if before(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and before(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


# --- 1 < k < n: a heap of the k best so far ---------------------------------------------------

def _bounded_heap(x: list, k: int) -> list[int]:
    def above(a, b):           # a ranks above b: larger, or equal and lower index
        if x[b] < x[a]:
            return True
        if x[b] > x[a]:
            return False
        return a < b

    heap = list(range(k + 1))
    _make_heap(heap, k + 1, above)
    _pop(heap, k + 1, above)
    heap.pop()
    for c in range(k + 1, len(x)):
        if above(c, heap[0]):
            _pop(heap, k, above)
            heap[k - 1] = c
            _push(heap, k, above)
    for n in range(k, 1, -1):
        _pop(heap, n, above)
    return heap


def _make_heap(a: list, n: int, before) -> None:
    for parent in range((n - 2) // 2, -1, -1):
        _sift(a, 0, parent, n, a[parent], before)


def _pop(a: list, n: int, before) -> None:
    """The heap's top to a[n-1], the rest of a[:n-1] a heap again."""
    if n > 1:
        v = a[n - 1]
        a[n - 1] = a[0]
        _sift(a, 0, 0, n - 1, v, before)


def _push(a: list, n: int, before) -> None:
    """a[n-1] into the heap a[:n-1]."""
    value, hole = a[n - 1], n - 1
    parent = (hole - 1) // 2
    while hole > 0 and before(a[parent], value):
        a[hole] = a[parent]
        hole = parent
        parent = (hole - 1) // 2
    a[hole] = value


# --- k == 1: Eigen's max, then the first index holding it ------------------------------------

def _max_index(x: list, lanes: int, itemsize: int) -> int:
    lowest = _LOWEST[8 if itemsize == 8 else 4]
    vectorized = len(x) // lanes * lanes
    lane_max = [lowest] * lanes
    for i in range(vectorized):            # packet lanes keep their value against NaN
        v = x[i]
        if lane_max[i % lanes] < v:
            lane_max[i % lanes] = v
    packets = max(lane_max) if vectorized else lowest
    tail = lowest
    for v in x[vectorized:]:               # the scalar tail takes the new value unless smaller
        tail = tail if v < tail else v
    best = packets if tail < packets else tail
    for c, v in enumerate(x):
        if v == best:
            return c
    return 0
