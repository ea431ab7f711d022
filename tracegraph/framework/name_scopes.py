"""`tf.name_scope`: the scope that names ops, Variables and Modules, as TensorFlow 2's
`name_scope_v2`.

In a graph being built, entering `name` makes a unique scope `name/` (`name_1/` the second time);
a name ending in "/" re-enters that exact scope and "" goes back to the top. Eagerly nothing is
made unique: scopes only nest (`a/b/`), and they name the Variables created inside
(`a/b/v:0`). One object can be entered again and again, from several threads (a Module keeps
one as its `name_scope`).
"""

from __future__ import annotations

import threading

from ..ops.registry import current_context

__all__ = ["name_scope", "name_scope_v2", "current_name_scope"]


class _EagerScope(threading.local):
    name = ""  # the eager scope of this thread, "" or ending in "/"


_eager = _EagerScope()


def current_name_scope() -> str:
    """The scope new names go under: the graph's while building one, else the eager one
    ("" or ending in "/")."""
    graph = getattr(current_context(), "graph", None)
    return graph.current_name_scope() if graph is not None else _eager.name


class name_scope_v2:  # noqa: N801 - TensorFlow's class name (`type(tf.name_scope(...))`)
    """`with tf.name_scope(name) as scope:` ops and Variables made inside are named `scope...`."""

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._exits = threading.local()  # per thread: how to leave each entry, innermost last

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self) -> str:
        exits = self._exits.__dict__.setdefault("stack", [])
        graph = getattr(current_context(), "graph", None)
        if graph is not None:
            scope = graph.name_scope(self._name)
            entered = scope.__enter__()
            exits.append(scope.__exit__)
            return entered
        old = _eager.name
        if not self._name or self._name.endswith("/"):
            _eager.name = self._name
        else:
            _eager.name = f"{old}{self._name}/"
        exits.append(lambda *exc: setattr(_eager, "name", old))
        return _eager.name

    def __exit__(self, *exc):
        self._exits.stack.pop()(*exc)
        return False


name_scope = name_scope_v2
