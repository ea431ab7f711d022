"""The graph IR: `Graph`, `FuncGraph` (a traced function's graph) and `Operation`.

A graph is a list of Operations in creation order, which is a topological order: an op's inputs
and control inputs always come before it. Names are unique and scoped (`Greater/y`). Attrs may
hold sub-graphs (the branches of `cond`, the body of `while_loop`, a called function).
"""

from __future__ import annotations

import contextlib
import re

from ..ops.array import placeholder_op
from ..shapes import TensorType
from .collections import Collections
from .marks import check_mark
from .source import SourceLocation
from .tensor import SymbolicTensor

__all__ = ["Graph", "FuncGraph", "Operation", "group_values"]


def group_values(values, arity) -> list:
    """Regroups flat input values into an op's arguments (list inputs become lists)."""
    if all(n is None for n in arity):
        return list(values)
    out, i = [], 0
    for n in arity:
        if n is None:
            out.append(values[i])
            i += 1
        else:
            out.append(list(values[i:i + n]))
            i += n
    return out


class Operation:
    """One node: an op record applied to inputs, with attrs, control inputs and outputs.

    `inplace_input` is the in-place protocol, owned by this layer: None (the default), or the
    index of an input whose buffer the op's kernel may write its result into (the op's record
    names a NumPy ufunc, so the kernel runs as `ufunc(*inputs, out=inputs[i])`). Only the
    memory optimization pass sets it, after proving the input dies at this op and has the
    result's shape and dtype (`optimize.builder.may_write_into`); every rebuild of a graph
    re-checks it; the executors (interpreter, generated code) read it. It is not an attr: it
    never reaches a GraphDef, so a graph loaded from a file cannot claim it.
    """

    __slots__ = ("graph", "name", "op_def", "inputs", "input_arity", "attrs", "control_inputs",
                 "outputs", "source", "kernel_attrs", "inplace_input", "__weakref__")

    def __init__(self, graph, op_def, name: str, inputs, input_arity, attrs: dict,
                 output_types, control_inputs=(), source: SourceLocation | None = None):
        self.graph = graph
        self.op_def = op_def
        self.name = name
        self.inputs = tuple(inputs)
        self.input_arity = tuple(input_arity)
        self.attrs = attrs
        self.control_inputs = list(control_inputs)
        self.source = source
        self.outputs = [SymbolicTensor(self, i, t) for i, t in enumerate(output_types)]
        self.inplace_input: int | None = None
        # attrs the kernel takes: not the type attrs the inputs already determine, nor the
        # internal `_...` ones (annotations such as `_user_specified_name`)
        self.kernel_attrs = {k: v for k, v in attrs.items()
                             if k not in op_def.type_attrs and not k.startswith("_")}

    @property
    def type(self) -> str:
        return self.op_def.tf_type

    @property
    def device(self) -> str:
        """The device requested with `tf.device` when the op was created ('' if none)."""
        return self.attrs.get("_device", "")

    @property
    def values(self):
        return tuple(self.outputs)

    def get_attr(self, name: str):
        try:
            return self.attrs[name]
        except KeyError:
            raise ValueError(f"Operation '{self.name}' has no attr named '{name}'.") from None

    def grouped_inputs(self, values) -> list:
        """Regroups flat input values into the op's arguments (list inputs become lists)."""
        return group_values(values, self.input_arity)

    def extend_outputs(self, attrs: dict, output_types) -> list[SymbolicTensor]:
        """While its graph is being built: sets `attrs` and appends outputs of `output_types`
        (the op's own outputs and their readers stay as they are). Autodiff makes a call or a
        cond output the intermediate values its gradient reuses, as TensorFlow's gradients of
        functional ops do (`_add_outputs`)."""
        self.attrs.update(attrs)
        self.kernel_attrs = {k: v for k, v in self.attrs.items()
                             if k not in self.op_def.type_attrs and not k.startswith("_")}
        start = len(self.outputs)
        new = [SymbolicTensor(self, start + i, t) for i, t in enumerate(output_types)]
        self.outputs.extend(new)
        return new

    def extend_inputs(self, inputs) -> None:
        """While its graph is being built: appends `inputs` (tensors of the graph made before
        this op) to its last input, a list (a forward loop's new loop variables)."""
        self.inputs = tuple(self.inputs) + tuple(inputs)
        self.input_arity = tuple(self.input_arity[:-1]) + (self.input_arity[-1] + len(inputs),)

    def subgraphs(self) -> list[tuple[str, Graph]]:
        """(attr name, graph) for every sub-graph attr (cond branches, loop bodies, calls)."""
        return [(k, v) for k, v in self.attrs.items() if isinstance(v, Graph)]

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"


