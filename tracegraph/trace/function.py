"""`tf.function` and `Function`: a polymorphic callable backed by one ConcreteFunction per
input signature (SPEC R-2).

The hot path (all arguments eager tensors, a signature seen before) builds a key from their
dtypes and shapes, does one dict lookup and runs the compiled graph. Everything else takes the
slow path: canonical binding of the arguments, the full trace key, an exact then a compatible
lookup, and tracing under the Function's lock, so concurrent calls trace each signature once
(R-2.8). A failed trace leaves the cache as it was.
"""

from __future__ import annotations

import functools
import inspect
import threading
import types
import warnings
import weakref
from collections import OrderedDict

from .. import config as _config
from ..framework.eager import EAGER
from ..framework.tape import active_tapes
from ..framework.tensor import EagerTensor
from ..nest import flatten
from ..ops.registry import _state as _registry_state
from ..ops.registry import current_context
from ..shapes import TensorSpec
from . import hooks
from .binding import DeletedInstance
from .concrete import ConcreteFunction
from .keys import canonicalize, make_key
from .retrace import RetraceDetector
from .signatures import input_signature_canonical, signature_of
from .taped_call import call_recorded
from .tracing import trace_function

__all__ = ["function", "Function", "CacheEvictionWarning"]

DEFAULT_MAX_TRACES = 128
_FAST_CACHE_MAX = 512

_VARIABLE_ERROR = (
    "tf.function only supports singleton tf.Variables created on the first call. Make sure the "
    "tf.Variable is only created once or created outside tf.function. See "
    "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")


class CacheEvictionWarning(UserWarning):
    """A Function's trace cache was full and dropped its least recently used trace."""


# Testing aid: run every Function on this executor ("jit", "parallel") instead of the default
# (the test suite sets it from TRACEGRAPH_TEST_EXECUTOR to cross-check it on all its graphs).
FORCE_EXECUTOR = None


