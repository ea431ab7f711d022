"""Graphs as JSON, and back: the one module of the native format that touches the graph IR.

A saved model holds a table of graphs; a graph refers to its sub-graphs (cond branches, loop
bodies, called functions) by their index in the table, and a sub-graph always comes before the
graphs that use it, so decoding never recurses and a cycle cannot be written. A graph is

    {"name", "ops": [op, ...], "inputs": [[op, output], ...], "outputs": [...],
     "captures": [{"placeholder": [op, 0], "value": tagged value}]}

and an op is

    {"name", "op": registry name, "type": TensorFlow type, "inputs": [[op, output], ...],
     "arity": [null | n, ...], "attrs": {key: tagged value}, "control": [op, ...],
     "outputs": [{"dtype", "shape", "value"?}], "source": [file, line, function]?}

where `[op, output]` names an earlier op of the same graph by position. Decoding checks the op
type against the registry, attr keys against the record, attr values' types, input types
against the record (the graph verifier), and re-runs type inference, which must agree with the
declared output types.
"""

from __future__ import annotations

import re

import numpy as np

from ... import dtypes as d
from ...framework.tensor import EagerTensor
from ...framework.variables import ResourceHandle
from ...graph.graph import FuncGraph, Graph, group_values
from ...graph.source import SourceLocation
from ...graph.verify import GraphVerificationError, verify
from ...ops.array import placeholder_op
from ...ops.registry import get_op
from ...shapes import TensorType, shapes_compatible
from ...trace.keys import VariableSpec
from .value_codec import Decoder, Encoder, UnsaveableError

__all__ = ["collect_graphs", "encode_graph", "decode_graph", "graph_variables",
           "UNSAVEABLE_FLAGS", "safe_name"]

# Ops whose records carry one of these flags run Python code that is not part of the graph
# (py_function and friends): a saved graph cannot hold them.
UNSAVEABLE_FLAGS = frozenset({"calls_python", "py_function", "python_callback", "unsaveable"})
MAX_OPS = 1_000_000
MAX_GRAPH_DEPTH = 50     # cond inside while inside a call ...: levels of sub-graphs
MAX_NAME = 1000


def collect_graphs(roots: list[Graph]) -> list[Graph]:
    """Every graph reachable from `roots` (sub-graphs included), sub-graphs first."""
    order: list[Graph] = []
    seen: set[int] = set()

    def visit(graph):
        stack = [(graph, False)]
        while stack:
            g, expanded = stack.pop()
            if id(g) in seen:
                continue
            if expanded:
                seen.add(id(g))
                order.append(g)
                continue
            stack.append((g, True))
            for op in g.operations:
                for _, sub in op.subgraphs():
                    if id(sub) not in seen:
                        stack.append((sub, False))
    for root in roots:
        visit(root)
    return order


def graph_variables(graphs: list[Graph]) -> list[ResourceHandle]:
    """The Variable handles the graphs capture or know as constant resource values."""
    found: dict[int, ResourceHandle] = {}
    for g in graphs:
        for external, _ in getattr(g, "captures", {}).values():
            if isinstance(external, ResourceHandle):
                found.setdefault(id(external), external)
        for op in g.operations:
            for t in op.outputs:
                if isinstance(t.known_value, ResourceHandle):
                    found.setdefault(id(t.known_value), t.known_value)
    return list(found.values())


# ---- encoding ----------------------------------------------------------------------------------

def _tensor_ref(t, index) -> list:
    return [index[id(t.op)], t.value_index]


def _output_type(t, enc: Encoder) -> dict:
    out = {"dtype": t.dtype.name, "shape": None if t.dims is None else
           [None if s is None else int(s) for s in t.dims]}
    value = t.known_value
    if isinstance(value, (ResourceHandle, VariableSpec)) or (
            isinstance(value, np.ndarray) and value.size <= 1000 and t.dtype is not d.resource):
        try:
            out["value"] = enc.value(value)
        except UnsaveableError:
            pass
    return out


def _check_saveable(op, fn_name: str) -> None:
    bad = op.op_def.flags & UNSAVEABLE_FLAGS
    if bad:
        raise ValueError(
            f"Cannot save function '{fn_name}': op '{op.name}' ({op.type}) runs Python code "
            f"({', '.join(sorted(bad))}), which a saved graph cannot hold (it would run "
            "without the Python source). Replace it with TensorFlow ops, or save a function "
            "that does not call it.")