class Graph(Collections):
    """A dataflow graph of Operations."""

    def __init__(self, name: str = "graph", outer_graph: Graph | None = None):
        self.name = name
        self.outer_graph = outer_graph
        self._ops: list[Operation] = []
        self._by_name: dict[str, Operation] = {}
        self._name_counts: dict[str, int] = {}
        self._scope = ""
        self._control_stack: list[list[Operation]] = []
        self.seed = None
        self.marks: frozenset[str] = frozenset()   # what passes marked it with (marks.py)

    building_function = False   # a tf.function's graph builds one; a TF1 `tf.Graph()` does not

    # --- building ----------------------------------------------------------------------------
    def unique_name(self, name: str, mark_as_used: bool = True) -> str:
        """`name` in the current scope, or `name_1`, `name_2`, ... (case-insensitive). A name
        ending in "/" is a scope's own name (TensorFlow's convention): used as it is, without
        the "/", for the op that stands for the whole scope (`add_1/` -> `add_1`)."""
        if name.endswith("/"):
            return name[:-1]
        if self._scope:
            name = f"{self._scope}{name}"
        key = name.lower()
        i = self._name_counts.get(key, 0)
        if mark_as_used:
            self._name_counts[key] = i + 1
        if i > 0:
            base = key
            while key in self._name_counts:
                key = f"{base}_{i}"
                i += 1
            if mark_as_used:
                self._name_counts[key] = 1
            name = f"{name}_{i - 1}"
        return name

    def add_operation(self, op_def, name: str, inputs, input_arity, attrs, output_types,
                      control_inputs=(), source=None) -> Operation:
        op = Operation(self, op_def, name, inputs, input_arity, attrs, output_types,
                       control_inputs, source)
        self._ops.append(op)
        self._by_name[name] = op
        return op

    def copy_operation(self, op: Operation, name: str, inputs, control_inputs,
                       attrs: dict | None = None) -> Operation:
        """A copy of `op` (of this or another graph) in this graph: same record, attrs (or
        `attrs`), output types, source and in-place mark, reading `inputs` (tensors of this
        graph) after `control_inputs`. `name` must be unique here (see `unique_name`)."""
        if attrs is not None:
            new = self.add_operation(op.op_def, name, inputs, op.input_arity, dict(attrs),
                                     [t.tensor_type for t in op.outputs], control_inputs,
                                     op.source)
        else:   # the same attrs: the kernel's share of them and the output types carry over
            new = Operation.__new__(Operation)
            new.graph, new.op_def, new.name = self, op.op_def, name
            new.inputs, new.input_arity = tuple(inputs), op.input_arity
            new.attrs, new.kernel_attrs = dict(op.attrs), op.kernel_attrs
            new.control_inputs, new.source = list(control_inputs), op.source
            new.outputs = [t.copy_to(new) for t in op.outputs]
            self._ops.append(new)
            self._by_name[name] = new
        new.inplace_input = op.inplace_input
        return new

    def move_before(self, ops, anchor: Operation) -> None:
        """While the graph is being built: moves `ops` (just made, reading only constants: their
        control inputs are dropped) to come right before `anchor`, which may then read them.
        Autodiff gives a forward loop the initial values of new loop variables."""
        ids = {id(op) for op in ops}
        rest = [op for op in self._ops if id(op) not in ids]
        at = next(i for i, op in enumerate(rest) if op is anchor)
        for op in ops:
            op.control_inputs = []
        self._ops = rest[:at] + list(ops) + rest[at:]

    def remove_operations(self, ops) -> None:
        """Takes `ops` out of the graph. No remaining op may read them (a pass removes ops it
        made and then replaced, or constants nothing reads any more)."""
        ids = {id(op) for op in ops}
        if not ids:
            return
        self._ops = [op for op in self._ops if id(op) not in ids]
        self._by_name = {op.name: op for op in self._ops}

    def release_name(self, name: str) -> None:
        """Makes `name` free again after the op that took it was removed (only when no
        numbered variant `name_1` was handed out since)."""
        if self._name_counts.get(name.lower()) == 1:
            del self._name_counts[name.lower()]

    def relative_name(self, name: str) -> str:
        """`name` (of an op of this graph) as seen from the current scope: what to prefix the
        names of its parts with so that they land under it (`s/add` in scope `s/` -> `add`;
        the scope's own op `add_1` in scope `add_1/` -> "")."""
        scope = self._scope
        if scope == f"{name}/":
            return ""
        return name[len(scope):] if name.startswith(scope) else name

    def current_name_scope(self) -> str:
        """The scope ops created now go under ("" or ending in "/")."""
        return self._scope

    @contextlib.contextmanager
    def name_scope(self, name: str):
        """Ops created inside get `name/` prefixed to their names (made unique in the current
        scope); a name ending in "/" re-enters that exact scope, "" goes back to the top."""
        old = self._scope
        if not name or name.endswith("/"):
            self._scope = name or ""
        else:
            self._scope = f"{self.unique_name(name)}/"
        try:
            yield self._scope
        finally:
            self._scope = old

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        """Ops created inside run after `control_inputs` (tensors or operations)."""
        ops = []
        for c in control_inputs or ():
            c = getattr(c, "op", c)
            if isinstance(c, Operation):
                ops.append(c)
        self._control_stack.append(ops)
        try:
            yield
        finally:
            self._control_stack.pop()

    def current_control_inputs(self) -> list[Operation]:
        return [op for frame in self._control_stack for op in frame]

    def mark(self, name: str) -> None:
        """Marks the graph with `name`, one of the declared `marks.GRAPH_MARKS`."""
        self.marks = self.marks | {check_mark(name)}

    def has_mark(self, name: str) -> bool:
        return name in self.marks

    # --- inspection ----------------------------------------------------------------------------
    def get_operations(self) -> list[Operation]:
        return list(self._ops)

    def get_operation_by_name(self, name: str) -> Operation:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"The name '{name}' refers to an Operation not in the graph.") from None

    def get_tensor_by_name(self, name: str) -> SymbolicTensor:
        m = re.fullmatch(r"(.+):(\d+)", name)
        if not m:
            raise ValueError(f"The name '{name}' looks like an (invalid) Operation name, not a "
                             "Tensor. Tensor names must be of the form '<op_name>:<output_index>'.")
        op = self.get_operation_by_name(m.group(1))
        index = int(m.group(2))
        if index >= len(op.outputs):
            raise KeyError(f"The name '{name}' refers to a Tensor which does not exist. The "
                           f"operation, '{op.name}', exists but only has {len(op.outputs)} "
                           "outputs.")
        return op.outputs[index]

    @property
    def operations(self) -> list[Operation]:
        return self._ops

    def __len__(self):
        return len(self._ops)

    def as_graph_def(self, add_shapes: bool = False):
        from .graph_def import graph_to_graph_def
        return graph_to_graph_def(self)

    def to_text(self) -> str:
        from .printer import graph_text
        return graph_text(self)

    def __str__(self):
        return self.to_text()

    def to_dot(self, rankdir: str = "TB") -> str:
        """The graph in Graphviz's DOT language (sub-graphs as clusters)."""
        from .dot import graph_to_dot
        return graph_to_dot(self, rankdir=rankdir)

    def to_image(self, path, format: str | None = None, rankdir: str = "TB") -> str:  # noqa: A002
        """Writes an SVG/PNG/PDF picture of the graph to `path` (the `graphviz` extra)."""
        from .dot import write_image
        return write_image(self, path, format, rankdir=rankdir)

    def _repr_svg_(self):
        """Notebooks show the graph as a picture when the `graphviz` extra is installed."""
        from .dot import render
        try:
            return render(self, "svg").decode("utf-8")
        except (ImportError, RuntimeError):
            return None

    def as_default(self):
        """`with graph.as_default() as g:` builds ops into this graph `g` (TensorFlow 1 style)."""
        from .building import DefaultGraphScope, GraphContext
        return DefaultGraphScope(GraphContext(self))

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r} with {len(self._ops)} ops>"


