"""`tf.compat.v1.Session`: runs parts of a TF1 graph, keeping the graph's Variables.

A Session holds the storage of every Variable of its graph (created empty; reading one before
its initializer ran is TensorFlow's `FailedPreconditionError`), so two Sessions on one graph
have Variables of their own. `run(fetches, feed_dict)` compiles each kind of run once (the
fetched tensors, the ops to run and the fed tensors: `session_runs.CompiledRun`) and runs it
on the feeds. `with Session() as sess:` makes the Session the default one and its graph the
default graph, and closes it at the end.
"""

from __future__ import annotations

import threading

import numpy as np

from .. import config as _config
from .. import profiling
from ..errors import FailedPreconditionError, InvalidArgumentError, OpError
from ..framework.variables import ResourceHandle
from ..ops.graph_mode import var_handle_op
from .datasets import iterator_v2_op, new_iterator
from .default_graph import get_default_graph
from .fetches import FetchMapper, feed_items
from .session_runs import CompiledRun, session_error

__all__ = ["Session", "InteractiveSession", "get_default_session", "SessionStorage",
           "run_in_session", "load_in_session"]

_UNSET = object()


class SessionStorage(ResourceHandle):
    """A Session's storage for one Variable: empty until an initializer assigns it."""

    __slots__ = ("_stored",)

    def __init__(self, dtype, shape, name: str):
        super().__init__(_UNSET, dtype, shape, name)

    @property
    def value(self):
        value = self._stored
        if value is _UNSET:
            raise FailedPreconditionError(
                f"Could not find variable {self.name}. This could mean that the variable has "
                "been deleted. In TF1, it can also mean the variable is uninitialized. Debug "
                "info: container=localhost, status error message=Container localhost does not "
                f"exist. (Could not find resource: localhost/{self.name})")
        return value

    @value.setter
    def value(self, value):
        self._stored = value

    @property
    def raw_value(self):
        """The value, or a mark for "uninitialized" (assigning it back restores that)."""
        return self._stored

    @property
    def initialized(self) -> bool:
        return self._stored is not _UNSET


def _new_resource(handle_op, name: str):
    if handle_op.op_def is var_handle_op:
        return SessionStorage(handle_op.attrs["dtype"], handle_op.attrs["shape"], name)
    if handle_op.op_def is iterator_v2_op:
        return new_iterator(handle_op)
    raise InvalidArgumentError(None, handle_op, f"{handle_op.type} op '{handle_op.name}' "
                               "has no kernel and no value was fed for it.")


class _DefaultSessions(threading.local):
    def __init__(self):
        self.stack: list = []


_defaults = _DefaultSessions()


def get_default_session():
    """The innermost Session entered with `with sess:` or `sess.as_default()` (None if none)."""
    return _defaults.stack[-1] if _defaults.stack else None


class _AsDefault:
    def __init__(self, session, enter_graph: bool, close: bool):
        self._session, self._enter_graph, self._close = session, enter_graph, close
        self._graph_scope = None

    def __enter__(self):
        _defaults.stack.append(self._session)
        if self._enter_graph:
            self._graph_scope = self._session.graph.as_default()
            self._graph_scope.__enter__()
        return self._session

    def __exit__(self, *exc):
        if self._graph_scope is not None:
            self._graph_scope.__exit__(*exc)
        _defaults.stack.remove(self._session)
        if self._close:
            self._session.close()
        return False