def encode_graph(graph: Graph, enc: Encoder, fn_name: str, sources: bool = False) -> dict:
    """`sources`: keep each op's user source location (TensorFlow's `save_debug_info`)."""
    index = {id(op): i for i, op in enumerate(graph.operations)}
    ops = []
    if not safe_name(graph.name):
        raise ValueError(f"Cannot save function '{fn_name}': graph name {graph.name!r} "
                         "cannot be stored (use a name made of letters, digits, _ . / -).")
    for op in graph.operations:
        _check_saveable(op, fn_name)
        if not safe_name(op.name):
            raise ValueError(f"Cannot save function '{fn_name}': op name {op.name!r} cannot "
                             "be stored (use a name made of letters, digits, _ . / -).")
        attrs = {}
        for key, value in op.attrs.items():
            try:
                attrs[key] = enc.value(value)
            except UnsaveableError as e:
                raise ValueError(f"Cannot save function '{fn_name}': attr '{key}' of op "
                                 f"'{op.name}' ({op.type}): {e}.") from None
        entry = {"name": op.name, "op": op.op_def.name, "type": op.type,
                 "inputs": [_tensor_ref(t, index) for t in op.inputs],
                 "arity": list(op.input_arity), "attrs": attrs,
                 "control": [index[id(c)] for c in op.control_inputs],
                 "outputs": [_output_type(t, enc) for t in op.outputs]}
        if sources and op.source is not None:
            entry["source"] = [str(op.source.filename), int(op.source.lineno),
                               str(op.source.function)]
        ops.append(entry)
    captures = []
    for external, ph in getattr(graph, "captures", {}).values():
        if isinstance(external, ResourceHandle):
            if id(external) not in enc.variable_id:
                raise ValueError(
                    f"Cannot save function '{fn_name}': it captures the variable "
                    f"'{external.name}', which is not tracked by the saved object. Assign the "
                    "variable to an attribute of the object being saved.")
            value = enc.value(external)
        elif isinstance(external, EagerTensor):
            value = {"array": enc.array(external.known_value)}
        else:
            raise ValueError(f"Cannot save function '{fn_name}': graph '{graph.name}' captures "
                             f"{external!r:.80}, which is neither a tensor nor a variable.")
        captures.append({"placeholder": _tensor_ref(ph, index), "value": value})
    return {"name": graph.name, "ops": ops,
            "inputs": [_tensor_ref(t, index) for t in getattr(graph, "inputs", [])],
            "outputs": [_tensor_ref(t, index) for t in getattr(graph, "outputs", [])],
            "captures": captures}


# ---- decoding ----------------------------------------------------------------------------------

_OP_FIELDS = ("name", "op", "type", "inputs", "arity", "attrs", "control", "outputs")


def safe_name(name) -> bool:
    """Printable, bounded, and turned into a Python identifier by the code generator's rule
    (non-word characters become `_`), since generated code names values after ops."""
    return isinstance(name, str) and 0 < len(name) <= MAX_NAME and name.isprintable() and \
        ("_" + re.sub(r"\W", "_", name)).isidentifier()


def _name(dec: Decoder, v, field: str) -> str:
    name = dec.str(v, field)
    if not safe_name(name):
        dec.fail(field, f"not a valid name: {name!r:.80}")
    return name


def _ref(dec: Decoder, v, field: str, ops: list):
    if not isinstance(v, list) or len(v) != 2:
        dec.fail(field, "expected [op index, output index]")
    i = dec.int(v[0], f"{field}[0]", 0, len(ops))
    j = dec.int(v[1], f"{field}[1]", 0, len(ops[i].outputs))
    return ops[i].outputs[j]


def _decode_type(dec: Decoder, v, field: str) -> TensorType:
    dec.obj(v, field, ("dtype", "shape"), ("value",))
    dtype = dec.dtype(v["dtype"], f"{field}.dtype", allow_resource=True)
    shape = dec.shape(v["shape"], f"{field}.shape")
    value = dec.value(v["value"], f"{field}.value") if "value" in v else None
    if value is not None:
        if dtype is d.resource:
            if not isinstance(value, (ResourceHandle, VariableSpec)):
                dec.fail(f"{field}.value", "a resource's value must be a variable")
        elif not isinstance(value, np.ndarray) or value.shape != shape or \
                d.NUMPY_TO_DTYPE.get(value.dtype) is not (
                    d.float32 if dtype is d.bfloat16 else dtype):
            dec.fail(f"{field}.value", "known value does not match the declared dtype and "
                     "shape")
    return TensorType(dtype, shape, value)


