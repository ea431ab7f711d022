"""The object tree of a saved object: which attribute holds which Variable, function or child.

Found by duck typing, the way TensorFlow's tracking sees a `tf.Module`: an object's instance
attributes (and the `tf.function` methods of its class), lists, tuples and dicts (string keys)
are followed; Variables, `tf.function`s and concrete functions are leaves. An attribute is kept
only when something under it is a Variable or a function, so plain data (names, numbers,
scopes) is ignored. Shared objects appear once and cycles are fine: nodes are numbered in
breadth-first order from the root, children sorted by name (list items by index), as
TensorFlow orders them.
"""

from __future__ import annotations

import types

from ...framework.tensor import Tensor
from ...framework.variables import Variable
from ...trace.concrete import ConcreteFunction
from ...trace.function import Function, PolymorphicFunction

__all__ = ["ObjectGraph", "children_of", "is_leaf"]

MAX_CONTAINER = 100_000
_IGNORED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
            types.MethodType, Tensor, str, bytes, int, float, complex, bool, type(None))


def is_leaf(value) -> bool:
    return isinstance(value, (Variable, PolymorphicFunction, ConcreteFunction))


def _class_functions(obj) -> list[tuple[str, object]]:
    """`tf.function` methods defined on the class, bound to `obj` (traced per instance)."""
    out = []
    seen = set()
    for cls in type(obj).__mro__:
        for name, attr in vars(cls).items():
            if name in seen:
                continue
            seen.add(name)
            if isinstance(attr, Function):
                out.append((name, getattr(obj, name)))
    return out


def children_of(obj) -> list[tuple[str, object]]:
    """(name, child) candidates of a container or an object (not yet filtered)."""
    if isinstance(obj, (list, tuple)):
        return [(str(i), v) for i, v in enumerate(obj[:MAX_CONTAINER])]
    if isinstance(obj, dict):
        return [(k, v) for k, v in obj.items() if isinstance(k, str)]
    if isinstance(obj, _IGNORED) or is_leaf(obj):
        return []
    own = getattr(type(obj), "_object_graph_children", None)
    if own is not None:   # an object that says what its children are (tf.train.Checkpoint)
        return own(obj)
    attrs = getattr(obj, "__dict__", None)
    ignored = getattr(type(obj), "_TF_MODULE_IGNORED_PROPERTIES", ())  # tf.Module's opt-out
    out = [(k, v) for k, v in attrs.items()
           if not k.startswith(("_tf_function_", "_self_")) and k not in ignored] \
        if isinstance(attrs, dict) else []
    names = {k for k, _ in out}
    out += [(k, v) for k, v in _class_functions(obj) if k not in names]
    return out


class ObjectGraph:
    """Numbers the objects under `root` that hold Variables or functions (`is_leaf`: what
    counts as held; a checkpoint counts Variables only)."""

    def __init__(self, root, is_leaf=is_leaf):
        self.root = root
        self._is_leaf = is_leaf
        self.nodes: list = []          # node id -> object
        self.children: list = []       # node id -> [(name, node id)]
        self._ids: dict[int, int] = {}
        self._relevant: dict[int, bool] = {}
        self._build()

    def _holds_something(self, obj, visiting=None) -> bool:
        key = id(obj)
        if key in self._relevant:
            return self._relevant[key]
        if self._is_leaf(obj):
            return True
        visiting = visiting if visiting is not None else set()
        if key in visiting:
            return False
        visiting.add(key)
        found = any(self._holds_something(v, visiting) for _, v in children_of(obj))
        visiting.discard(key)
        if found:  # a False seen inside a cycle may be wrong from another starting point
            self._relevant[key] = True
        return found

    def _build(self) -> None:
        self._add(self.root)
        i = 0
        while i < len(self.nodes):
            obj = self.nodes[i]
            kids = []
            pairs = children_of(obj)
            if not isinstance(obj, (list, tuple)):
                pairs = sorted(pairs, key=lambda kv: kv[0])  # TensorFlow's order
            for name, child in pairs:
                if self._holds_something(child):
                    kids.append((name, self._add(child)))
            self.children.append(kids)
            i += 1

    def _add(self, obj) -> int:
        key = id(obj)
        if key not in self._ids:
            self._ids[key] = len(self.nodes)
            self.nodes.append(obj)
        return self._ids[key]

    def node_id(self, obj) -> int | None:
        return self._ids.get(id(obj))

    def paths(self) -> dict[int, str]:
        """node id -> its first path from the root (`layer/0/kernel`), breadth first."""
        out = {0: ""}
        for node, kids in enumerate(self.children):
            for name, child in kids:
                if child not in out:
                    out[child] = f"{out[node]}/{name}" if out[node] else name
        return out
