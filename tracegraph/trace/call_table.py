"""The dispatch from a call's arguments to the ConcreteFunction that serves it.

A `CallTable` is what `tf.function`'s `Function` and a loaded function share (both are
`PolymorphicFunction`s, function.py). It answers a call in three steps, cheapest first:

1. `fast`, the hot path: positional eager tensors and plain Python values (int, bool, str,
   None) in an eager context are keyed by the tensors' dtypes and shapes and the values
   themselves; one dict lookup gives the concrete function, fed the tensors' arrays as they
   are. `remember_fast` adds a pattern once a call was served by exactly those arrays.
2. `bind` then `lookup`: canonical binding to the Python signature (and the conversion of an
   `input_signature`), the trace key (keys.py), one dict lookup.
3. the signatures of the traces (signatures.py): the most specific trace that serves the call,
   else a new trace by `trace` (relaxed first under `reduce_retracing`), so concurrent calls
   trace each signature once (R-2.8) and a failed trace leaves the table as it was. A table
   without `trace` (a loaded function: its saved concrete functions are all it has) never
   traces: a saved trace serves every call it is compatible with, as TensorFlow's loader
   matches calls, and `lookup` gives None when none is.

Traces beyond `max_traces` are evicted, least recently used first (`CacheEvictionWarning`).
"""

from __future__ import annotations

import threading
import warnings

from ..framework.tensor import EagerTensor
from .concrete import ConcreteFunction
from .keys import canonicalize, make_key
from .retrace import RetraceDetector, user_stacklevel
from .signatures import Signature, input_signature_canonical, signature_of

__all__ = ["CallTable", "CacheEvictionWarning", "DEFAULT_MAX_TRACES"]

DEFAULT_MAX_TRACES = 128
FAST_PATTERNS_MAX = 512   # the fast path's patterns are dropped all at once past this


class CacheEvictionWarning(UserWarning):
    """A Function's trace cache was full and dropped its least recently used trace."""


