"""`tf.saved_model.load`: a saved directory back to objects, functions and Variables.

Nothing in the directory is trusted. The order is: checksums, then the JSON document (size
limited, parsed without any object hooks), then each section validated as it is decoded:
variables (arrays checked against their declarations before allocation), graphs (op types
against the registry, attrs, type inference, the graph verifier), concrete functions, the
object tree, signatures. Any problem is a `SavedDataError` naming the file and the field.
"""

from __future__ import annotations

import os

import numpy as np

from ... import dtypes as d
from ...framework.tensor import EagerTensor
from ...framework.variables import ResourceHandle, Variable, variable_name
from ...ops.convert import to_array
from ...shapes import TensorSpec, as_shape_tuple, shapes_compatible
from ..npz_arrays import check_meta, read_npz
from ..safe_files import file_sha256, read_json
from ..saved_data_error import SavedDataError
from .function_codec import decode_concrete
from .graph_codec import decode_graph
from .restored_functions import RestoredFunction, SignatureFunction
from .saving import FORMAT, FORMAT_VERSION
from .value_codec import Decoder

__all__ = ["load", "RestoredObject", "SignatureMap"]

MAX_OBJECTS = 1_000_000
_FILES = ("saved_model.json", "variables.npz", "constants.npz")


class RestoredObject:
    """An object of a loaded model: its saved attributes, and `variables` /
    `trainable_variables` (every Variable under it) unless an attribute has those names."""

    def __call__(self, *args, **kwargs):
        fn = vars(self).get("__call__")
        if fn is None:
            raise TypeError("This loaded object has no saved __call__ function.")
        return fn(*args, **kwargs)

    def __repr__(self):
        names = ", ".join(k for k in vars(self) if not k.startswith("_"))
        return f"<RestoredObject with attributes {names}>"


class SignatureMap(dict):
    """`loaded.signatures`: signature name -> a function of keyword tensors returning a dict."""

    def __repr__(self):
        return f"_SignatureMap({dict.__repr__(self)})"


def _check_files(export_dir) -> None:
    path = os.path.join(export_dir, "checksum.json")
    if not os.path.isdir(export_dir):
        raise SavedDataError(export_dir, "", "no such directory (or not a directory)")
    doc = read_json(path, 1 << 16)
    dec = Decoder(path)
    dec.obj(doc, "", ("format", "version", "sha256"))
    if doc["format"] != FORMAT:
        dec.fail("format", f"not a tracegraph saved model ({doc['format']!r:.60})")
    if doc["version"] != FORMAT_VERSION:
        dec.fail("version", f"format version {doc['version']!r:.20} is not supported (this "
                 f"tracegraph reads version {FORMAT_VERSION})")
    sums = dec.obj(doc["sha256"], "sha256", _FILES)
    for name in _FILES:
        try:
            actual = file_sha256(os.path.join(export_dir, name))
        except OSError as e:
            raise SavedDataError(os.path.join(export_dir, name), "", str(e)) from None
        if actual != sums[name]:
            raise SavedDataError(os.path.join(export_dir, name), "",
                                 "checksum mismatch: the file is corrupted or was modified")


