"""GraphDef: a graph as TensorFlow's protobuf messages, printed in protobuf text format.

`graph.as_graph_def()` returns a `GraphDef` whose `node` entries have `name`, `op`, `input` and
`attr`, with sub-graphs (cond branches, loop bodies, called functions) in `library.function`.
`str()` of it is the text format the guides print. The classes are plain Python; the
TensorBoard exporter turns them into real protobuf messages.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from .graph import Graph

__all__ = ["GraphDef", "NodeDef", "AttrValue", "FunctionDef", "graph_to_graph_def",
           "function_library", "function_def", "datatype_name"]

PRODUCER_VERSION = 1286
_SHAPE_ATTRS = {"shape", "output_shapes", "_output_shapes", "element_shape"}


def datatype_name(dtype) -> str:
    """TensorFlow's DataType enum name of `dtype`: "DT_FLOAT" for tf.float32."""
    names = {d.float32: "FLOAT", d.float64: "DOUBLE", d.float16: "HALF", d.bfloat16: "BFLOAT16"}
    return "DT_" + names.get(dtype, dtype.name.upper())


def _quote(text) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    out = []
    for b in data:
        c = chr(b)
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append(f"\\{b:03o}")
    return '"' + "".join(out) + '"'


class _Message:
    """A protobuf-like message: fields in order, printed in text format."""

    def _fields(self) -> list[tuple[str, object]]:  # pragma: no cover - subclasses define it
        raise NotImplementedError

    def _lines(self, indent: int) -> list[str]:
        pad = "  " * indent
        lines = []
        for key, value in self._fields():
            if isinstance(value, _Message):
                lines.append(f"{pad}{key} {{")
                lines.extend(value._lines(indent + 1))
                lines.append(f"{pad}}}")
            else:
                lines.append(f"{pad}{key}: {value}")
        return lines

    def __str__(self):
        return "\n".join(self._lines(0)) + "\n"


class _Raw(_Message):
    def __init__(self, fields):
        self.fields = fields

    def _fields(self):
        return self.fields


def _shape_message(shape) -> _Raw:
    if shape is None:
        return _Raw([("unknown_rank", "true")])
    return _Raw([("dim", _Raw([("size", -1 if s is None else int(s))])) for s in shape])


def _tensor_message(value) -> _Raw:
    arr = np.asarray(value)
    dtype = d.NUMPY_TO_DTYPE[arr.dtype]
    fields = [("dtype", datatype_name(dtype)), ("tensor_shape", _shape_message(arr.shape))]
    flat = arr.reshape(-1)
    if flat.size and all(v == flat[0] for v in flat[:64]) and (flat == flat[0]).all():
        v = flat[0]
        if dtype is d.string:
            fields.append(("string_val", _quote(v)))
        elif dtype is d.bool:
            fields.append(("bool_val", "true" if v else "false"))
        elif dtype.is_floating:
            key = "double_val" if dtype is d.float64 else ("half_val" if dtype is d.float16
                                                          else "float_val")
            fields.append((key, repr(float(v)) if key != "half_val" else
                           int(np.asarray(v, np.float16).view(np.uint16))))
        elif dtype.is_complex:
            fields.append(("dcomplex_val" if dtype is d.complex128 else "scomplex_val",
                           repr(float(v.real))))
            fields.append(("dcomplex_val" if dtype is d.complex128 else "scomplex_val",
                           repr(float(v.imag))))
        elif dtype in (d.int64,):
            fields.append(("int64_val", int(v)))
        elif dtype in (d.uint64, d.uint32):
            fields.append(("uint64_val" if dtype is d.uint64 else "uint32_val", int(v)))
        else:
            fields.append(("int_val", int(v)))
    elif flat.size:
        if dtype is d.string:
            fields.extend(("string_val", _quote(v)) for v in flat)
        else:
            fields.append(("tensor_content", _quote(arr.astype(arr.dtype.newbyteorder("<"))
                                                    .tobytes())))
    return _Raw(fields)


class AttrValue(_Message):
    """One attr value (`type`, `shape`, `tensor`, `s`, `i`, `f`, `b`, `list` or `func`)."""

    def __init__(self, key: str, value):
        self.key = key
        self.value = value
        self.kind, self.payload = _attr_payload(key, value)

    @property
    def type(self):
        return self.payload if self.kind == "type" else None

    def _fields(self):
        return [(self.kind, self.payload)]


def _attr_payload(key, value):
    if isinstance(value, d.DType):
        return "type", datatype_name(value)
    if isinstance(value, Graph):
        return "func", _Raw([("name", _quote(value.name))])
    if key in _SHAPE_ATTRS and (value is None or isinstance(value, tuple)) and not (
            value and isinstance(value[0], tuple)):
        return "shape", _shape_message(value)
    if isinstance(value, (np.ndarray, np.generic)):
        return "tensor", _tensor_message(value)
    if isinstance(value, (bool, np.bool_)):
        return "b", "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return "i", int(value)
    if isinstance(value, (float, np.floating)):
        return "f", repr(float(value))
    if isinstance(value, (str, bytes)):
        return "s", _quote(value)
    if isinstance(value, (list, tuple)):
        return "list", _Raw([_list_item(key, v) for v in value])
    if value is None:
        return "list", _Raw([])
    return "s", _quote(repr(value))


def _list_item(key, v):
    kind, payload = _attr_payload(key if not isinstance(v, tuple) else "shape", v)
    return kind, payload


