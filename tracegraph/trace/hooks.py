"""The two things the trace layer needs from layers below it, which it may not import.

- `runner(concrete) -> (compiled callable, graph that runs, optimizer report)`: how a
  ConcreteFunction becomes runnable (the execute layer: optimize a copy, compile it);
- `autograph(python_function) -> function to trace`: AutoGraph's conversion, used when a
  Function has `autograph=True`.

Both are installed once, by `tracegraph/__init__.py` (`install`), and nowhere else.
"""

from __future__ import annotations

__all__ = ["install", "runner", "autograph"]

runner = None
autograph = None


def install(*, runner, autograph) -> None:  # noqa: A002 - the module's own names
    globals().update(runner=runner, autograph=autograph)
