"""The two things the trace layer needs from layers below it, which it may not import.

- `runner(concrete) -> (compiled callable, graph that runs, optimizer report)`: how a
  ConcreteFunction becomes runnable (the execute layer: optimize a copy, compile it);
- `autograph(python_function) -> function to trace`: AutoGraph's conversion, used when a
  Function has `autograph=True`;
- `first_call_report(concrete, wait) -> FirstCallReport`: where the first call's time went
  (execute/first_call.py).

All are installed once, by `tracegraph/__init__.py` (`install`), and nowhere else.
"""

from __future__ import annotations

__all__ = ["install", "runner", "autograph", "first_call_report"]

runner = None
autograph = None
first_call_report = None


def install(*, runner, autograph, first_call_report=None) -> None:  # noqa: A002
    globals().update(runner=runner, autograph=autograph, first_call_report=first_call_report)