class Function:
    """A Python function turned into a graph-backed, polymorphic callable."""

    def __init__(self, python_function, name=None, input_signature=None, autograph=True,
                 jit_compile=None, reduce_retracing=False, max_traces=DEFAULT_MAX_TRACES,
                 executor="codegen", _bound_to=None):
        if not callable(python_function):
            raise TypeError(f"tf.function expects a callable, got {python_function!r}")
        self._python_function = python_function
        # A method's Function for one instance (see __get__) holds the instance weakly, as
        # TensorFlow does: calling a tf.function method does not keep the object alive.
        self._instance_ref = None
        if _bound_to is not None:
            try:
                self._instance_ref = weakref.ref(_bound_to)
            except TypeError:   # not weakly referenceable: held like any bound method
                self._instance_ref = lambda: _bound_to
        self._name = name or getattr(python_function, "__name__", "function")
        self._input_signature = _check_signature(input_signature)
        self._autograph = autograph
        self._jit_compile = jit_compile
        self._reduce_retracing = reduce_retracing
        self.max_traces = max_traces
        # jit_compile=True (XLA's role): clusters of elementwise ops run as compiled kernels.
        self.executor = "jit" if jit_compile and executor == "codegen" else executor
        if self.executor == "codegen" and FORCE_EXECUTOR:
            self.executor = FORCE_EXECUTOR
        try:
            self._signature = inspect.signature(python_function)
        except (TypeError, ValueError):
            self._signature = None
        if _bound_to is not None and self._signature is not None and \
                self._signature.parameters:
            self._signature = self._signature.replace(
                parameters=list(self._signature.parameters.values())[1:])
        self._lock = threading.RLock()
        self._cache: OrderedDict = OrderedDict()   # trace key -> ConcreteFunction (LRU)
        self._traces: list = []                    # [(Signature, ConcreteFunction)]
        self._fast: dict = {}                      # (dtype, shape, ...) -> ConcreteFunction
        self._tracing_count = 0
        self.evicted_traces = 0                    # traces dropped by the LRU bound so far
        self._detector = RetraceDetector(self._name)
        self._variables_frozen = False
        self._bound_instances: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._converted = None
        functools.update_wrapper(self, python_function, updated=())

    # --- public API ----------------------------------------------------------------------------
    @property
    def python_function(self):
        return self._bind(self._python_function)

    def _bind(self, fn):
        """`fn` bound to this Function's instance (fn itself for a plain Function)."""
        if self._instance_ref is None:
            return fn
        instance = self._instance_ref()
        if instance is None:   # `M().f(x)`: the temporary went before the call
            instance = DeletedInstance(self._name)
        return types.MethodType(fn, instance)

    @property
    def input_signature(self):
        return self._input_signature

    def experimental_get_tracing_count(self) -> int:
        return self._tracing_count

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The ConcreteFunction for these arguments (values or TensorSpecs), tracing if needed."""
        if self._input_signature is not None and not args and not kwargs:
            args = self._input_signature
        key_canonical, _ = self._canonical(args, kwargs)
        return self._lookup_or_trace(key_canonical)

    def pretty_printed_concrete_signatures(self, verbose: bool = True) -> str:
        """Every trace's signature, in TensorFlow 2.21's layout (one line each unless verbose)."""
        return ("\n\n" if verbose else "\n").join(cf.pretty_printed_signature(verbose)
                                                  for _, cf in self._traces)

    def cached_signatures(self) -> list[str]:
        """One line per cached trace, oldest first."""
        return [cf.short_signature() for _, cf in self._traces]

    def clear_cache(self) -> None:
        """Drops every trace; the next call traces again."""
        with self._lock:
            self._cache.clear()
            self._traces = []
            self._fast = {}

    # --- calling -------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if not kwargs and not _config._run_eagerly and _registry_state.current is EAGER:
            key = []
            values = []
            for a in args:
                t = type(a)
                if t is EagerTensor:
                    v = a._value
                    key.append(v.dtype)
                    key.append(v.shape)
                    values.append(v)
                elif t is int or t is bool or t is str or a is None:
                    key.append(t)
                    key.append(a)
                else:
                    break
            else:
                cf = self._fast.get(tuple(key))
                if cf is not None:
                    self._detector.calls += 1
                    cf.last_used = self._detector.calls
                    return cf._call_values(values)
        return self._call_slow(args, kwargs)

    def _call_slow(self, args, kwargs):
        if _config._run_eagerly:
            return self._bind(self._python_function)(*args, **kwargs)
        if not current_context().executing_eagerly:
            return self._call_in_graph(args, kwargs)
        self._detector.calls += 1
        try:
            key_canonical, value_canonical = self._canonical(args, kwargs)
            cf = self._lookup_or_trace(key_canonical)
            cf.last_used = self._detector.calls
            values = cf.flat_input_values(value_canonical)
            if not kwargs:
                self._remember_fast(args, cf)
            if current_context() is not EAGER and active_tapes():
                return _call_recorded(cf, values, value_canonical)
            return cf._call_values(values)
        except BaseException:
            self._detector.failed()   # as in TensorFlow, a failed call is not counted
            raise

    def _remember_fast(self, args, cf) -> None:
        """Lets later calls with the same positional tensor types and Python values (ints,
        bools, strings, None) skip canonical binding. Feeding must then be just the tensors."""
        key = []
        tensors = 0
        for a in args:
            t = type(a)
            if t is EagerTensor:
                key.append(a._value.dtype)
                key.append(a._value.shape)
                tensors += 1
            elif t is int or t is bool or t is str or a is None:
                key.append(t)
                key.append(a)
            else:
                return
        if tensors != len(cf._input_paths):  # defaults or *args hold tensors: not fast
            return
        fast = self._fast
        if len(fast) >= _FAST_CACHE_MAX:
            self._fast = fast = {}
        fast[tuple(key)] = cf

    def _call_in_graph(self, args, kwargs):
        """Called while another function traces: a call op to this function's own graph
        (`PartitionedCall`, or `StatefulPartitionedCall` when it has stateful ops), which
        the optimizer's function inlining can later inline."""
        key_canonical, value_canonical = self._canonical(args, kwargs)
        cf = self._lookup_or_trace(key_canonical)
        return cf.call_in_graph(value_canonical)

    # --- the cache -----------------------------------------------------------------------------
    def _canonical(self, args, kwargs) -> tuple[list, list]:
        """(canonical arguments for the key, canonical arguments for the values)."""
        try:
            canonical = canonicalize(self._signature, args, kwargs)
        except TypeError as e:
            raise TypeError(f"{self._name}{self._signature or '(...)'}: {e}") from None
        if self._input_signature is None:
            return canonical, canonical
        return input_signature_canonical(self._name, canonical, self._input_signature)

    def _lookup_or_trace(self, canonical) -> ConcreteFunction:
        key = make_key(canonical)
        cf = self._cache.get(key.key)
        if cf is not None:
            return cf
        with self._lock:
            cf = self._cache.get(key.key) or self._compatible(key)
            if cf is None:
                if self._reduce_retracing:
                    canonical = self._relaxed(canonical, key)
                cf = self._trace(canonical, key)
            self._cache[key.key] = cf
            return cf

    def _compatible(self, key) -> ConcreteFunction | None:
        """The most specific existing trace whose signature accepts this call."""
        best, best_dims = None, -1
        for sig, cf in self._traces:
            if sig.accepts(key) and sig.known_dims() > best_dims:
                best, best_dims = cf, sig.known_dims()
        return best

    def _relaxed(self, canonical, key):
        for sig, _ in reversed(self._traces):
            relaxed = sig.relax(canonical, key)
            if relaxed is not None:
                return relaxed
        return canonical

    def _trace(self, canonical, key) -> ConcreteFunction:
        created = []

        def on_variable_created(variable) -> None:
            if self._variables_frozen:
                raise ValueError(_VARIABLE_ERROR)
            created.append(variable)

        cf = trace_function(self.python_function, self._name, self._signature, canonical,
                            on_variable_created, self.executor, self._traced_callable())
        if created:
            # As TensorFlow: a first trace that created Variables is traced again with
            # creation forbidden. The guide's create-once pattern (`if self.v is None:`)
            # creates nothing the second time and captures the Variable; a Variable created
            # on every call raises TensorFlow's ValueError now, on the first call.
            self._variables_frozen = True
            self._tracing_count += 1
            cf = trace_function(self.python_function, self._name, self._signature, canonical,
                                on_variable_created, self.executor, self._traced_callable())
        self._detector.traced(key.leaves)   # only traces that succeeded count
        cf.last_used = self._detector.calls
        self._tracing_count += 1
        self._variables_frozen = True
        self._traces.append((signature_of(canonical), cf))
        self._evict()
        return cf

    def _evict(self) -> None:
        """Drops least recently used traces beyond `max_traces`. The first eviction warns;
        later ones are only counted (`evicted_traces`): a loop of distinct calls does not
        print a warning per call."""
        while self.max_traces is not None and len(self._traces) > self.max_traces:
            oldest = min(range(len(self._traces)),
                         key=lambda i: getattr(self._traces[i][1], "last_used", -1))
            _, old = self._traces.pop(oldest)
            self._cache = OrderedDict((k, v) for k, v in self._cache.items() if v is not old)
            self._fast = {k: v for k, v in self._fast.items() if v is not old}
            self.evicted_traces += 1
            if self.evicted_traces == 1:
                warnings.warn(
                    f"tf.function {self._name}: the trace cache is full ({self.max_traces} "
                    f"traces); evicting the least recently used trace "
                    f"{old.short_signature()}. Calling it again will "
                    "retrace. Raise `max_traces` or reduce the number of distinct signatures. "
                    f"Further evictions are not reported one by one; "
                    f"`{self._name}.evicted_traces` counts them.",
                    CacheEvictionWarning, stacklevel=5)

    def _traced_callable(self):
        """The function run while tracing: AutoGraph's conversion when autograph=True."""
        if not self._autograph or hooks.autograph is None:
            return self.python_function
        if self._converted is None:
            self._converted = hooks.autograph(self._python_function)
        return self._bind(self._converted)

    # --- methods: one Function per instance ----------------------------------------------------
    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        try:
            bound = self._bound_instances.get(instance)
        except TypeError:
            bound = instance.__dict__.get(f"_tf_function_{id(self)}")
        if bound is None:
            bound = Function(self._python_function, self._name, self._input_signature,
                             self._autograph, self._jit_compile, self._reduce_retracing,
                             self.max_traces, self.executor, _bound_to=instance)
            try:
                self._bound_instances[instance] = bound
            except TypeError:
                instance.__dict__[f"_tf_function_{id(self)}"] = bound
        return bound

    def __repr__(self):
        return f"<tracegraph Function {self._name}>"