class _Loader:
    def __init__(self, export_dir):
        self.dir = export_dir
        self.file = os.path.join(export_dir, "saved_model.json")
        self.dec = Decoder(self.file)

    def run(self):
        _check_files(self.dir)
        doc = read_json(self.file)
        dec = self.dec
        dec.obj(doc, "", ("format", "version", "objects", "graphs", "functions", "signatures",
                          "constants"))
        if doc["format"] != FORMAT:
            dec.fail("format", "not a tracegraph saved model")
        if doc["version"] != FORMAT_VERSION:
            dec.fail("version", f"format version {doc['version']!r:.20} is not supported")
        self.nodes = dec.list(doc["objects"], "objects", MAX_OBJECTS)
        if not self.nodes:
            dec.fail("objects", "the object tree is empty")
        self.handles = self._variables()
        dec.handles = {i: v.handle for i, v in self.handles.items()}
        constants = self._constants(doc["constants"])
        dec.constants = constants
        graphs = dec.graphs = []
        for i, g in enumerate(dec.list(doc["graphs"], "graphs")):
            graphs.append(decode_graph(dec, g, f"graphs[{i}]", self._external))
        self.functions = []
        for i, f in enumerate(dec.list(doc["functions"], "functions")):
            self.functions.append(decode_concrete(dec, f, f"functions[{i}]", graphs))
        root = self._objects()
        root_obj = root[0]
        if isinstance(root_obj, RestoredObject):
            root_obj.signatures = self._signatures(doc["signatures"])
        return root_obj

    def _external(self, value, field):
        if isinstance(value, ResourceHandle):
            return value
        if isinstance(value, np.ndarray):
            return EagerTensor(value)
        self.dec.fail(field, "a capture must be a variable or an array")

    # --- variables and constants -------------------------------------------------------------
    def _variables(self) -> dict[int, Variable]:
        dec = self.dec
        declared, specs = {}, {}
        for i, node in enumerate(self.nodes):
            where = f"objects[{i}]"
            if not isinstance(node, dict) or node.get("kind") != "variable":
                continue
            dec.obj(node, where, ("kind", "name", "dtype", "trainable", "shape", "value_shape",
                                  "array"))
            dtype, value_shape = check_meta({"dtype": node["dtype"],
                                             "shape": node["value_shape"]}, self.file, where)
            shape = dec.shape(node["shape"], f"{where}.shape")
            if not shapes_compatible(shape, value_shape):
                dec.fail(f"{where}.shape", "does not match the stored value's shape")
            name = dec.str(node["array"], f"{where}.array")
            if name != f"v{i}":
                dec.fail(f"{where}.array", f"expected 'v{i}'")
            dec.str(node["name"], f"{where}.name")
            dec.bool(node["trainable"], f"{where}.trainable")
            declared[name] = (dtype, value_shape)
            specs[i] = (dtype, shape)
        arrays = read_npz(os.path.join(self.dir, "variables.npz"), declared)
        out = {}
        for i, (dtype, shape) in specs.items():
            node = self.nodes[i]
            value = to_array(arrays[f"v{i}"], dtype if dtype is not d.bfloat16 else None)
            handle = ResourceHandle(
                value, dtype if dtype is d.bfloat16 else d.NUMPY_TO_DTYPE[value.dtype],
                None if shape is None else as_shape_tuple(shape), variable_name(node["name"]))
            out[i] = Variable.from_handle(handle, trainable=node["trainable"])
        return out

    def _constants(self, v) -> dict:
        dec = self.dec
        table = dec.obj(v, "constants", (), tuple(v) if isinstance(v, dict) else ())
        declared = {}
        for name, meta in table.items():
            if not name.isidentifier():
                dec.fail(f"constants.{name!r:.40}", "bad constant name")
            declared[name] = check_meta(meta, self.file, f"constants.{name}")
        return read_npz(os.path.join(self.dir, "constants.npz"), declared)

    # --- the object tree ---------------------------------------------------------------------
    def _objects(self) -> list:
        dec = self.dec
        n = len(self.nodes)
        made: list = [None] * n
        kinds = []
        for i, node in enumerate(self.nodes):
            where = f"objects[{i}]"
            if not isinstance(node, dict):
                dec.fail(where, "expected an object")
            kind = node.get("kind")
            kinds.append(kind)
            if kind == "variable":
                made[i] = self.handles[i]
            elif kind == "function":
                dec.obj(node, where, ("kind", "name", "concrete"))
                idx = dec.list(node["concrete"], f"{where}.concrete", len(self.functions))
                fns = [self.functions[dec.int(j, f"{where}.concrete[{k}]", 0,
                                              len(self.functions))] for k, j in enumerate(idx)]
                if not fns:
                    dec.fail(f"{where}.concrete", "a function needs a concrete function")
                if len({str(cf.python_signature) for cf, _ in fns}) > 1:
                    dec.fail(f"{where}.concrete", "the concrete functions of a function must "
                             "have the same parameters")
                made[i] = RestoredFunction(dec.str(node["name"], f"{where}.name"),
                                           [cf for cf, _ in fns], fns[0][1])
            elif kind in ("object", "list", "dict", "tuple"):
                dec.obj(node, where, ("kind", "children"))
                made[i] = RestoredObject() if kind == "object" else [] if kind != "dict" else {}
            else:
                dec.fail(f"{where}.kind", f"unknown kind {kind!r:.40}")
        for i, node in enumerate(self.nodes):
            if kinds[i] not in ("object", "list", "dict", "tuple"):
                continue
            where = f"objects[{i}].children"
            kids = dec.list(node["children"], where, 100_000)
            for k, pair in enumerate(kids):
                if not isinstance(pair, list) or len(pair) != 2:
                    dec.fail(f"{where}[{k}]", "expected [name, object id]")
                name = dec.str(pair[0], f"{where}[{k}][0]")
                child = dec.int(pair[1], f"{where}[{k}][1]", 0, n)
                if kinds[child] == "tuple":
                    dec.fail(f"{where}[{k}][1]", "tuples are restored as lists")
                self._attach(made[i], kinds[i], name, made[child], f"{where}[{k}]")
        for i, obj in enumerate(made):
            if kinds[i] == "tuple":
                made[i] = tuple(obj)
        for obj in made:
            if isinstance(obj, RestoredObject):
                _set_variable_lists(obj)
        return made

    def _attach(self, parent, kind, name, child, field):
        if kind in ("list", "tuple"):
            if name != str(len(parent)):
                self.dec.fail(field, "list children must be numbered 0, 1, ... in order")
            parent.append(child)
        elif kind == "dict":
            parent[name] = child
        else:
            if not name.isidentifier() or name == "signatures" or (
                    name.startswith("__") and name.endswith("__") and name != "__call__"):
                self.dec.fail(field, f"not a valid attribute name: {name!r:.60}")
            setattr(parent, name, child)

    # --- signatures --------------------------------------------------------------------------
    def _signatures(self, v) -> SignatureMap:
        dec = self.dec
        table = dec.obj(v, "signatures", (), tuple(v) if isinstance(v, dict) else ())
        out = SignatureMap()
        for name, entry in table.items():
            where = f"signatures.{name}"
            dec.obj(entry, where, ("function", "inputs", "outputs"))
            cf, _ = self.functions[dec.int(entry["function"], f"{where}.function", 0,
                                           len(self.functions))]
            inputs = []
            for i, pair in enumerate(dec.list(entry["inputs"], f"{where}.inputs")):
                if not isinstance(pair, list) or len(pair) != 2:
                    dec.fail(f"{where}.inputs[{i}]", "expected [keyword, spec]")
                spec = dec.value(pair[1], f"{where}.inputs[{i}][1]")
                key = dec.str(pair[0], f"{where}.inputs[{i}][0]")
                if not isinstance(spec, TensorSpec):
                    dec.fail(f"{where}.inputs[{i}][1]", "expected a TensorSpec")
                inputs.append((key, spec))
            paths = [s for _, s in cf.input_paths]
            if len(paths) != len(inputs) or any(
                    a.dtype != b.dtype or not shapes_compatible(a.shape._dims, b.shape._dims)
                    for (_, a), b in zip(inputs, paths)):
                dec.fail(f"{where}.inputs", "do not match the function's inputs")
            from ...graph.tensor import SymbolicTensor
            from ...nest import flatten
            if not all(isinstance(t, SymbolicTensor) for t in flatten(cf.structured_outputs)):
                dec.fail(f"{where}.function", "a signature function must return tensors only")
            n_out = len(cf.graph.outputs)
            outputs = []
            for i, pair in enumerate(dec.list(entry["outputs"], f"{where}.outputs")):
                if not isinstance(pair, list) or len(pair) != 2:
                    dec.fail(f"{where}.outputs[{i}]", "expected [key, output index]")
                outputs.append((dec.str(pair[0], f"{where}.outputs[{i}][0]"),
                                dec.int(pair[1], f"{where}.outputs[{i}][1]", 0, n_out)))
            out[name] = SignatureFunction(name, cf, inputs, outputs)
        return out


def _set_variable_lists(obj) -> None:
    found, seen, stack = [], set(), [obj]
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, Variable):
            found.append(o)
        elif isinstance(o, RestoredObject):
            stack.extend(reversed([v for k, v in vars(o).items()
                                   if k not in ("variables", "trainable_variables",
                                                "signatures")]))
        elif isinstance(o, (list, tuple)):
            stack.extend(reversed(o))
        elif isinstance(o, dict):
            stack.extend(reversed([o[k] for k in sorted(o)]))
    attrs = vars(obj)
    attrs.setdefault("variables", tuple(found))
    attrs.setdefault("trainable_variables", tuple(v for v in found if v.trainable))


def load(export_dir, tags=None, options=None):
    """`tf.saved_model.load`: the saved object tree with callable functions."""
    return _Loader(os.fspath(export_dir)).run()
