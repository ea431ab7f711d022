"""Shared by the optimizer's tests: trace a function, apply one pass, print graphs compactly
(`name = Type(inputs)` per op), run a graph with the reference interpreter."""

import numpy as np

import tracegraph as tf
from tracegraph.execute.compile import compile_graph
from tracegraph.framework.tensor import EagerTensor
from tracegraph.graph.printer import tensor_ref
from tracegraph.graph.verify import verify
from tracegraph.optimize import options
from tracegraph.optimize.passes import PASSES, PassContext


def traced(fn, *args):
    return tf.function(fn, autograph=True).get_concrete_function(*args).graph


def ops_text(graph) -> str:
    lines = []
    for op in graph.operations:
        args = [tensor_ref(t) for t in op.inputs] + [f"^{c.name}" for c in op.control_inputs]
        lines.append(f"{op.name} = {op.type}({', '.join(args)})")
    return "\n".join(lines)


def op_types(graph) -> list[str]:
    return [op.type for op in graph.operations]


def apply_pass(name, graph, **overrides):
    opts = {**options.current(), **overrides}
    result = PASSES[name].fn(graph, PassContext(opts))
    verify(result)
    return result


def run(graph, *values):
    constants = [(ph, v._value if isinstance(v, EagerTensor) else v)
                 for v, ph in graph.captures.values()]
    fn = compile_graph(graph, list(graph.inputs), list(graph.outputs), constants,
                       executor="interpreter")
    return fn(*[np.asarray(v) if not isinstance(v, np.ndarray) else v for v in values])


def same(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and bool(
        np.array_equal(a, b, equal_nan=True)) and bool(
        np.array_equal(np.signbit(a), np.signbit(b)) if a.dtype.kind == "f" else True)


def spec(shape, dtype=tf.float32):
    return tf.TensorSpec(shape, dtype)