class NodeDef(_Message):
    def __init__(self, name: str, op: str, inputs: list[str], attr: dict):
        self.name = name
        self.op = op
        self.input = inputs
        self.attr = attr  # key -> AttrValue

    def _fields(self):
        fields = [("name", _quote(self.name)), ("op", _quote(self.op))]
        fields += [("input", _quote(i)) for i in self.input]
        for key in sorted(self.attr):
            fields.append(("attr", _Raw([("key", _quote(key)), ("value", self.attr[key])])))
        return fields


class FunctionDef(_Message):
    def __init__(self, name, input_args, output_args, nodes, ret, arg_shapes):
        self.name = name
        self.input_args = input_args    # [(name, dtype)]
        self.output_args = output_args  # [(name, dtype)]
        self.node_def = nodes
        self.ret = ret                  # [(output name, "node:output:0")]
        self.arg_shapes = arg_shapes

    def _fields(self):
        sig = [("name", _quote(self.name))]
        sig += [("input_arg", _Raw([("name", _quote(n)), ("type", datatype_name(t))]))
                for n, t in self.input_args]
        sig += [("output_arg", _Raw([("name", _quote(n)), ("type", datatype_name(t))]))
                for n, t in self.output_args]
        fields = [("signature", _Raw(sig))]
        fields += [("node_def", n) for n in self.node_def]
        fields += [("ret", _Raw([("key", _quote(k)), ("value", _quote(v))])) for k, v in self.ret]
        fields.append(("attr", _Raw([("key", _quote("_construction_context")),
                                     ("value", _Raw([("s", _quote("kEagerRuntime"))]))])))
        for i, shape in enumerate(self.arg_shapes):
            shapes = _Raw([("list", _Raw([("shape", _shape_message(shape))]))])
            inner = _Raw([("attr", _Raw([("key", _quote("_output_shapes")), ("value", shapes)]))])
            fields.append(("arg_attr", _Raw([("key", i), ("value", inner)])))
        return fields


class GraphDef(_Message):
    def __init__(self, nodes: list[NodeDef], functions: list[FunctionDef]):
        self.node = nodes
        self.library = _Raw([("function", f) for f in functions])
        self.functions = functions

    def _fields(self):
        fields = [("node", n) for n in self.node]
        if self.functions:
            fields.append(("library", self.library))
        fields.append(("versions", _Raw([("producer", PRODUCER_VERSION), ("min_consumer", 12)])))
        return fields


def _input_name(tensor, inside_function: bool, placeholders: dict) -> str:
    op = tensor.op
    if inside_function:
        if op in placeholders:
            return placeholders[op]
        return f"{op.name}:output:{tensor.value_index}"
    return op.name if tensor.value_index == 0 else f"{op.name}:{tensor.value_index}"


def _node(op, inside_function: bool, placeholders: dict, names: dict) -> NodeDef:
    inputs = [_input_name(t, inside_function, placeholders) for t in op.inputs]
    inputs += [f"^{c.name}" for c in op.control_inputs]
    attr = {}
    for k, v in op.attrs.items():
        attr[k] = AttrValue(k, v)
        if isinstance(v, Graph):  # the function's name in this GraphDef's library
            attr[k].payload = _Raw([("name", _quote(names[id(v)]))])
    return NodeDef(op.name, op.type, inputs, attr)


def function_library(graph: Graph) -> tuple[dict, dict]:
    """(name -> sub-graph, id(sub-graph) -> name) for every sub-graph at any depth, callees
    first. Distinct graphs with one name (a function traced for two signatures) get distinct
    names: `inner`, `inner_1`, ..."""
    graphs: dict = {}
    names: dict = {}

    def walk(g):
        for op in g.operations:
            for _, sub in op.subgraphs():
                if id(sub) in names:
                    continue
                name, i = sub.name, 1
                while name in graphs:
                    name, i = f"{sub.name}_{i}", i + 1
                names[id(sub)] = name
                graphs[name] = None  # reserves the name while its callees are collected
                walk(sub)
                del graphs[name]
                graphs[name] = sub  # listed after its callees
    walk(graph)
    return graphs, names


def _arg_name(ph) -> str:
    return ph.op.name.replace("/", "_").lower()


def function_def(graph, name: str, names: dict) -> FunctionDef:
    """`graph` as a FunctionDef named `name`: its inputs then its captures' placeholders are
    the arguments; `names` maps id(sub-graph) -> its name in the library."""
    placeholders = {}
    args = []
    for t in list(getattr(graph, "inputs", [])) + list(getattr(graph, "capture_placeholders",
                                                                  [])):
        if t.op not in placeholders:
            placeholders[t.op] = _arg_name(t)
            args.append(t)
    nodes = [_node(op, True, placeholders, names) for op in graph.operations
             if op not in placeholders]
    outputs = list(getattr(graph, "outputs", []))
    out_names = [_arg_name(t) if "placeholder" not in t.op.op_def.flags else f"output_{i}"
                 for i, t in enumerate(outputs)]
    ret = [(n, _input_name(t, True, placeholders)) for n, t in zip(out_names, outputs)]
    return FunctionDef(name, [(placeholders[t.op], t.dtype) for t in args],
                       [(n, t.dtype) for n, t in zip(out_names, outputs)], nodes, ret,
                       [t._shape for t in args])


def graph_to_graph_def(graph: Graph) -> GraphDef:
    graphs, names = function_library(graph)
    functions = [function_def(sub, name, names) for name, sub in graphs.items()]
    nodes = [_node(op, False, {}, names) for op in graph.operations]
    return GraphDef(nodes, functions)
