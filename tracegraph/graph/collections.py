"""TF1's graph collections: named lists of graph objects (variables, losses, update ops) kept
on a `Graph`, which `tf.compat.v1.get_collection` and friends read; and TF1's
`Graph.get_name_scope`."""

from __future__ import annotations

import re

__all__ = ["Collections"]


class Collections:
    """The collection methods of `Graph` (TensorFlow's `Graph.add_to_collection` and so on)."""

    @property
    def _collections(self) -> dict[str, list]:
        found = self.__dict__.get("_collection_lists")
        if found is None:
            found = self.__dict__["_collection_lists"] = {}
        return found

    def add_to_collection(self, name: str, value) -> None:
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names, value) -> None:
        for name in [names] if isinstance(names, str) else dict.fromkeys(names):
            self.add_to_collection(name, value)

    def get_collection_ref(self, name: str) -> list:
        """The collection itself (a list the caller may change)."""
        return self._collections.setdefault(name, [])

    def get_collection(self, name: str, scope: str | None = None) -> list:
        """A copy of the collection; with `scope`, the items whose `name` starts with it."""
        items = list(self._collections.get(name, ()))
        if scope is None:
            return items
        pattern = re.compile(scope)
        return [v for v in items if pattern.match(getattr(v, "name", "") or "")]

    def get_all_collection_keys(self) -> list[str]:
        return [k for k, v in self._collections.items() if v]

    def clear_collection(self, name: str) -> None:
        self._collections.pop(name, None)

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r} with {len(self._ops)} ops>"

    def get_name_scope(self) -> str:
        """TensorFlow's spelling: the current scope without its trailing "/"."""
        return self.current_name_scope()[:-1]
