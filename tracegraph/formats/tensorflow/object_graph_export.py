"""The objects a SavedModel saves, numbered as TensorFlow numbers them.

`SavedObjects(root)` walks the object tree from `root` breadth first: an object's children are
its attributes in the order they were set, then the `tf.function` methods of its class (as
TensorFlow's `tf.Module` lists them), list items by index and dict entries by key; an attribute
is kept only when a Variable or a function is under it, and an object reached twice is one
node. Node kinds are TensorFlow's: `variable`, `function` (a `tf.function` or a loaded one),
`bare_concrete_function`, and user objects (`_generic_user_object`, or TensorFlow's list,
tuple and dict wrappers). The writer adds what only it knows: each function's traces
(`trace_0`, ... children), the `signatures` map under the root and the constants functions
capture (`capture_<i>` children).

`checkpoint_graph()` is the `TrackableObjectGraph` stored with the variables: the same nodes
and children, each Variable with its checkpoint key (its first path from the root, local names
escaped as in checkpoints, then `/.ATTRIBUTES/VARIABLE_VALUE`), `has_checkpoint_values` where a
value is under the node.
"""

from __future__ import annotations

from ...framework.variables import Variable
from ...trace.concrete import ConcreteFunction
from ...trace.function import PolymorphicFunction
from ..native.loading import RestoredObject, SignatureMap
from ..native.object_graph import children_of
from .messages import messages
from .tf_checkpoint import VARIABLE_SUFFIX, escape_local_name

__all__ = ["SavedObjects", "object_kind", "USER_OBJECT_IDENTIFIERS"]

# Attributes a loader gives a loaded object when the model did not save them: every Variable
# under it (a tuple), and the signatures (saved again from the `signatures` argument).
_SYNTHESIZED = ("variables", "trainable_variables")
USER_OBJECT_IDENTIFIERS = {list: "trackable_list_wrapper", tuple: "trackable_tuple_wrapper",
                           dict: "trackable_dict_wrapper"}


def object_kind(obj) -> str:
    if isinstance(obj, Variable):
        return "variable"
    if isinstance(obj, PolymorphicFunction):
        return "function"
    if isinstance(obj, ConcreteFunction):
        return "bare_concrete_function"
    return "user_object"


def _is_leaf(obj) -> bool:
    return object_kind(obj) != "user_object"


def trackable_children(obj) -> list[tuple[str, object]]:
    """(local name, child) candidates of `obj`, in TensorFlow's order."""
    if isinstance(obj, (Variable, PolymorphicFunction, ConcreteFunction, SignatureMap)):
        return []
    listed = getattr(obj, "_trackable_children", None)
    if callable(listed) and not isinstance(obj, (list, tuple, dict)):
        pairs = list(listed(save_type="savedmodel").items())
        names = {k for k, _ in pairs}
        pairs += [(k, v) for k, v in children_of(obj) if k not in names and   # functions
                  isinstance(v, (PolymorphicFunction, ConcreteFunction))]
    else:
        pairs = children_of(obj)
    if isinstance(obj, RestoredObject):
        pairs = [(k, v) for k, v in pairs if k != "signatures" and not _synthesized(k, v, pairs)]
    return [(k, v) for k, v in pairs if isinstance(k, str)]


def _synthesized(name: str, value, pairs) -> bool:
    """Whether a loaded object's `variables`/`trainable_variables` is the loader's list of the
    Variables its other attributes hold (not an attribute the model saved)."""
    if name not in _SYNTHESIZED or not isinstance(value, tuple):
        return False
    found, seen = set(), set()
    stack = [v for k, v in pairs if k not in _SYNTHESIZED and k != "signatures"]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, Variable):
            found.add(id(item))
        elif not isinstance(item, (PolymorphicFunction, ConcreteFunction, SignatureMap)):
            stack.extend(v for _, v in children_of(item))
    return all(id(v) in found for v in value)


class SavedObjects:
    """The nodes of a SavedObjectGraph (see the module docstring)."""

    def __init__(self, root):
        self.nodes: list = []                   # node id -> object
        self.children: list[list] = []          # node id -> [(local name, node id)]
        self._ids: dict[int, int] = {}
        self._holds: dict[int, bool] = {}
        self.add(root)
        i = 0
        while i < len(self.nodes):
            for name, child in trackable_children(self.nodes[i]):
                if self._holds_something(child, set()):
                    self.children[i].append((name, self.add(child)))
            i += 1

    def add(self, obj) -> int:
        """The node id of `obj`, added (without children) if new."""
        key = id(obj)
        if key not in self._ids:
            self._ids[key] = len(self.nodes)
            self.nodes.append(obj)
            self.children.append([])
        return self._ids[key]

    def node_id(self, obj) -> int | None:
        return self._ids.get(id(obj))

    def _holds_something(self, obj, visiting: set) -> bool:
        key = id(obj)
        if key in self._holds:
            return self._holds[key]
        if _is_leaf(obj):
            return True
        if key in visiting:
            return False
        visiting.add(key)
        found = any(self._holds_something(child, visiting)
                    for _, child in trackable_children(obj))
        visiting.discard(key)
        if found:   # a False seen inside a cycle may be wrong from another starting point
            self._holds[key] = True
        return found

    def variables(self) -> list[tuple[int, Variable]]:
        return [(i, v) for i, v in enumerate(self.nodes) if isinstance(v, Variable)]

    def checkpoint_keys(self) -> dict[int, str]:
        """Variable node id -> its checkpoint key (first path from the root, breadth first)."""
        paths, keys = {0: ""}, {}
        for node, kids in enumerate(self.children):
            for name, child in kids:
                if child not in paths:
                    escaped = escape_local_name(name)
                    paths[child] = f"{paths[node]}/{escaped}" if paths[node] else escaped
        for i, _var in self.variables():
            keys[i] = f"{paths[i]}{VARIABLE_SUFFIX}"
        return keys

    def checkpoint_graph(self, keys: dict[int, str]):
        """The TrackableObjectGraph of the variables bundle (same node ids)."""
        graph = messages().trackable_object_graph_pb2.TrackableObjectGraph()
        has_values = self._has_values()
        for i, obj in enumerate(self.nodes):
            node = graph.nodes.add()
            for name, child in self.children[i]:
                node.children.add(node_id=child, local_name=name)
            if i in keys:
                node.attributes.add(name="VARIABLE_VALUE", full_name=_variable_name(obj),
                                    checkpoint_key=keys[i])
            node.has_checkpoint_values.value = has_values[i]
        return graph

    def _has_values(self) -> list[bool]:
        values = [isinstance(obj, Variable) for obj in self.nodes]
        changed = True
        while changed:   # children may come before their parents (shared objects, cycles)
            changed = False
            for i, kids in enumerate(self.children):
                if not values[i] and any(values[c] for _, c in kids):
                    values[i] = changed = True
        return values


def _variable_name(var: Variable) -> str:
    return var.name.split(":")[0]