class CallTable:
    """The concrete functions of one polymorphic function and how a call finds its own.

    `trace(canonical) -> ConcreteFunction` traces for canonical arguments (None: the table
    never traces). Public state: `fast` (argument pattern -> concrete function, read by the
    hot path), `calls` (eager calls so far: the LRU's clock and the retrace window),
    `evicted` (traces dropped by `max_traces`) and `detector` (the retrace explanations).
    """

    def __init__(self, name: str, python_signature, input_signature=None, *, trace=None,
                 reduce_retracing: bool = False, max_traces: int | None = DEFAULT_MAX_TRACES):
        self.name = name
        self.python_signature = python_signature   # inspect.Signature, or None
        self.input_signature = input_signature     # tuple of (nests of) TensorSpecs, or None
        self.trace = trace
        self.reduce_retracing = reduce_retracing
        self.max_traces = max_traces
        self.fast: dict = {}
        self.calls = 0
        self.evicted = 0
        self.detector = RetraceDetector(name)
        self._by_key: dict = {}    # trace key -> ConcreteFunction (traced or found for it)
        self._traces: list = []    # [(Signature, ConcreteFunction)], oldest first
        self._lock = threading.RLock()

    @property
    def concrete_functions(self) -> list[ConcreteFunction]:
        """The table's concrete functions, oldest first."""
        return [cf for _, cf in self._traces]

    def clear(self) -> None:
        """Drops every trace; the next call traces again."""
        with self._lock:
            self._by_key = {}
            self._traces = []
            self.fast = {}

    # --- the slow path ---------------------------------------------------------------------
    def concrete_for(self, args, kwargs) -> tuple[ConcreteFunction, list]:
        """(the concrete function, canonical arguments for its values) of a call. A table
        that never traces raises TensorFlow's ValueError for a loaded function when no saved
        concrete function is compatible with the call (binding errors included)."""
        if self.trace is not None:
            key_canonical, value_canonical = self.bind(args, kwargs)
            return self.lookup(key_canonical), value_canonical
        try:
            key_canonical, value_canonical = self.bind(args, kwargs)
            cf = self.lookup(key_canonical)
        except (TypeError, ValueError):   # does not bind, or unhashable: matches nothing
            cf = None
        if cf is None:
            raise self._no_match(args, kwargs)
        return cf, value_canonical

    def bind(self, args, kwargs) -> tuple[list, list]:
        """(canonical arguments for the key, canonical arguments for the values) of a call:
        the same unless an input_signature converts the values and keys by its specs."""
        try:
            canonical = canonicalize(self.python_signature, args, kwargs)
        except TypeError as e:
            raise TypeError(f"{self.name}{self.python_signature or '(...)'}: {e}") from None
        if self.input_signature is None:
            return canonical, canonical
        extra = self._defaults_beyond_signature(canonical)
        if extra:   # parameters past the input_signature keep their defaults (as TF's)
            keys, values = input_signature_canonical(self.name, canonical[:-len(extra)],
                                                     self.input_signature)
            return keys + extra, values + extra
        return input_signature_canonical(self.name, canonical, self.input_signature)

    def _defaults_beyond_signature(self, canonical) -> list:
        n = len(self.input_signature)
        if len(canonical) <= n or self.python_signature is None:
            return []
        params = self.python_signature.parameters
        extra = canonical[n:]
        if all(name in params and params[name].default is not params[name].empty
               and value is params[name].default for name, value in extra):
            return extra
        return []

    def lookup(self, canonical) -> ConcreteFunction | None:
        """The concrete function for canonical key arguments (see the module's docstring)."""
        key = make_key(canonical)
        cf = self._by_key.get(key.key)
        if cf is not None:
            return cf
        with self._lock:
            cf = self._by_key.get(key.key) or self._most_specific(key)
            if cf is None:
                if self.trace is None:
                    return None
                if self.reduce_retracing:
                    canonical = self._relaxed(canonical, key)
                cf = self.trace(canonical)
                self.detector.traced(key.leaves, self.calls)   # only traces that succeeded
                self.add(cf, canonical)
            self._by_key[key.key] = cf
            return cf

    def add(self, cf: ConcreteFunction, canonical) -> None:
        """Adds a concrete function traced (or saved) for these canonical key arguments."""
        cf.last_used = self.calls
        self._traces.append((signature_of(canonical), cf))
        self._evict()

    def remember_fast(self, args, cf: ConcreteFunction, values: list) -> None:
        """Lets later calls with the same positional eager tensors' dtypes and shapes and the
        same plain Python values skip binding, when this call's flat input values were
        exactly those tensors' arrays, in order (no defaults, conversions or Variables)."""
        key = []
        arrays = []
        for a in args:
            t = type(a)
            if t is EagerTensor:
                v = a.known_value
                key.append(v.dtype)
                key.append(v.shape)
                arrays.append(v)
            elif t is int or t is bool or t is str or a is None:
                key.append(t)
                key.append(a)
            else:
                return
        if len(arrays) != len(values) or any(a is not v for a, v in zip(arrays, values)):
            return
        if len(self.fast) >= FAST_PATTERNS_MAX:
            self.fast = {}
        self.fast[tuple(key)] = cf

    def call_failed(self) -> None:
        """An eager call raised: as in TensorFlow, it does not count (nor its traces)."""
        self.calls = max(self.calls - 1, 0)
        self.detector.failed(self.calls)

    def _no_match(self, args, kwargs) -> ValueError:
        saved = self.concrete_functions
        options = "\n\n".join(f"Option {i + 1}:\n{cf.pretty_printed_signature()}"
                               for i, cf in enumerate(saved))
        call = "\n".join([f"  Positional arguments ({len(args)} total):",
                          *(f"    * {a!r}" for a in args),
                          f"  Keyword arguments: {kwargs!r}"])
        return ValueError(
            f"Could not find matching concrete function to call loaded from the SavedModel "
            f"(function '{self.name}'). Got:\n{call}\n\n Expected these arguments to match "
            f"one of the following {len(saved)} option(s):\n\n{options}")

    # --- the signatures ----------------------------------------------------------------------
    def _most_specific(self, key) -> ConcreteFunction | None:
        """The most specific existing trace that serves this call."""
        serves = Signature.accepts if self.trace is not None else Signature.compatible_with
        best, best_dims = None, -1
        for sig, cf in self._traces:
            if serves(sig, key) and sig.known_dims() > best_dims:
                best, best_dims = cf, sig.known_dims()
        return best

    def _relaxed(self, canonical, key):
        for sig, _ in reversed(self._traces):
            relaxed = sig.relax(canonical, key)
            if relaxed is not None:
                return relaxed
        return canonical

    def _evict(self) -> None:
        """Drops least recently used traces beyond `max_traces`. The first eviction warns;
        later ones are only counted (`evicted`): a loop of distinct calls does not print a
        warning per call."""
        while self.max_traces is not None and len(self._traces) > self.max_traces:
            oldest = min(range(len(self._traces)),
                         key=lambda i: getattr(self._traces[i][1], "last_used", -1))
            _, old = self._traces.pop(oldest)
            self._by_key = {k: v for k, v in self._by_key.items() if v is not old}
            self.fast = {k: v for k, v in self.fast.items() if v is not old}
            self.evicted += 1
            if self.evicted == 1:
                warnings.warn(
                    f"tf.function {self.name}: the trace cache is full ({self.max_traces} "
                    f"traces); evicting the least recently used trace "
                    f"{old.short_signature()}. Calling it again will "
                    "retrace. Raise `max_traces` or reduce the number of distinct signatures. "
                    f"Further evictions are not reported one by one; "
                    f"`{self.name}.evicted_traces` counts them.",
                    CacheEvictionWarning, stacklevel=user_stacklevel())
