"""`tf.saved_model.load` of a SavedModel TensorFlow wrote: its objects, Variables, restored
`tf.function`s and signatures, running on tracegraph's optimizer and executors.

The object graph (`object_graph_def`) is rebuilt node by node: user objects become
`RestoredObject`s (TensorFlow's list, dict and tuple wrappers plain lists, dicts and tuples),
variables `tf.Variable`s holding the values of the `variables/` bundle, functions
`RestoredFunction`s dispatching among their concrete functions, bare concrete functions
`ConcreteFunction`s, and the root's `signatures` a map of serving signatures (keyword tensors
in, a dict out). A Variable's value is found as TensorFlow finds it: the bundle's own object
graph is walked from the root alongside the saved one, child by child.

Functions are converted when the object graph reaches them; every file is read through
`model_files` (inside the directory, no links, bounded) and every field is checked.
"""

from __future__ import annotations

import os

import numpy as np

from ... import dtypes as d
from ...framework.tensor import EagerTensor
from ...framework.variables import Variable
from ...shapes import TensorSpec, shapes_compatible
from ..native.loading import RestoredObject, SignatureMap
from ..native.restored_functions import RestoredFunction, SignatureFunction, signature_outputs
from .attr_values import dtype_value, shape_value, tensor_value
from .format_errors import data_loss, invalid
from .function_library import FunctionLibrary
from .messages import messages
from .model_files import ModelFiles
from .saved_functions import build_concrete_function, parameters_of
from .saved_model_file import read_saved_model, select_meta_graph
from .structured_values import structured_value
from .tensor_bundle import BundleReader
from .tf_checkpoint import OBJECT_GRAPH_KEY

__all__ = ["load_tensorflow_saved_model"]

MAX_OBJECTS = 1_000_000
VARIABLES_PREFIX = "variables/variables"
_CONTAINERS = {"trackable_list_wrapper": list, "trackable_tuple_wrapper": tuple,
               "trackable_dict_wrapper": dict, "signature_map": SignatureMap}