class FuncGraph(Graph):
    """The graph of a traced function: placeholders for inputs, outputs, and captures.

    A capture is a value from outside the graph (an eager tensor, a Variable's handle, or a
    tensor of an enclosing graph) that the graph reads through a placeholder.
    """

    def __init__(self, name: str, outer_graph: Graph | None = None):
        super().__init__(name, outer_graph)
        self.inputs: list[SymbolicTensor] = []
        self.outputs: list[SymbolicTensor] = []
        self.structured_outputs = None
        self.structured_input_signature = None
        # key -> (external value, placeholder); external values are eager values/handles for a
        # top-level graph, or symbolic tensors of `outer_graph` for a nested one.
        self.captures: dict = {}
        # id(handle) -> (handle, placeholder) while the trace runs: a Variable passed as an
        # argument reaches the function as itself, and reading it reads its argument placeholder
        self.variable_arguments: dict = {}
        self.variables: list = []
        self.auto_control_deps = True
        self.copied_from: FuncGraph | None = None   # the graph this is a copy of (`copy`)

    def copy(self, deep: bool = False) -> tuple[FuncGraph, dict]:
        """A copy with operations of its own (same names and attrs; the same sub-graphs, or,
        `deep`, copies of them all the way down), and the map {id(tensor of this graph): its
        copy}. Autodiff extends a copy's outputs, never the traced function's own graph."""
        new = FuncGraph(self.name, self.outer_graph)
        new._name_counts = dict(self._name_counts)
        new.seed = self.seed
        tensors, ops = {}, {}
        for op in self._ops:
            attrs = {k: v.copy(deep=True)[0] if isinstance(v, FuncGraph) else v
                     for k, v in op.attrs.items()} if deep and op.subgraphs() else None
            copied = new.copy_operation(op, op.name, [tensors[id(t)] for t in op.inputs],
                                        [ops[id(c)] for c in op.control_inputs], attrs)
            ops[id(op)] = copied
            tensors.update((id(a), b) for a, b in zip(op.outputs, copied.outputs))
        new.inputs = [tensors[id(t)] for t in self.inputs]
        new.outputs = [tensors[id(t)] for t in self.outputs]
        new.captures = {k: (ext, tensors[id(ph)]) for k, (ext, ph) in self.captures.items()}
        new.structured_outputs = self.structured_outputs
        new.structured_input_signature = self.structured_input_signature
        new.variables = list(self.variables)
        new.auto_control_deps = self.auto_control_deps
        new.copied_from = self
        return new, tensors

    building_function = True   # a traced function's graph

    @property
    def capture_placeholders(self) -> list[SymbolicTensor]:
        return [ph for _, ph in self.captures.values()]

    @property
    def external_captures(self) -> list:
        return [value for value, _ in self.captures.values()]

    def placeholder(self, tensor_type: TensorType, name: str, user_name: str | None = None):
        attrs = {"dtype": tensor_type.dtype, "shape": tensor_type.shape}
        if user_name is not None:
            attrs["_user_specified_name"] = user_name
        op = self.add_operation(placeholder_op, self.unique_name(name), (), (), attrs,
                                [tensor_type])
        return op.outputs[0]
