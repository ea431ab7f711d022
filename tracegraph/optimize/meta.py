"""The meta-optimizer: runs the passes in TensorFlow 2.21's order over a copy of a traced graph
(R-6.1). Two rounds; the run-once passes (layout, loop, memory) run in the first only. Graphs
with fewer than `min_graph_nodes` ops are left alone; sub-graphs (cond branches, loop bodies,
called functions) go through the same pipeline first. Then the passes an executor asks for run
once, after the rounds (jit fusion, `options["jit_fusion"]`). A pass that fails is skipped with
a warning and the graph it got is kept. The traced graph is never changed.
"""

from __future__ import annotations

import time
import warnings
import weakref
from dataclasses import dataclass, field

from ..graph.graph import Graph
from . import options as _options
from .builder import GraphBuilder, count_edges
from .passes import PASSES, PassContext, PassReport

__all__ = ["ORDER", "optimize", "OptimizationReport", "OptimizerWarning"]

# The order of TensorFlow 2.21's meta-optimizer (grappler/optimizers/meta_optimizer.cc).
ORDER = [
    "pruning",                        # first: smaller graphs make every later pass cheaper
    "function_optimization",          # inline calls so the passes below see across them
    "common_subgraph_elimination",
    "debug_stripper",                 # before folding: stripped checks no longer block it
    "constant_folding",
    "shape_optimization",
    "auto_mixed_precision",
    "pin_to_host_optimization",
    "arithmetic_optimization",
    "layout_optimizer",               # run once: it rewrites formats, then cancels its pairs
    "remapping",                      # fuse after simplification, on the final op mix
    "loop_optimization",              # run once
    "dependency_optimization",        # removes the Identity/NoOp nodes the passes left
    "memory_optimization",            # run once, last: decides in-place buffer reuse
    "auto_parallel",
    "scoped_allocator_optimization",
    "jit_fusion",                     # after the rounds, when the executor asks (jit_compile)
]
ROUNDS = 2


class OptimizerWarning(UserWarning):
    """A pass failed; the optimizer skipped it and kept the graph it got."""


@dataclass
class OptimizationReport:
    graph: str
    passes: list = field(default_factory=list)        # PassReport per pass run, all graphs
    snapshots: list = field(default_factory=list)     # (pass, graph) when verifying

    @property
    def rewrites(self) -> list:
        return [r for p in self.passes for r in p.rewrites]

    def ran(self, name: str) -> bool:
        return any(p.name == name and not p.note.startswith("off") for p in self.passes)

    def text(self, changed_only: bool = False) -> str:
        """Grappler's report; `changed_only` keeps the passes that changed something."""
        lines = []
        current = None
        for p in self.passes:
            if changed_only and not p.changed:
                continue
            if p.graph != current:
                current = p.graph
                lines.append(f"Optimization results for grappler item: {p.graph}")
            lines.append(f"  {p.line()}")
        return "\n".join(lines)

    __str__ = text


def optimize(graph: Graph, opts: dict | None = None, verify: bool | None = None):
    """(optimized graph, OptimizationReport). `graph` itself is never modified. `opts` are the
    options (default: the current ones), plus the executor's requests for the passes that run
    after the rounds (`"jit_fusion"`: see optimize/jit_fusion.py)."""
    opts = opts if opts is not None else _options.current()
    verify = opts.get("experimental_verify", False) if verify is None else verify
    graph, report = _optimize_rounds(graph, opts, verify)
    for name in ORDER:
        p = PASSES[name]
        if p.after_rounds and p.enabled(opts) and p.applies(graph, opts[p.option]):
            graph, pass_report = _run(p, graph, opts, 1)
            report.passes.append(pass_report)
    return graph, report