class _Loader:
    def __init__(self, export_dir, tags):
        self.files = ModelFiles(export_dir)
        proto, self.file = read_saved_model(self.files)
        self.meta = select_meta_graph(proto, tags, self.file)
        if not self.meta.HasField("object_graph_def") or not self.meta.object_graph_def.nodes:
            raise invalid(self.file, "object_graph_def", "a TensorFlow 1 SavedModel (no object "
                          "graph): tracegraph loads TensorFlow 2 SavedModels")
        self.nodes = list(self.meta.object_graph_def.nodes)
        if len(self.nodes) > MAX_OBJECTS:
            raise invalid(self.file, "object_graph_def", f"{len(self.nodes)} objects")
        self._check_references()
        self.library = FunctionLibrary(self.meta.graph_def.library, self.file)
        self.objects: list = [None] * len(self.nodes)
        self.concrete: dict = {}

    def _check_references(self) -> None:
        n = len(self.nodes)
        for i, node in enumerate(self.nodes):
            ids = [c.node_id for c in node.children] + [c.node_id for c in node.dependencies]
            if any(not 0 <= j < n for j in ids):
                raise invalid(self.file, f"object_graph_def.nodes[{i}]",
                              "refers to an object that does not exist")
        for name, saved in self.meta.object_graph_def.concrete_functions.items():
            if any(not 0 <= j < n for j in saved.bound_inputs):
                raise invalid(self.file, f"concrete_functions[{name!r:.80}].bound_inputs",
                              "refers to an object that does not exist")

    def run(self):
        self._variables()
        for i, node in enumerate(self.nodes):
            if self.objects[i] is None:
                self.objects[i] = self._make(i, node)
        for i, node in enumerate(self.nodes):
            self._attach(i, node)
        root = self.objects[0]
        if isinstance(root, RestoredObject):
            if not isinstance(vars(root).get("signatures"), SignatureMap):
                vars(root)["signatures"] = SignatureMap()
            info = self.meta.meta_info_def
            vars(root).setdefault("tensorflow_version", info.tensorflow_version)
            vars(root).setdefault("tensorflow_git_version", info.tensorflow_git_version)
        for obj in self.objects:
            if isinstance(obj, RestoredObject):
                _set_variable_lists(obj)
        return root

    # --- variables --------------------------------------------------------------------------------
    def _variables(self) -> None:
        wanted = [i for i, n in enumerate(self.nodes) if n.WhichOneof("kind") == "variable"]
        if not wanted:
            return
        bundle = BundleReader(lambda suffix: self.files.open(VARIABLES_PREFIX + suffix),
                              os.path.join(self.files.root, VARIABLES_PREFIX))
        keys = self._checkpoint_keys(bundle)
        for i in wanted:
            saved = self.nodes[i].variable
            where = f"object_graph_def.nodes[{i}].variable"
            dtype = dtype_value(saved.dtype, self.file, f"{where}.dtype")
            shape = shape_value(saved.shape, self.file, f"{where}.shape")
            key = keys.get(i)
            if key is None or key not in bundle.entries:
                raise data_loss(bundle.index_file, "", f"no value for the variable "
                                f"{saved.name!r:.80} (object {i})")
            entry = bundle.entry(key)
            if entry.dtype is not dtype or not shapes_compatible(shape, entry.shape):
                raise invalid(bundle.index_file, key, f"a {entry.dtype.name} value of shape "
                              f"{list(entry.shape)} for a {dtype.name} variable of shape "
                              f"{shape}")
            value = bundle.read(key)
            var = Variable(value, trainable=saved.trainable, name=saved.name or "Variable",
                           dtype=dtype if dtype is not d.bfloat16 else None, shape=shape,
                           validate_shape=shape is not None)
            if dtype is d.bfloat16:
                var.handle.dtype = d.bfloat16
            self.objects[i] = var

    def _checkpoint_keys(self, bundle) -> dict[int, str]:
        """saved node id -> checkpoint key of its value: the bundle's object graph and the
        saved one walked together from the root, child by local name."""
        if OBJECT_GRAPH_KEY not in bundle.entries:
            raise data_loss(bundle.index_file, OBJECT_GRAPH_KEY, "the variables have no "
                            "object graph")
        graph = messages().trackable_object_graph_pb2.TrackableObjectGraph()
        try:
            graph.ParseFromString(bundle.read(OBJECT_GRAPH_KEY).item())
        except Exception as e:
            raise data_loss(bundle.index_file, OBJECT_GRAPH_KEY,
                            f"not a TrackableObjectGraph ({e})") from None
        n = len(graph.nodes)
        keys, seen, queue = {}, {0}, [(0, 0)]
        while queue:
            saved_id, ckpt_id = queue.pop(0)
            if not 0 <= ckpt_id < n:
                raise data_loss(bundle.index_file, OBJECT_GRAPH_KEY, "a child that does "
                                "not exist")
            node = graph.nodes[ckpt_id]
            for attribute in node.attributes:
                if attribute.name == "VARIABLE_VALUE":
                    keys[saved_id] = attribute.checkpoint_key
            children = {c.local_name: c.node_id for c in node.children}
            for child in self.nodes[saved_id].children:
                if child.local_name in children and child.node_id not in seen:
                    seen.add(child.node_id)
                    queue.append((child.node_id, children[child.local_name]))
        return keys

    # --- objects ----------------------------------------------------------------------------------
    def _make(self, i: int, node):
        kind = node.WhichOneof("kind")
        where = f"object_graph_def.nodes[{i}]"
        if kind == "user_object":
            container = _CONTAINERS.get(node.user_object.identifier)
            return RestoredObject() if container is None else (
                [] if container is tuple else container())
        if kind == "function":
            spec = node.function.function_spec
            signature = parameters_of(spec, self.file, f"{where}.function.function_spec")
            concrete = [self._concrete(name, signature)
                        for name in node.function.concrete_functions]
            input_signature = structured_value(spec.input_signature, self.file,
                                               f"{where}.function_spec.input_signature")
            name = next((c.local_name for n in self.nodes for c in n.children
                         if c.node_id == i), f"function_{i}")
            return RestoredFunction(name, concrete, input_signature
                                    if isinstance(input_signature, tuple) else None)
        if kind == "bare_concrete_function":
            bare = node.bare_concrete_function
            signature = parameters_of(bare.function_spec, self.file, f"{where}.function_spec")
            return self._concrete(bare.concrete_function_name, signature)
        if kind == "constant":
            return EagerTensor(self._constant(node.constant.operation, where))
        if kind == "asset":
            return _Asset(self._asset_path(node.asset.asset_file_def_index, where))
        return RestoredObject()   # resources, captured tensors: nothing tracegraph can run

    def _concrete(self, name: str, signature):
        found = self.concrete.get(name)
        if found is not None:
            return found
        saved = self.meta.object_graph_def.concrete_functions.get(name)
        if saved is None:
            raise invalid(self.file, "object_graph_def.concrete_functions",
                          f"no entry for the function {name!r:.80}")
        captures = [self._bound(j) for j in saved.bound_inputs]
        graph = self.library.graph(name, captures=captures)
        cf = build_concrete_function(name, saved, graph, signature, self.file)
        self.concrete[name] = cf
        return cf

    def _bound(self, j: int):
        """What a function's captured argument is bound to: a Variable's handle, a constant."""
        obj = self.objects[j]
        if obj is None:
            obj = self.objects[j] = self._make(j, self.nodes[j])
        if isinstance(obj, Variable):
            return obj.handle
        if isinstance(obj, EagerTensor):
            return obj
        if isinstance(obj, _Asset):
            return obj.asset_path
        raise invalid(self.file, f"object_graph_def.nodes[{j}]",
                      f"a function captures a {self.nodes[j].WhichOneof('kind')}, which "
                      "tracegraph cannot restore")

    def _constant(self, operation: str, where: str) -> np.ndarray:
        for node in self.meta.graph_def.node:
            if node.name == operation and "value" in node.attr:
                return tensor_value(node.attr["value"].tensor, self.file,
                                    f"graph_def.node {operation!r:.80}")
        raise invalid(self.file, where, f"constant {operation!r:.80} is not in the graph")

    def _asset_path(self, index: int, where: str):
        assets = self.meta.asset_file_def
        if not 0 <= index < len(assets):
            raise invalid(self.file, where, "asset index out of range")
        relative = f"assets/{assets[index].filename}"
        return EagerTensor(np.array(self.files.path(relative).encode(), dtype=object))

    def _attach(self, i: int, node) -> None:
        parent = self.objects[i]
        if isinstance(parent, SignatureMap):
            for child in node.children:
                cf = self.objects[child.node_id]
                parent[child.local_name] = self._signature(child.local_name, cf)
            return
        if not isinstance(parent, (RestoredObject, list, dict)):
            return
        items = []
        for k, child in enumerate(node.children):
            obj = self.objects[child.node_id]
            if isinstance(parent, list):
                if child.local_name != str(k):
                    raise invalid(self.file, f"object_graph_def.nodes[{i}].children[{k}]",
                                  "list items must be numbered 0, 1, ... in order")
                items.append(obj)
            elif isinstance(parent, dict):
                parent[child.local_name] = obj
            elif child.local_name == "__call__" or not child.local_name.startswith("__"):
                setattr(parent, child.local_name, obj)
        if isinstance(parent, list):
            parent.extend(items)
            if self.nodes[i].user_object.identifier == "trackable_tuple_wrapper":
                self.objects[i] = tuple(parent)

    def _signature(self, name: str, cf):
        if not hasattr(cf, "input_paths"):
            raise invalid(self.file, f"signatures.{name[:80]}", "not a concrete function")
        inputs = [(path, spec) for path, spec in cf.input_paths]
        if any(not isinstance(spec, TensorSpec) or not path.isidentifier()
               for path, spec in inputs):
            raise invalid(self.file, f"signatures.{name[:80]}", "a signature takes tensors by "
                          "keyword")
        return SignatureFunction(name, cf, inputs, signature_outputs(cf.structured_outputs))


class _Asset:
    """A saved asset: `asset_path` is a string tensor with the file's path."""

    def __init__(self, asset_path):
        self.asset_path = asset_path


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


def load_tensorflow_saved_model(export_dir, tags=None, options=None):
    """The object a TensorFlow SavedModel directory saved, restored on tracegraph."""
    return _Loader(os.fspath(export_dir), tags).run()
