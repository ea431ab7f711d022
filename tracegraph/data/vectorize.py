"""When a map function traced for one element may run on a whole block of rows at once.

`map` traces its function once per element spec (TensorFlow's semantics: the function sees
one element). Running that graph on a block — each input with a leading row dimension — gives
the same rows as running it row by row exactly when every op treats each row on its own:

- every op reached from an element input is elementwise (its record says so: each output
  element depends only on the input elements at its position) or an identity;
- every element input such an op reads has the op's output shape, statically known: rows are
  never broadcast against each other, and a value that does not depend on the element
  (a constant, a captured tensor) broadcasts from the right, so it meets every row the same;
- nothing is stateful, random, calls Python or holds a sub-graph (those run per element).

Outputs that do not depend on the element are broadcast to the block's rows. Anything else
keeps the element-by-element path; `batch_safe` says why, for `Dataset.execution_plan()`.
"""

from __future__ import annotations

from ..graph.graph import Graph
from ..ops.registry import is_placeholder_like

__all__ = ["batch_safe"]

_FORBIDDEN = {"random", "calls_python", "external_state", "control_flow", "function_call",
              "opaque_output", "data_dependent_shape"}


def _known(shape) -> bool:
    return shape is not None and all(s is not None for s in shape)


def batch_safe(graph: Graph, n_components: int) -> tuple[bool, str]:
    """(whether `graph` may run on blocks, the reason when it may not). The first
    `n_components` inputs of the graph are the element's components; the rest are captured
    values (the same for every row)."""
    varying: set[int] = set()
    for t in list(graph.inputs)[:n_components]:
        if not _known(t.dims):
            return False, f"an element component has an unknown shape {t.dims}"
        varying.add(id(t))
    for op in graph.operations:
        flags = op.op_def.flags
        if is_placeholder_like(op.op_def):
            continue
        reads = [t for t in op.inputs if id(t) in varying]
        if not reads:
            if op.op_def.stateful or flags & _FORBIDDEN:
                return False, f"{op.type} runs once per element ({op.name})"
            continue
        if op.op_def.stateful or flags & _FORBIDDEN:
            return False, f"{op.type} runs once per element ({op.name})"
        if not flags & {"elementwise", "identity"}:
            return False, f"{op.type} is not elementwise ({op.name})"
        for out in op.outputs:
            if not _known(out.dims):
                return False, f"{op.name} has an unknown shape"
            for t in reads:
                if tuple(t.dims) != tuple(out.dims):
                    return False, f"{op.name} broadcasts an element value"
            varying.add(id(out))
    return True, ""
