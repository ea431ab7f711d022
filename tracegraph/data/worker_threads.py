"""Threads of tf.data: parallel map calls and background prefetching, with bounded buffers.

`parallel_map` keeps at most `parallelism` calls in flight on a shared pool and hands results
out in input order (or as they finish when `deterministic` is False). `prefetched` runs a
producer on its own thread, at most `buffer_size` items ahead. Both stop when the iteration's
context stops (the consumer finished, broke out of a loop or dropped its iterator), and pass
the producer's exception to the consumer at the position it happened.

NumPy releases the GIL in its array loops, so work on large arrays (blocks, batches) overlaps;
Python-level work overlaps with waiting (sleeps, I/O) only.
"""

from __future__ import annotations

import collections
import concurrent.futures
import os
import queue
import threading

__all__ = ["parallel_map", "prefetched", "resolve_parallelism", "pool"]

_POOL = None
_POOL_LOCK = threading.Lock()


def pool() -> concurrent.futures.ThreadPoolExecutor:
    """The pool parallel map calls run on (created on first use)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = concurrent.futures.ThreadPoolExecutor(
                max_workers=max(4, 2 * (os.cpu_count() or 1)),
                thread_name_prefix="tf_data")
        return _POOL


def resolve_parallelism(value) -> int:
    """A `num_parallel_calls` / buffer size: AUTOTUNE (-1) picks the number of cores."""
    n = int(value)
    if n == -1:
        return max(2, os.cpu_count() or 1)
    return max(1, n)


def parallel_map(items, fn, parallelism: int, deterministic: bool, ctx):
    """`fn(item)` for each item, up to `parallelism` at a time."""
    executor = pool()
    pending: collections.deque = collections.deque()
    source = iter(items)
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) < parallelism:
                item = next(source, _END)
                if item is _END:
                    exhausted = True
                    break
                pending.append(executor.submit(fn, item))
            if not pending:
                return
            if deterministic:
                future = pending.popleft()
            else:
                done, _ = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED)
                future = next(f for f in pending if f in done)
                pending.remove(future)
            yield future.result()
            if ctx.stopping:
                return
    finally:
        for future in pending:
            future.cancel()


_END = object()


class _Failure:
    __slots__ = ("error",)

    def __init__(self, error):
        self.error = error


def prefetched(items, buffer_size: int, ctx, name: str = "prefetch"):
    """The items of an iterable, produced on a background thread `buffer_size` ahead."""
    buffer: queue.Queue = queue.Queue(maxsize=max(1, buffer_size))
    stop = threading.Event()

    def put(item) -> bool:
        while not (stop.is_set() or ctx.stopping):
            try:
                buffer.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def produce():
        try:
            for item in items:
                if not put(item):
                    return
            put(_END)
        except BaseException as e:   # handed to the consumer where it happened
            put(_Failure(e))
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()

    thread = threading.Thread(target=produce, name=f"tf_data_{name}", daemon=True)
    ctx.threads.append(thread)
    thread.start()
    try:
        while True:
            try:
                item = buffer.get(timeout=0.05)
            except queue.Empty:
                if ctx.stopping or not thread.is_alive() and buffer.empty():
                    return
                continue
            if item is _END:
                return
            if isinstance(item, _Failure):
                raise item.error
            yield item
    finally:
        stop.set()