class Session:
    """`tf.compat.v1.Session(target='', graph=None, config=None)`: the default graph unless
    `graph` is given. tracegraph's `executor` picks how runs execute ("codegen", the default,
    "interpreter", "jit" or "parallel")."""

    def __init__(self, target="", graph=None, config=None, executor: str | None = None):
        if graph is None:
            graph = get_default_graph()
        self._graph = graph
        self._target = target
        self._config = config
        self._closed = False
        self._storage: dict = {}   # (handle op type, shared name) -> resource
        self._runs: dict = {}
        self._lock = threading.RLock()
        self._scopes: list = []
        if executor is None:
            executor = _config.forced_executor() or "codegen"
        self.executor = executor

    # --- what a Session is -----------------------------------------------------------------
    @property
    def graph(self):
        return self._graph

    @property
    def graph_def(self):
        return self._graph.as_graph_def()

    @property
    def sess_str(self) -> str:
        return self._target

    def storage(self, handle_op):
        """This Session's resource for a handle op of its graph: the storage of the Variable
        whose `VarHandleOp` it is, or an iterator for an `IteratorV2`."""
        name = handle_op.attrs.get("shared_name") or handle_op.name
        key = (handle_op.type, name)
        found = self._storage.get(key)
        if found is None:
            with self._lock:
                found = self._storage.get(key)
                if found is None:
                    found = self._storage[key] = _new_resource(handle_op, name)
        return found

    # --- running -----------------------------------------------------------------------------
    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """The values of `fetches` (a tensor, an op, a name, a Variable, or a list, tuple,
        namedtuple or dict of them, nested), with `feed_dict`'s values for its tensors."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        if not self._graph.operations:
            raise RuntimeError("The Session graph is empty. Add operations to the graph before "
                               "calling run().")
        mapper = FetchMapper(self._graph, fetches)
        feeds = {id(t): (t, v) for t, v in feed_items(self._graph, feed_dict)}
        fed = [t for t, _ in feeds.values()]
        if not mapper.tensors and not mapper.targets:
            return mapper.results([], self.storage)
        key = (tuple(id(t) for t in mapper.tensors), tuple(id(op) for op in mapper.targets),
               tuple(id(t) for t in fed), profiling.recorder)   # timed while profiling
        try:
            compiled = self._runs.get(key)
            if compiled is None:
                with self._lock:
                    compiled = self._runs.get(key)
                    if compiled is None:
                        compiled = CompiledRun(self._graph, mapper.tensors, mapper.targets, fed,
                                               self.storage, self.executor)
                        self._runs[key] = compiled
            values = compiled([v for _, v in feeds.values()])
        except OpError as e:
            raise session_error(e, self._graph) from None
        return mapper.results(values, self.storage)

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """A function of the values of `feed_list` (in order) that runs `fetches`."""
        feed_list = list(feed_list or ())

        def run(*values, **kwargs):
            if len(values) != len(feed_list):
                raise TypeError(f"Expected {len(feed_list)} feed values, got {len(values)}")
            return self.run(fetches, dict(zip(feed_list, values)))
        return run

    # --- lifetime ----------------------------------------------------------------------------
    def close(self) -> None:
        self._closed = True
        self._runs.clear()
        self._storage.clear()

    def as_default(self):
        """`with sess.as_default():` makes this the default Session (it is not closed after)."""
        return _AsDefault(self, enter_graph=False, close=False)

    def __enter__(self):
        scope = _AsDefault(self, enter_graph=True, close=True)
        self._scopes.append(scope)
        return scope.__enter__()

    def __exit__(self, *exc):
        return self._scopes.pop().__exit__(*exc)

    def __del__(self):
        self._closed = True


class InteractiveSession(Session):
    """A Session that makes itself the default one when created (for shells and notebooks)."""

    def __init__(self, target="", graph=None, config=None, executor: str | None = None):
        super().__init__(target, graph, config, executor)
        self._interactive = self.as_default()
        self._interactive.__enter__()

    def close(self) -> None:
        if self._interactive is not None:
            self._interactive.__exit__(None, None, None)
            self._interactive = None
        super().close()


# ---- what `variable.eval()` and `variable.load()` reach (wiring.session_run, session_load) ---

def run_in_session(fetch, feed_dict=None, session=None):
    """`fetch`'s value in `session`, else the default Session (TensorFlow's `eval`)."""
    session = session if session is not None else get_default_session()
    if session is None:
        raise ValueError("Cannot evaluate tensor using `eval()`: No default session is "
                         "registered. Use `with sess.as_default()` or pass an explicit session "
                         "to `eval(session=sess)`")
    return session.run(fetch, feed_dict)


def load_in_session(variable, value, session=None) -> None:
    """Writes `value` into `session`'s storage for `variable` (TensorFlow's `load`)."""
    session = session if session is not None else get_default_session()
    if session is None:
        raise ValueError("Either session argument should be provided or default session "
                         "should be established")
    session.storage(variable.op).value = np.asarray(value, variable.dtype.as_numpy_dtype)