def _same_kind(default, value) -> bool:
    """Whether `value` has the type of the record's default (None and REQUIRED defaults
    accept any saved value; type inference then checks it)."""
    if default is None or type(default).__name__ == "_Required":
        return True
    if isinstance(default, bool):
        return isinstance(value, (bool, np.bool_))
    if isinstance(default, int):
        return isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float, np.integer, np.floating)) and \
            not isinstance(value, bool)
    if isinstance(default, d.DType):
        return isinstance(value, d.DType)
    if isinstance(default, (str, bytes)):
        return isinstance(value, (str, bytes))
    if isinstance(default, (tuple, list)):
        return isinstance(value, (tuple, list, np.ndarray))
    return True


def _check_attrs(dec: Decoder, op_def, attrs: dict, field: str) -> None:
    for key, value in attrs.items():
        where = f"{field}.attrs.{key}"
        if key.startswith("_"):
            if not key.isidentifier():
                dec.fail(where, "not a valid attr name")
            continue
        if key in op_def.type_attrs:
            allowed = op_def.type_attrs[key].allowed | {d.resource}
            items = value if isinstance(value, tuple) else (value,)
            if not all(isinstance(t, d.DType) and t in allowed for t in items):
                dec.fail(where, f"not an allowed dtype for {op_def.tf_type}: {value!r:.80}")
        elif key not in op_def.attr_defaults:
            dec.fail(where, f"{op_def.tf_type} has no attr named {key!r:.60}")
        elif not _same_kind(op_def.attr_defaults[key], value):
            dec.fail(where, f"{op_def.tf_type} expects {type(op_def.attr_defaults[key]).__name__}"
                     f" for attr {key!r}, got {type(value).__name__}")
    for key in op_def.attr_defaults:
        if key not in attrs:
            dec.fail(f"{field}.attrs", f"attr {key!r} of {op_def.tf_type} is missing")


def _infer(dec: Decoder, op_def, inputs, arity, attrs, declared, field):
    """Runs the record's type inference on the decoded inputs; it must agree with `declared`."""
    grouped = group_values([t.tensor_type for t in inputs], arity)
    kernel_attrs = {k: v for k, v in attrs.items()
                    if k not in op_def.type_attrs and not k.startswith("_")}
    try:
        with np.errstate(all="ignore"):
            out = op_def.infer(*grouped, **kernel_attrs)
    except Exception as e:  # a hostile attr can make any inference function fail
        dec.fail(field, f"type inference of {op_def.tf_type} failed: {type(e).__name__}: "
                 f"{e!s:.200}")
    inferred = [out] if isinstance(out, TensorType) else list(out)
    if len(inferred) != len(declared):
        dec.fail(f"{field}.outputs", f"{len(declared)} outputs declared, {op_def.tf_type} "
                 f"has {len(inferred)}")
    for i, (got, want) in enumerate(zip(inferred, declared)):
        if not isinstance(got, TensorType) or not isinstance(got.dtype, d.DType) or not (
                got.shape is None or (isinstance(got.shape, tuple) and all(
                    s is None or type(s) is int for s in got.shape))):
            dec.fail(f"{field}.outputs[{i}]", f"{op_def.tf_type} inferred no valid type from "
                     "these attrs")
        if got.dtype is not want.dtype or not \
                shapes_compatible(got.shape, want.shape) or (
                    want.shape is None and got.shape is not None):
            dec.fail(f"{field}.outputs[{i}]", f"declared {want!r} but {op_def.tf_type} "
                     f"infers {got!r}")


