"""The function library of a SavedModel's graph: which functions the model's objects reach,
which op types they use (before anything is converted), and each function converted to a
tracegraph graph once (`function_import`), with calls checked for cycles and depth."""

from __future__ import annotations

from ...framework.variables import ResourceHandle
from ...graph.graph import FuncGraph
from .format_errors import invalid
from .function_import import NAME, FunctionConverter

__all__ = ["FunctionLibrary", "with_captures", "MAX_FUNCTION_DEPTH"]

MAX_FUNCTION_DEPTH = 64


class FunctionLibrary:
    """The FunctionDefs of a GraphDef's library; `graph(name)` converts one (memoized)."""

    def __init__(self, library, file: str):
        self.file = file
        self.defs = {}
        for i, fdef in enumerate(library.function):
            name = fdef.signature.name
            if name in self.defs or not NAME.fullmatch(name):
                raise invalid(file, f"library.function[{i}]", f"duplicate or invalid function "
                              f"name {name!r:.80}")
            self.defs[name] = fdef
        self._graphs: dict[str, FuncGraph] = {}
        self._converting: list[str] = []

    # --- what a model uses ------------------------------------------------------------------------
    def reachable(self, roots) -> list[str]:
        """The functions `roots` call, directly or not (the roots included), callees first."""
        order, seen = [], set()
        for root in roots:
            stack = [(root, False)]
            while stack:
                name, done = stack.pop()
                if done:
                    order.append(name)
                    continue
                if name in seen or name not in self.defs:
                    continue
                seen.add(name)
                stack.append((name, True))
                for node in self.defs[name].node_def:
                    for value in node.attr.values():
                        for ref in self._function_names(value):
                            stack.append((ref, False))
        return order

    @staticmethod
    def _function_names(value) -> list[str]:
        kind = value.WhichOneof("value")
        if kind == "func":
            return [value.func.name]
        if kind == "list":
            return [f.name for f in value.list.func]
        return []

    def op_types(self, roots) -> dict[str, list[str]]:
        """op type -> the functions using it, for every function `roots` reach."""
        out: dict[str, list[str]] = {}
        for name in self.reachable(roots):
            for node in self.defs[name].node_def:
                users = out.setdefault(node.op, [])
                if name not in users:
                    users.append(name)
        return dict(sorted(out.items()))

    # --- conversion -------------------------------------------------------------------------------
    def graph(self, name: str, captures=None) -> FuncGraph:
        """The function `name` as a FuncGraph, every argument an input. With `captures`
        (top-level functions): a copy whose last arguments are bound to these values
        (Variable handles, constants) as captures instead of inputs."""
        graph = self._graphs.get(name)
        if graph is None:
            graph = self._graphs[name] = self._convert(name)
        return graph if captures is None else with_captures(graph, captures, self.file)

    def _convert(self, name: str) -> FuncGraph:
        fdef = self.defs.get(name)
        if fdef is None:
            raise invalid(self.file, "library", f"function {name!r:.80} is not in the library")
        if name in self._converting:
            raise invalid(self.file, f"function {name!r:.80}",
                          "calls itself (directly or through other functions)")
        if len(self._converting) >= MAX_FUNCTION_DEPTH:
            raise invalid(self.file, f"function {name!r:.80}",
                          f"functions nested deeper than {MAX_FUNCTION_DEPTH}")
        self._converting.append(name)
        try:
            return FunctionConverter(self, fdef).run()
        finally:
            self._converting.pop()


def with_captures(graph: FuncGraph, captures: list, file: str) -> FuncGraph:
    """A copy of `graph` whose last `len(captures)` inputs read `captures` (as a traced
    function reads the values it captured). Sub-graphs are shared: graphs are never mutated."""
    n = len(graph.inputs) - len(captures)
    if n < 0:
        raise invalid(file, f"function {graph.name!r:.80}", f"{len(captures)} captured values "
                      f"for {len(graph.inputs)} arguments")
    out = FuncGraph(graph.name)
    out.auto_control_deps = False
    tensors, ops = {}, {}
    for op in graph.operations:
        new = out.copy_operation(op, op.name, [tensors[id(t)] for t in op.inputs],
                                 [ops[id(c)] for c in op.control_inputs])
        ops[id(op)] = new
        tensors.update((id(a), b) for a, b in zip(op.outputs, new.outputs))
    out.inputs = [tensors[id(t)] for t in graph.inputs[:n]]
    for value, t in zip(captures, graph.inputs[n:]):
        want = "resource" if isinstance(value, ResourceHandle) else value.dtype.name
        if t.dtype.name != want:
            raise invalid(file, f"function {graph.name!r:.80}", f"a {want} value bound to a "
                          f"{t.dtype.name} argument")
        out.captures[id(value)] = (value, tensors[id(t)])
    out.outputs = [tensors[id(t)] for t in graph.outputs]
    return out
