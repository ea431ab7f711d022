"""Where a concrete function's first call spent its time: the first-call report.

"Why is my first call slow?" is what tf.function users ask most after retracing. TensorFlow
shows the compiler's IR (`experimental_get_compiler_ir`); tracegraph shows the time, part by
part, in the order the first call spends it:

| part | what it is (recorded by) |
|---|---|
| trace | AutoGraph's conversion (once per tf.function), then the Python function run on symbolic |
|       |   tensors (trace/function.py) |
| optimize | each Grappler pass in the order it ran, sub-graphs named (optimize/meta.py) |
| jit fusion | clustering elementwise ops into fused kernels (optimize/jit_fusion.py) |
| code generation | writing and compiling the Python function that runs the graph |
| jit compilation | each numba kernel: on the first call or in the background, compiled or |
|                 |   loaded from the cache, calls answered op by op meanwhile (execute/jit.py) |
| first execution | the graph run once (with kernels compiled on the first call, if any) |

`ConcreteFunction.experimental_first_call_report(wait=False)` returns a `FirstCallReport`
(`print` it, or read `.parts`); `wait=True` first waits for kernels compiling in the background.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .compile import compiled_subgraph
from .jit_build import wait_for_kernels

__all__ = ["FirstCallPart", "FirstCallReport", "first_call_report", "timed_first_run"]


@dataclass
class FirstCallPart:
    name: str
    seconds: float | None          # None: not done yet (a kernel still compiling)
    detail: str = ""
    parts: list = field(default_factory=list)

    def lines(self, depth: int = 1) -> list[str]:
        time_text = "pending" if self.seconds is None else _ms(self.seconds)
        label = "  " * depth + self.name
        line = f"{label:<46} {time_text:>10}"
        if self.detail:
            line += f"  {self.detail}"
        return [line] + [x for p in self.parts for x in p.lines(depth + 1)]


@dataclass
class FirstCallReport:
    function: str
    executor: str
    parts: list = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        """The top-level parts' names, in order."""
        return [p.name for p in self.parts]

    def part(self, name: str) -> FirstCallPart | None:
        return next((p for p in self.parts if p.name == name), None)

    def text(self) -> str:
        head = f"First call of {self.function} (executor: {self.executor})"
        body = [x for p in self.parts for x in p.lines()]
        return "\n".join([head] + body)

    __str__ = text

    def __repr__(self):
        return f"<FirstCallReport {self.function}: {', '.join(self.names)}>"


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:,.1f} ms" if seconds < 10 else f"{seconds:,.2f} s"


def timed_first_run(concrete, compiled, times: dict):
    """`compiled`, timed on its first call (then the concrete function calls it directly)."""
    def first_run(*values):
        concrete.replace_compiled(compiled)
        start = time.perf_counter()
        try:
            return compiled(*values)
        finally:
            times.setdefault("first execution", time.perf_counter() - start)
    first_run.source = getattr(compiled, "source", None)
    return first_run


def _trace_part(times: dict) -> FirstCallPart:
    autograph, trace = times.get("autograph"), times.get("trace")
    parts = []
    if autograph is not None:
        parts.append(FirstCallPart("AutoGraph conversion", autograph))
    if trace is not None:
        parts.append(FirstCallPart("tracing the Python function", trace,
                                   times.get("trace detail", "")))
    total = sum(p.seconds for p in parts) if parts else None
    return FirstCallPart("trace", total, "", parts)


def _optimize_part(times: dict) -> list[FirstCallPart]:
    report = times.get("report")
    if report is None:
        return []
    passes = []
    for p in report.passes:
        if p.name == "jit_fusion" or p.note:
            continue
        name = p.name if p.graph == report.graph else f"{p.name} ({p.graph})"
        passes.append(FirstCallPart(name, p.seconds,
                                    f"{p.nodes_before} -> {p.nodes_after} nodes"
                                    if p.changed else "no change"))
    parts = [FirstCallPart("optimize", times.get("optimize"), f"{len(passes)} pass runs",
                           passes)]
    fusion = [p for p in report.passes if p.name == "jit_fusion"]
    if fusion:
        f = fusion[0]
        parts.append(FirstCallPart("jit fusion", f.seconds,
                                   f"{f.nodes_before} -> {f.nodes_after} nodes"))
    return parts


def _kernels(graph, executor: str) -> list:
    """The compiled clusters (JitKernel / LoopKernel) of `graph`'s fused ops, at any depth."""
    found, seen = [], set()

    def walk(g):
        for op in g.operations:
            for _, sub in op.subgraphs():
                if id(sub) in seen:
                    continue
                seen.add(id(sub))
                kernel = compiled_subgraph(sub, executor)
                if kernel is not None and hasattr(kernel, "compiles"):
                    found.append(kernel)
                walk(sub)
    walk(graph)
    return found


def _jit_part(times: dict) -> FirstCallPart | None:
    graph = times.get("graph")
    if graph is None:
        return None
    kernels = _kernels(graph, times.get("executor", "jit"))
    if not kernels:
        return None
    by_name: dict = {}
    for kernel in kernels:
        for record in kernel.compiles.values():
            by_name.setdefault(record.name, []).append(record)
    parts = []
    for name, records in by_name.items():
        first = records[0]
        pending = any(r.seconds is None and r.error is None for r in records)
        seconds = None if pending else sum(r.seconds or 0.0 for r in records)
        how = "loaded from the cache" if any(r.cached for r in records) else "compiled"
        if any(r.error is not None for r in records):
            how = "failed"
        elif pending:
            how = "compiling"
        where = "in the background" if first.where == "background" else "on the first call"
        served = sum(r.served for r in records)
        detail = f"{how} {where}"
        if len(records) > 1:
            detail += f", shared by {len(records)} clusters"
        if served:
            detail += f"; answered op by op {served} time(s) meanwhile"
        parts.append(FirstCallPart(f"{name} [{first.pattern}]", seconds, detail))
    if not parts:
        return None
    pending = any(p.seconds is None for p in parts)
    total = None if pending else sum(p.seconds for p in parts)
    background = any("background" in p.detail for p in parts)
    detail = f"{len(parts)} kernel(s) for {sum(len(k.compiles) for k in kernels)} cluster(s)"
    if background:
        detail += ", beside the calls"
    return FirstCallPart("jit compilation", total, detail, parts)


def first_call_report(concrete, wait: bool = False) -> FirstCallReport:
    """The first-call report of a ConcreteFunction (see the module's table)."""
    if wait:
        wait_for_kernels()
    times = getattr(concrete, "first_call_times", None) or {}
    report = FirstCallReport(concrete.name, times.get("executor", concrete.executor))
    report.parts.append(_trace_part(times))
    report.parts += _optimize_part(times)
    if "codegen" in times:
        report.parts.append(FirstCallPart("code generation", times["codegen"]))
    jit = _jit_part(times)
    if jit is not None:
        report.parts.append(jit)
    run = times.get("first execution")
    detail = "" if run is not None or "codegen" in times else "not called yet"
    background = jit is not None and "beside the calls" in jit.detail
    if jit is not None and not background:
        jit.detail += " (inside the first execution)"
        detail = "includes the jit compilation above"
    report.parts.append(FirstCallPart("first execution", run, detail))
    spent = [p.seconds for p in report.parts
             if p.seconds is not None and p.name != "jit compilation"]
    report.parts.append(FirstCallPart("total", sum(spent), "trace to result" + (
        "; the background compilation is not in it" if background else "")))
    return report