def _decode_op(dec: Decoder, graph: FuncGraph, ops: list, v, field: str):
    dec.obj(v, field, _OP_FIELDS, ("source",))
    name = _name(dec, v["name"], f"{field}.name")
    try:
        graph.get_operation_by_name(name)
    except KeyError:
        pass
    else:
        dec.fail(f"{field}.name", f"duplicate op name {name!r:.80}")
    try:
        op_def = get_op(dec.str(v["op"], f"{field}.op"))
    except KeyError:
        dec.fail(f"{field}.op", f"unknown op {v['op']!r:.80}")
    if op_def.name != v["op"] or op_def.tf_type != v["type"]:
        dec.fail(f"{field}.type", f"op {v['op']!r:.60} has type {op_def.tf_type}, not "
                 f"{v['type']!r:.60}")
    if op_def.flags & UNSAVEABLE_FLAGS:
        dec.fail(f"{field}.op", f"{op_def.tf_type} runs Python code and cannot be loaded")
    inputs = [_ref(dec, t, f"{field}.inputs[{i}]", ops)
              for i, t in enumerate(dec.list(v["inputs"], f"{field}.inputs", 100_000))]
    arity = dec.list(v["arity"], f"{field}.arity", len(op_def.inputs))
    if len(arity) != len(op_def.inputs):
        dec.fail(f"{field}.arity", f"{op_def.tf_type} takes {len(op_def.inputs)} arguments")
    for i, (n, spec) in enumerate(zip(arity, op_def.inputs)):
        if (n is None) != (spec.list_kind is None):
            dec.fail(f"{field}.arity[{i}]", "list/non-list argument mismatch")
        if n is not None:
            dec.int(n, f"{field}.arity[{i}]")
    if sum(1 if n is None else n for n in arity) != len(inputs):
        dec.fail(f"{field}.arity", "does not match the number of inputs")
    raw_attrs = dec.obj(v["attrs"], f"{field}.attrs", (), tuple(v["attrs"])
                        if isinstance(v["attrs"], dict) else ())
    attrs = {k: dec.value(x, f"{field}.attrs.{k}") for k, x in raw_attrs.items()}
    _check_attrs(dec, op_def, attrs, field)
    control = [ops[dec.int(c, f"{field}.control[{i}]", 0, len(ops))]
               for i, c in enumerate(dec.list(v["control"], f"{field}.control", 100_000))]
    declared = [_decode_type(dec, t, f"{field}.outputs[{i}]")
                for i, t in enumerate(dec.list(v["outputs"], f"{field}.outputs", 100_000))]
    if op_def is placeholder_op:
        shape = attrs.get("shape")
        if len(declared) != 1 or attrs.get("dtype") is not declared[0].dtype or not (
                shape is None or type(shape) is tuple) or shape != declared[0].shape:
            dec.fail(f"{field}.outputs", "a placeholder's output must match its attrs")
    else:
        _infer(dec, op_def, inputs, arity, attrs, declared, field)
    source = None
    if "source" in v:
        s = dec.list(v["source"], f"{field}.source", 3)
        if len(s) != 3:
            dec.fail(f"{field}.source", "expected [file, line, function]")
        source = SourceLocation(_name(dec, s[0], f"{field}.source[0]"),
                                dec.int(s[1], f"{field}.source[1]"),
                                _name(dec, s[2], f"{field}.source[2]"))
    return graph.add_operation(op_def, name, inputs, arity, attrs, declared, control, source)


def decode_graph(dec: Decoder, v, field: str, externals) -> FuncGraph:
    """One graph of the table. `externals(value, field)` resolves a capture's outside value."""
    dec.obj(v, field, ("name", "ops", "inputs", "outputs", "captures"))
    graph = FuncGraph(_name(dec, v["name"], f"{field}.name"))
    ops: list = []
    for i, op in enumerate(dec.list(v["ops"], f"{field}.ops", MAX_OPS)):
        ops.append(_decode_op(dec, graph, ops, op, f"{field}.ops[{i}]"))
    graph.inputs = [_ref(dec, t, f"{field}.inputs[{i}]", ops)
                    for i, t in enumerate(dec.list(v["inputs"], f"{field}.inputs"))]
    graph.outputs = [_ref(dec, t, f"{field}.outputs[{i}]", ops)
                     for i, t in enumerate(dec.list(v["outputs"], f"{field}.outputs"))]
    for i, c in enumerate(dec.list(v["captures"], f"{field}.captures")):
        where = f"{field}.captures[{i}]"
        dec.obj(c, where, ("placeholder", "value"))
        ph = _ref(dec, c["placeholder"], f"{where}.placeholder", ops)
        if ph.op.op_def is not placeholder_op or any(ph is p for _, p in graph.captures.values()) \
                or any(ph is t for t in graph.inputs):
            dec.fail(f"{where}.placeholder", "must be a placeholder used once")
        value = externals(dec.value(c["value"], f"{where}.value"), f"{where}.value")
        if id(value) in graph.captures:
            dec.fail(f"{where}.value", "the same variable is captured twice")
        want = d.resource if isinstance(value, ResourceHandle) else value.dtype
        if want is not ph.dtype:
            dec.fail(f"{where}.value", f"a {want.name} value for a {ph.dtype.name} placeholder")
        graph.captures[id(value)] = (value, ph)
    for i, t in enumerate(graph.inputs):
        if t.op.op_def is not placeholder_op:
            dec.fail(f"{field}.inputs[{i}]", "graph inputs must be placeholders")
    depths = dec.__dict__.setdefault("graph_depths", {})
    depth = 1 + max((depths.get(id(sub), 0) for op in ops for _, sub in op.subgraphs()),
                    default=0)
    if depth > MAX_GRAPH_DEPTH:
        dec.fail(field, f"sub-graphs nested deeper than {MAX_GRAPH_DEPTH}")
    depths[id(graph)] = depth
    try:
        verify(graph)
    except (GraphVerificationError, TypeError, ValueError, AttributeError,
            RecursionError) as e:
        dec.fail(field, f"the graph is not well formed: {e}")
    return graph

