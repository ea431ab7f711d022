"""The pass interface: a pass is a function with a name, taking a graph and a context and
returning a graph (the same object when it did nothing) (STYLE rule 3).

    @graph_pass("constant_folding", option="constant_folding")
    def constant_folding(graph: Graph, ctx: PassContext) -> Graph: ...

Each rewrite a pass makes is recorded with `ctx.rewrote(rule, matched, replacement)`, so the
report says what became what (R-6.5).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["graph_pass", "PASSES", "GraphPass", "PassContext", "PassReport", "Rewrite",
           "LazyDetail"]


@dataclass
class Rewrite:
    rule: str
    matched: list[str]
    replacement: list[str]
    group: str = "exact"    # or "rounding-changing" (rules.ROUNDING_CHANGING): named in the text

    @property
    def exact(self) -> bool:
        return self.group == "exact"

    def __str__(self):
        group = "" if self.exact else f" ({self.group})"
        return (f"{self.rule}{group}: {', '.join(self.matched)} -> "
                f"{', '.join(self.replacement)}")


@dataclass
class PassReport:
    name: str
    graph: str
    nodes_before: int
    nodes_after: int
    edges_before: int
    edges_after: int
    seconds: float
    changed: bool
    round: int = 1
    rewrites: list = field(default_factory=list)
    note: str = ""       # replaces the figures: why the pass did not run
    detail: str = ""     # added to the figures (e.g. peak memory before and after)

    def line(self) -> str:
        """Grappler's style: `name: N nodes (-d), E edges (-d), t ms` or `did nothing`."""
        ms = f"{self.seconds * 1e3:.1f} ms"
        if self.note:
            return f"{self.name}: {self.note}"
        if not self.changed:
            return f"{self.name}: did nothing, {ms}"
        dn = self.nodes_after - self.nodes_before
        de = self.edges_after - self.edges_before
        extra = f", {self.detail}" if self.detail else ""
        return (f"{self.name}: {self.nodes_after} nodes ({dn:+d}), {self.edges_after} edges "
                f"({de:+d}), {ms}{extra}")


class LazyDetail:
    """A report detail computed only when the report is read (an analysis a pass does not need
    for its rewrite, such as memory optimization's peak estimate)."""

    def __init__(self, compute: Callable[[], str]):
        self._compute, self._text = compute, None

    def __str__(self) -> str:
        if self._text is None:
            self._text, self._compute = self._compute(), None
        return self._text

    def __contains__(self, part: str) -> bool:
        return part in str(self)


@dataclass
class PassContext:
    options: dict
    rewrites: list = field(default_factory=list)
    detail: str = ""

    def rewrote(self, rule: str, matched, replacement, group: str = "exact") -> None:
        self.rewrites.append(Rewrite(rule, [_name(m) for m in matched],
                                     [_name(r) for r in replacement], group))


def _name(x) -> str:
    op = getattr(x, "op", None)
    if op is not None and hasattr(x, "value_index"):  # a tensor: its op, as Grappler names nodes
        return op.name if x.value_index == 0 else f"{op.name}:{x.value_index}"
    return getattr(x, "name", str(x))


@dataclass(frozen=True)
class GraphPass:
    name: str
    fn: Callable
    option: str | None           # the tf.config.optimizer key that turns it on or off
    run_once: bool = False       # layout, loop and memory run in the first round only
    exact: bool = True           # False: always may change rounding (documented in the module)
    rounding_option: str | None = None   # the option that turns on its rounding-changing rules
    idempotent: bool = False     # its result is a fixed point: running it again changes nothing
    annotates: bool = False      # changes only annotations (in-place marks), never the ops
    # Runs once after the rounds, on the top-level graph (it goes into sub-graphs itself),
    # when its option holds a request (not None or False), even with the meta-optimizer off,
    # and only on graphs `applies(graph, request)` accepts: jit fusion, which the executor
    # asks for (jit_compile), as XLA's clustering is not one of Grappler's passes.
    after_rounds: bool = False
    applies: Callable | None = None

    def exact_under(self, options: dict) -> bool:
        """Whether the pass keeps every result bit for bit under `options`."""
        if not self.exact:
            return False
        return self.rounding_option is None or not options.get(self.rounding_option, True)

    def enabled(self, options: dict) -> bool:
        if self.after_rounds:
            request = options.get(self.option)
            return request is not None and request is not False
        if self.option is None:
            return True
        if self.option == "disable_model_pruning":
            return not options[self.option]
        return bool(options[self.option])


PASSES: dict[str, GraphPass] = {}


def graph_pass(name: str, option: str | None = None, run_once: bool = False,
               exact: bool = True, rounding_option: str | None = None,
               idempotent: bool = False, annotates: bool = False, after_rounds: bool = False,
               applies: Callable | None = None):
    def register(fn):
        PASSES[name] = GraphPass(name, fn, option or name, run_once, exact, rounding_option,
                                 idempotent, annotates, after_rounds, applies)
        return fn
    return register