def _optimize_rounds(graph: Graph, opts: dict, verify: bool):
    report = OptimizationReport(graph.name)
    if opts.get("disable_meta_optimizer"):
        report.passes.append(_note(graph, "meta_optimizer", "disabled "
                                   "(disable_meta_optimizer=True)"))
        return graph, report
    optimized = _optimize_subgraphs(graph, opts, report)
    if verify and optimized is not graph:
        report.snapshots.append(("sub-graph passes", optimized))
    graph = optimized
    small = len(graph.operations) < opts["min_graph_nodes"]
    if small:
        report.passes.append(_note(graph, "meta_optimizer",
                                   f"{len(graph.operations)} nodes < min_graph_nodes = "
                                   f"{opts['min_graph_nodes']}: only passes turned on "
                                   "explicitly run"))
    # A pass whose last run left the graph as it found it (or made it a fixed point of an
    # idempotent pass) is skipped while no later pass changes the ops: it would find nothing.
    # Passes that only annotate (in-place marks) do not count as changes to the ops.
    version, settled = 0, {}
    for round_ in range(1, ROUNDS + 1):
        changed = False
        for name in ORDER:
            p = PASSES[name]
            if p.after_rounds:
                continue
            if not p.enabled(opts):
                if round_ == 1:
                    report.passes.append(_note(graph, name, f"off ({p.option}="
                                                            f"{opts[p.option]})"))
                continue
            if small and not _explicitly_on(p):
                continue
            if p.run_once and round_ > 1:
                continue
            if settled.get(name) == version:
                report.passes.append(_note(graph, name, "skipped: no pass changed the graph "
                                                        "since its last run", round_))
                continue
            graph, pass_report = _run(p, graph, opts, round_)
            report.passes.append(pass_report)
            if pass_report.changed and not p.annotates:
                changed = True
                version += 1
            if not pass_report.changed or p.idempotent:
                settled[name] = version
            if verify and pass_report.changed:
                report.snapshots.append((name, graph))
        if not changed:
            break
    return graph, report


def _explicitly_on(p) -> bool:
    """A pass that is off by default and was turned on (debug_stripper, mixed precision):
    it runs even on graphs under min_graph_nodes, since the user asked for it."""
    option = next((o for o in _options.OPTIONS if o.key == p.option), None)
    return option is not None and option.default is False and p.option != \
        "disable_model_pruning"


def _note(graph, name: str, note: str, round_: int = 1) -> PassReport:
    n, e = len(graph.operations), _edges(graph)
    return PassReport(name, graph.name, n, n, e, e, 0.0, False, round_, note=note)


_EDGES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # graph -> its edge count


def _edges(graph) -> int:
    """Edges of a graph, counted once: a pass that did nothing hands the next the same graph."""
    n = _EDGES.get(graph)
    if n is None:
        n = _EDGES[graph] = count_edges(graph)
    return n


def _run(p, graph, opts, round_):
    ctx = PassContext(opts)
    nodes, edges = len(graph.operations), _edges(graph)
    start = time.perf_counter()
    try:
        result = p.fn(graph, ctx)
    except Exception as e:  # a failing pass is skipped; the graph it got is kept
        warnings.warn(f"optimizer pass {p.name} failed on graph {graph.name!r} and was "
                      f"skipped: {type(e).__name__}: {e}", OptimizerWarning, stacklevel=2)
        result, ctx.rewrites = graph, []
    seconds = time.perf_counter() - start
    changed = result is not graph
    report = PassReport(p.name, graph.name, nodes, len(result.operations), edges,
                        _edges(result), seconds, changed, round_, ctx.rewrites,
                        detail=ctx.detail)
    return result, report


def _optimize_subgraphs(graph: Graph, opts, report) -> Graph:
    """Optimizes every sub-graph held in an attr, then rebuilds `graph` around the results."""
    holders = [op for op in graph.operations if op.subgraphs()]
    if not holders:
        return graph
    b = GraphBuilder(graph)
    changed = False
    for op in b.pending():
        subs = op.subgraphs()
        if not subs:
            b.copy(op)
            continue
        attrs = dict(op.attrs)
        for key, sub in subs:
            new, sub_report = _optimize_rounds(sub, opts, verify=False)
            report.passes.extend(sub_report.passes)
            if new is not sub:
                attrs[key] = new
                changed = True
        b.copy(op, attrs=attrs)
    return b.finish() if changed else graph
