"""The alias importer: while installed, `import tensorflow.X.Y` gives tracegraph's module for
`X.Y` — the public namespace's own module (`tensorflow.summary` is `tracegraph.summary`), else
the re-export module `tracegraph.compat.X.Y` (`tensorflow.python.eager.context`) — and a name
tracegraph lacks is a ModuleNotFoundError saying so. The name `tensorflow` itself is bound in
`sys.modules` by the Keras bridge, which installs this finder first on `sys.meta_path` (so no
other finder loads a second copy of a tracegraph file under a `tensorflow.` name)."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types

__all__ = ["AliasFinder", "install", "uninstall", "installed", "resolve"]

PREFIX = "tensorflow."


def _as_module(fullname: str, namespace) -> types.ModuleType:
    """A module standing for a namespace object (`tf.io.gfile` as `tensorflow.io.gfile`)."""
    module = types.ModuleType(fullname, getattr(namespace, "__doc__", None))
    module.__dict__.update(vars(namespace))
    return module


def resolve(fullname: str) -> types.ModuleType:
    """tracegraph's module for `tensorflow.<name>` (see the module docstring)."""
    import tracegraph
    name = fullname[len(PREFIX):]
    obj = tracegraph
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            break
    if isinstance(obj, types.ModuleType):
        return obj
    if isinstance(obj, types.SimpleNamespace):
        return _as_module(fullname, obj)
    try:
        return importlib.import_module(f"tracegraph.compat.{name}")
    except ModuleNotFoundError as e:
        if not e.name or not e.name.startswith("tracegraph.compat"):
            raise
    raise ModuleNotFoundError(
        f"No module named '{fullname}': tracegraph (standing in for TensorFlow in this process, "
        "bound by tf.keras) does not provide it.", name=fullname)


class AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `tensorflow.*` names and loads them as tracegraph's modules (the same objects)."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(PREFIX):
            return None
        # A package spec, so that `tensorflow.io.gfile` can be imported below `tensorflow.io`
        # (a module that has no `__path__` of its own gets an empty one).
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec):
        module = resolve(spec.name)
        spec.loader_state = module.__dict__.get("__spec__")  # the module's own spec
        return module

    def exec_module(self, module):
        # The import system set the alias spec on the module: give it its own spec back (a
        # module made for a namespace object keeps the alias spec).
        alias = module.__spec__
        if alias is not None and alias.loader is self and alias.loader_state is not None:
            module.__spec__ = alias.loader_state


_FINDER = AliasFinder()


def installed() -> bool:
    return _FINDER in sys.meta_path


def install() -> None:
    """Puts the finder first on `sys.meta_path` (once)."""
    if not installed():
        sys.meta_path.insert(0, _FINDER)


def uninstall() -> None:
    if installed():
        sys.meta_path.remove(_FINDER)
