"""The parallel executor: independent parts of a graph run on a small thread pool.

A graph whose ops fall into several independent components (no data or control edge between
them; reading the same arguments or constants does not connect them) runs each component as its
own generated function, one per thread, when at least two components are heavy enough for the
threads to pay: NumPy releases the GIL in matmul, convolution and large elementwise loops, so
two such components use both cores. Graphs with stateful ops (prints, variable writes) run as
one function: their order is part of the result. The number of threads follows
`tf.config.threading.set_inter_op_parallelism_threads` (0: one per core); while parts run side
by side, each op in them gets its share of the cores from `thread_budget` (one BLAS thread
each on two cores), so the process never runs more threads than cores.

The code generator's result is the same: each component's function is the code the generator
writes for that part of the plan; outputs are put back in order.
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

from .. import thread_budget

__all__ = ["components", "split_for_threads", "ParallelFunction", "set_inter_op_threads",
           "inter_op_threads", "HEAVY_ELEMENTS"]

# A component is worth a thread when its ops produce at least this many elements in all
# (static shapes; an unknown dim counts as large).
HEAVY_ELEMENTS = 1 << 16
_threads = 0
_pool: ThreadPoolExecutor | None = None
_pool_size = 0


def set_inter_op_threads(n: int) -> None:
    global _threads
    _threads = int(n)


def inter_op_threads() -> int:
    return _threads


def _pool_for(n: int) -> ThreadPoolExecutor:
    global _pool, _pool_size
    if _pool is None or _pool_size != n:
        if _pool is not None:
            _pool.shutdown(wait=False)
        _pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="tracegraph-inter-op")
        _pool_size = n
    return _pool


def components(plan) -> list[list]:
    """The plan's ops grouped into independent components (each in schedule order)."""
    parent = {id(op): id(op) for op in plan.schedule}
    scheduled = set(parent)

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for op in plan.schedule:
        for producer in [t.op for t in op.inputs] + list(op.control_inputs):
            if id(producer) in scheduled and "constant" not in producer.op_def.flags:
                a, b = find(id(op)), find(id(producer))
                if a != b:
                    parent[a] = b
    groups: dict[int, list] = {}
    for op in plan.schedule:
        if "constant" in op.op_def.flags:
            continue   # constants are copied into every component that reads them
        groups.setdefault(find(id(op)), []).append(op)
    return list(groups.values())


def _cost(ops) -> int:
    """Elements the ops produce in all (an unknown shape counts as heavy)."""
    sizes = [t.static_size for op in ops for t in op.outputs]
    return HEAVY_ELEMENTS if None in sizes else sum(sizes)


def split_for_threads(plan, force: bool = False):
    """Output groups of `plan`, one per component worth a thread, or None to run as one
    function."""
    if any(op.op_def.stateful for op in plan.schedule):
        return None
    if not force and sum(_cost([op]) for op in plan.schedule) < 2 * HEAVY_ELEMENTS:
        return None   # not two heavy parts in all: no need to find the components
    outputs = plan.outputs
    parts = components(plan)
    if not force:
        parts = [p for p in parts if _cost(p) >= HEAVY_ELEMENTS]
    if len(parts) < 2:
        return None
    owner = {}
    for i, part in enumerate(parts):
        for op in part:
            owner[id(op)] = i
    groups = [[] for _ in parts]
    for index, t in enumerate(outputs):
        if id(t.op) in owner:
            groups[owner[id(t.op)]].append(index)
    groups = [g for g in groups if g]
    return groups if len(groups) >= 2 else None


class ParallelFunction:
    """Runs one compiled function per output group on the inter-op pool and puts the outputs
    back in order; outputs in no group (arguments, constants, light parts) come from `rest`."""

    def __init__(self, parts, groups, rest, rest_indices, n_outputs: int):
        self.parts = parts
        self.groups = groups
        self.rest = rest
        self.rest_indices = rest_indices
        self.n_outputs = n_outputs
        sources = [getattr(p, "source", "") or "" for p in parts + ([rest] if rest else [])]
        self.source = "\n".join(f"# --- runs on thread {i} ---\n{s}"
                                for i, s in enumerate(sources))

    def __call__(self, *values):
        parts = self.parts
        threads = min(_threads, len(parts)) if _threads else \
            thread_budget.inter_op_threads(len(parts))
        if threads < 2:
            results = [part(*values) for part in parts]
        else:
            results = self._shared(values, threads)
        out = [None] * self.n_outputs
        for group, result in zip(self.groups, results):
            for index, value in zip(group, result):
                out[index] = value
        if self.rest is not None:
            for index, value in zip(self.rest_indices, self.rest(*values)):
                out[index] = value
        return tuple(out)

    def _shared(self, values, threads: int) -> list:
        """The parts on up to `threads` threads, the calling one included (the pool has
        `threads - 1`): each takes the next part not yet taken, so no core idles while parts
        remain and no more threads run than asked. The first failing part (in order) raises,
        as in the serial executor."""
        parts = self.parts
        results: list = [None] * len(parts)
        errors: dict = {}
        taken = itertools.count()   # next() on a count is atomic under the GIL

        def take_parts():
            for i in iter(taken.__next__, None):
                if i >= len(parts):
                    return
                try:
                    results[i] = parts[i](*values)
                except BaseException as e:  # noqa: BLE001 - re-raised below, in order
                    errors[i] = e

        # the parts' share of the cores is set before the pool's threads start and put back
        # after they end
        with thread_budget.parts_side_by_side(threads):
            pool = _pool_for(threads - 1)
            futures = [pool.submit(take_parts) for _ in range(threads - 1)]
            try:
                take_parts()
            finally:
                for f in futures:
                    f.result()
        if errors:
            raise errors[min(errors)]
        return results