def _check_signature(input_signature):
    if input_signature is None:
        return None
    specs = tuple(input_signature)
    for s in flatten(list(specs)):
        if not isinstance(s, TensorSpec):
            raise TypeError(f"input_signature must be a possibly nested sequence of "
                            f"TensorSpec objects, got {s!r}")
    return specs


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None, name=None, max_traces=DEFAULT_MAX_TRACES,
             executor="codegen"):
    """`tf.function`: as a decorator (with or without arguments) or called on a function.

    tracegraph extras: `max_traces` bounds the trace cache (the oldest traces are evicted with a
    `CacheEvictionWarning`); `executor` picks "codegen" (default),
    "interpreter" or "jit" (what `jit_compile=True` picks).
    """
    if experimental_relax_shapes:
        reduce_retracing = True
    if experimental_compile is not None and jit_compile is None:
        jit_compile = experimental_compile

    def decorate(f):
        return Function(f, name=name, input_signature=input_signature, autograph=autograph,
                        jit_compile=jit_compile, reduce_retracing=reduce_retracing,
                        max_traces=max_traces, executor=executor)
    if func is None:
        return decorate
    return decorate(func)



def _call_recorded(cf, values, value_canonical):
    """An eager call of `cf` under a GradientTape, as one tape entry (see taped_call.py); the
    loader's restored functions call it too."""
    return call_recorded(cf, values, value_canonical, Function)
