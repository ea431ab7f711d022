"""Automatic differentiation: `tf.GradientTape`, `tf.custom_gradient`, `tf.gradients`.

A tape is a recording hook on the context stack: entering `with tape:` wraps the current
context (eager or graph-building) in a `_Recording` context whose `apply` runs the op through
the wrapped context and, when an input is watched (or computed from a watched value), appends
an entry (the op record, its input and output tensors, its attrs) to the tape. It never asks
whether it runs eagerly or builds a graph: the same entries come out of both, holding eager
values or graph edges.

`tape.gradient` walks the entries backwards and calls each record's `gradient` rule. Rules are
written with ops, so eagerly they compute values and inside `tf.function` they append the
backward ops to the graph being traced. While a tape computes gradients it stops recording
itself, but tapes around it keep recording: that is how nested tapes give higher derivatives.

Variables are sources through their handle: an op given a Variable first reads it with a
recorded `ReadVariableOp`, and a trainable Variable read under a tape is watched automatically
(unless `watch_accessed_variables=False`).
"""

from __future__ import annotations

import contextlib
import enum
import functools
import os
import sys

import numpy as np

from .. import dtypes as d
from ..nest import flatten, pack_sequence_as
from ..ops import array as array_ops
from ..ops.math import add_n_op
from ..ops.registry import (
    GRADIENT_HOOKS,
    NO_ATTRS,
    bind,
    context_scope,
    current_context,
    resolve_type_attrs,
)
from ..ops.state import read_variable_op
from .tensor import Tensor
from .variables import ResourceHandle, Variable

__all__ = ["GradientTape", "UnconnectedGradients", "custom_gradient", "gradients",
           "backprop", "active_tapes", "record_custom"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class UnconnectedGradients(enum.Enum):
    """What `gradient` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


def _warn(message: str) -> None:
    """TensorFlow logs these on stderr (not as Python warnings): so do we, in its words."""
    print(f"WARNING:tensorflow:{message}", file=sys.stderr)


def _differentiable(dtype) -> bool:
    return dtype.is_floating or dtype.is_complex


def _key(x) -> int:
    """The identity a tape knows a value by: a Variable by its handle, a tensor by itself."""
    return id(x._handle) if isinstance(x, Variable) else id(x)


def _user_line() -> str:
    """Where in the user's code the current op is being created (`file:line`)."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if not (name.startswith(_PACKAGE_DIR) or name.startswith("<frozen")):
            return f"{name}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>"


class _Entry:
    """One recorded op: what a gradient rule sees as `op`."""

    __slots__ = ("op_def", "inputs", "outputs", "attrs", "rule", "where", "name", "skip")

    def __init__(self, op_def, inputs, outputs, attrs, rule, name=None):
        self.op_def = op_def
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs
        self.rule = rule
        self.name = name or (op_def.tf_type if op_def is not None else "CustomGradient")
        self.where = _user_line() if rule is None else None
        self.skip = ()  # indices of inputs whose gradient nobody asked for (rules may skip them)

    @property
    def type(self) -> str:
        return self.op_def.tf_type if self.op_def is not None else self.name

    def get_attr(self, name):
        return self.attrs[name]


def _dtype_of(x):
    if isinstance(x, (Tensor, Variable)):
        return x.dtype
    return None


class _Recording:
    """The context a tape installs: applies ops through the wrapped context, recording them."""

    __slots__ = ("inner", "tape")

    def __init__(self, inner, tape):
        self.inner = inner
        self.tape = tape

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def apply(self, op, inputs, attrs, name):
        tape = self.tape
        if not tape._recording:
            return self.inner.apply(op, inputs, attrs, name)
        tracked = tape._tracked
        for spec, x in zip(op.inputs, inputs):
            if spec.list_kind is None:
                if id(x) in tracked or isinstance(x, Variable):
                    break
            elif isinstance(x, (list, tuple)) and any(
                    id(v) in tracked or isinstance(v, Variable) for v in x):
                break
        else:
            return self.inner.apply(op, inputs, attrs, name)
        return tape._record_apply(self, op, inputs, attrs, name)

    def convert(self, value, dtype, dtype_hint, name):
        if isinstance(value, Variable) and self.tape._recording:
            t = self.apply(read_variable_op, (value,), {"dtype": value.dtype}, None)
            if dtype is not None and t.dtype is not dtype:
                raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor "
                                 f"with dtype {t.dtype.name}: {t!r}")
            return t
        return self.inner.convert(value, dtype, dtype_hint, name)


def active_tapes(ctx=None) -> list:
    """The recording tapes of the current context, innermost first."""
    ctx = current_context() if ctx is None else ctx
    out = []
    while isinstance(ctx, _Recording):
        if ctx.tape._recording:
            out.append(ctx.tape)
        ctx = ctx.inner
    return out


def _base_context(ctx=None):
    ctx = current_context() if ctx is None else ctx
    while isinstance(ctx, _Recording):
        ctx = ctx.inner
    return ctx


class GradientTape:
    """Records operations for automatic differentiation (`tf.GradientTape`)."""

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._persistent = bool(persistent)
        self._watch_accessed = bool(watch_accessed_variables)
        self._recording = False
        self._scope = None
        self._used = False
        self.reset()

    # --- recording ---------------------------------------------------------------------------
    def __enter__(self):
        if self._scope is not None:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter "
                             "an already-active tape.")
        self._scope = context_scope(_Recording(current_context(), self))
        self._scope.__enter__()
        self._recording = True
        return self

    def __exit__(self, *exc):
        self._recording = False
        scope, self._scope = self._scope, None
        scope.__exit__(*exc)
        return False

    def _push(self, x) -> None:
        if isinstance(x, Variable):
            key = id(x._handle)
            if key not in self._tracked:
                self._tracked[key] = x
                self._watched_vars.append(x)
            return
        if not isinstance(x, Tensor):
            raise ValueError(f"Passed in object {x!r} of type {type(x).__name__!r}, not "
                             "tf.Tensor or tf.Variable or ExtensionType.")
        if not _differentiable(x.dtype):
            _warn(f"The dtype of the watched tensor must be floating (e.g. tf.float32), "
                  f"got {x.dtype!r}")
        self._tracked[id(x)] = x

    def watch(self, tensor) -> None:
        """Watches a tensor, a Variable or a nested structure of them."""
        for x in flatten(tensor):
            self._push(x)

    def watched_variables(self) -> tuple:
        return tuple(self._watched_vars)

    @contextlib.contextmanager
    def stop_recording(self):
        """Ops run inside this block are not recorded (`with tape.stop_recording():`)."""
        if self._scope is None:
            raise ValueError("Tape must be recording when calling stop_recording.")
        was, self._recording = self._recording, False
        try:
            yield
        finally:
            self._recording = was

    def reset(self) -> None:
        """Forgets everything recorded so far (the tape keeps recording if it was)."""
        self._entries: list[_Entry] = []
        self._tracked: dict[int, object] = {}
        self._watched_vars: list[Variable] = []
        self._used = False

    def _record_apply(self, ctx, op, inputs, attrs, name):
        found = resolve_type_attrs(op, inputs, _dtype_of)
        new_inputs, flat = [], []
        for spec, x in zip(op.inputs, inputs):
            if spec.list_kind is None:
                v = self._prepare(ctx, op, spec, x, found)
                new_inputs.append(v)
                flat.append(v)
            else:
                vs = [self._prepare(ctx, op, spec, item, found) for item in x]
                new_inputs.append(vs)
                flat.extend(vs)
        out = ctx.inner.apply(op, tuple(new_inputs), attrs, name)
        flat = [self._resource(x) for x in flat]
        tracked = self._tracked
        if not self._recording or not any(_key(x) in tracked for x in flat):
            return out
        n = op.num_outputs
        outs = [out] if n == 1 else (list(out) if isinstance(out, list) else [])
        live = [o for o in outs if isinstance(o, Tensor) and _differentiable(o.dtype)]
        if not live:
            return out
        full = {**op.attr_defaults, **attrs} if attrs else op.attr_defaults
        self._entries.append(_Entry(op, flat, outs, full, op.gradient))
        for o in live:
            tracked[id(o)] = o
        return out

    def _prepare(self, ctx, op, spec, x, found):
        """An input as the tape needs it: Variables read through a recorded op, Python values
        converted to tensors (rules take tensors)."""
        if isinstance(x, Variable):
            if self._watch_accessed and x.trainable:
                self._push(x)
            if spec.fixed_dtype is d.resource:
                return x
            return ctx.apply(read_variable_op, (x,), {"dtype": x.dtype}, None)
        if isinstance(x, Tensor) or spec.fixed_dtype is d.resource:
            return x
        want = spec.fixed_dtype if spec.type_attr is None else found.get(spec.type_attr)
        if isinstance(want, tuple):
            want = None
        try:
            t = ctx.inner.convert(x, want, None, None)
        except (TypeError, ValueError):
            return x  # let the op report the bad value in its own words
        if want is None and spec.type_attr is not None:
            found.setdefault(spec.type_attr, t.dtype)
        return t

    def _resource(self, x):
        """A resource input as the tape knows it: the handle of a Variable (a graph's capture
        placeholder stands for the handle it captured). Trainable ones are watched on access."""
        if isinstance(x, Tensor):
            if x.dtype is not d.resource:
                return x
            x = _captured(x)
        if isinstance(x, ResourceHandle):
            owner = x.owner() if x.owner is not None else None
            if owner is not None and self._watch_accessed and owner.trainable:
                self._push(owner)
        return x

    def _record_custom(self, inputs, outputs, rule, name) -> None:
        inputs = [self._resource(x) for x in inputs]
        if not self._recording or not any(_key(x) in self._tracked for x in inputs):
            return
        self._entries.append(_Entry(None, list(inputs), list(outputs), NO_ATTRS, rule, name))
        for o in outputs:
            if isinstance(o, Tensor) and _differentiable(o.dtype):
                self._tracked[id(o)] = o

    # --- differentiating -----------------------------------------------------------------------
    def _check_usable(self) -> None:
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one "
                               "set of gradients (or jacobians)")

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(sum of target)/d(source) for every source, in the structure of `sources`."""
        self._check_usable()
        unconnected = UnconnectedGradients(unconnected_gradients)
        flat_sources = flatten(sources)
        try:
            result = self._gradient(flatten(target), flat_sources, output_gradients, unconnected)
        finally:
            if not self._persistent:
                self._used = True
                self._entries, self._tracked = [], {}
        return pack_sequence_as(sources, result)

    def _gradient(self, targets, sources, output_gradients, unconnected):
        for s in sources:
            if not isinstance(s, (Tensor, Variable)):
                raise TypeError(f"GradientTape.gradient sources must be tensors or Variables, "
                                f"got {s!r}")
        if output_gradients is not None:
            output_gradients = flatten(output_gradients)
            if len(output_gradients) != len(targets):
                raise ValueError(f"output_gradients has {len(output_gradients)} values for "
                                 f"{len(targets)} targets")
        was, self._recording = self._recording, False
        try:
            seeds = []
            for i, t in enumerate(targets):
                g = None if output_gradients is None else output_gradients[i]
                if not _differentiable(t.dtype):
                    continue  # no gradient flows from an integer target (None, as TF)
                if g is None:
                    g = _ones_for(t)
                seeds.append((_key(t), g))
            keys = []
            for s in sources:
                if not _differentiable(s.dtype):
                    keys.append(None)  # integer sources get None (TF warned on watch)
                else:
                    keys.append(_key(s))
            found = backprop(self._entries, seeds, {k for k in keys if k is not None})
            return [_finish(found.get(k) if k is not None else None, s, unconnected)
                    for k, s in zip(keys, sources)]
        finally:
            self._recording = was

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d(target[i...])/d(source[j...]): shape target.shape + source.shape per source."""
        self._check_usable()
        unconnected = UnconnectedGradients(unconnected_gradients)
        flat_sources = flatten(sources)
        target = _as_tensor(target)
        shape = _static_shape(target, "jacobian")
        n = int(np.prod(shape, dtype=np.int64))
        rows = [[] for _ in flat_sources]
        try:
            for i in range(n):
                seed = np.zeros(n, dtype=target.dtype.as_numpy_dtype)
                seed[i] = 1
                grads = self._gradient([target], flat_sources, [seed.reshape(shape)],
                                       UnconnectedGradients.NONE)
                for row, g in zip(rows, grads):
                    row.append(g)
        finally:
            if not self._persistent:
                self._used = True
                self._entries, self._tracked = [], {}
        out = []
        for s, row in zip(flat_sources, rows):
            src_shape = tuple(_static_shape(s, "jacobian"))
            out.append(_stack_rows(row, s, tuple(shape) + src_shape, unconnected, axis=0))
        return pack_sequence_as(sources, out)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per example b: d(target[b, ...])/d(source[b, ...]), shape
        [batch] + target.shape[1:] + source.shape[1:]."""
        self._check_usable()
        unconnected = UnconnectedGradients(unconnected_gradients)
        target = _as_tensor(target)
        shape = _static_shape(target, "batch_jacobian")
        src_shape = _static_shape(source, "batch_jacobian")
        if not shape or not src_shape or shape[0] != src_shape[0]:
            raise ValueError(f"Need first dimension of `target` shape ({shape}) and `source` "
                             f"shape ({src_shape}) to match.")
        batch, n = shape[0], int(np.prod(shape[1:], dtype=np.int64))
        cols = []
        try:
            for j in range(n):
                seed = np.zeros((batch, n), dtype=target.dtype.as_numpy_dtype)
                seed[:, j] = 1
                (g,) = self._gradient([target], [source], [seed.reshape(shape)],
                                      UnconnectedGradients.NONE)
                cols.append(g)
        finally:
            if not self._persistent:
                self._used = True
                self._entries, self._tracked = [], {}
        return _stack_rows(cols, source, tuple(shape) + tuple(src_shape[1:]), unconnected,
                           axis=1, batch=batch)


def _captured(x):
    """The outside value a graph's capture placeholder stands for (itself if none)."""
    graph = getattr(x, "graph", None)
    while graph is not None:
        for external, placeholder in getattr(graph, "captures", {}).values():
            if placeholder is x:
                if not isinstance(external, Tensor):
                    return external
                x, graph = external, getattr(external, "graph", None)
                break
        else:
            return x
    return x


def _ones_for(t):
    """The seed of a target's gradient: a constant when its shape is static (the optimizer
    folds what the backward pass does with it)."""
    dims = t.shape.as_list() if t.shape.rank is not None else None
    if dims is not None and None not in dims:
        from ..ops.registry import convert_to_tensor
        return convert_to_tensor(np.ones(dims, dtype=t.dtype.as_numpy_dtype))
    return array_ops.ones_like(t.read_value() if isinstance(t, Variable) else t)


def _as_tensor(x):
    from ..ops.registry import convert_to_tensor
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def _static_shape(x, what) -> list:
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if dims is None or any(v is None for v in dims):
        raise ValueError(f"GradientTape.{what} needs a fully known static shape, got "
                         f"{x.shape} for {getattr(x, 'name', x)}")
    return dims


def _stack_rows(rows, source, full_shape, unconnected, axis, batch=None):
    if all(r is None for r in rows):
        if unconnected is UnconnectedGradients.NONE:
            return None
        return array_ops.zeros(full_shape, source.dtype)
    rows = [r if r is not None else array_ops.zeros_like(_as_tensor(source)) for r in rows]
    from ..ops.pieces import stack
    stacked = stack(rows, axis=axis)
    return array_ops.reshape(stacked, full_shape)


def _finish(grad, source, unconnected):
    if grad is not None:
        return grad
    if unconnected is UnconnectedGradients.ZERO:
        return array_ops.zeros(source.shape.as_list(), source.dtype) \
            if isinstance(source, Variable) else array_ops.zeros_like(source)
    return None


def _sum(grads):
    if len(grads) == 1:
        return grads[0]
    return bind(add_n_op, (grads,))


def backprop(entries, seeds, source_keys, key=_key) -> dict:
    """Reverse accumulation over `entries` (ops in creation order, each with `inputs`,
    `outputs`, `attrs` and a rule): returns {source key: gradient}. `seeds` are
    (key of a target, its upstream gradient)."""
    reach = set(source_keys)
    used = []
    for e in entries:
        for x in e.inputs:
            if key(x) in reach:
                used.append(e)
                reach.update(id(o) for o in e.outputs)
                break
    grads: dict[int, list] = {}
    for k, g in seeds:
        if k in reach:
            grads.setdefault(k, []).append(g)
    for e in reversed(used):
        outs = [grads.get(id(o)) for o in e.outputs]
        if all(g is None for g in outs):
            continue
        rule = getattr(e, "rule", None) if isinstance(e, _Entry) else e.op_def.gradient
        if rule is None:
            where = e.where if isinstance(e, _Entry) else e.source
            raise LookupError(f"No gradient defined for operation '{e.name}' (op type: "
                              f"{e.type}). It was created at {where}. Stop the gradient "
                              "(tf.stop_gradient) or use tf.custom_gradient.")
        upstream = []
        for o, g in zip(e.outputs, outs):
            if g is not None:
                upstream.append(_sum(g))
            elif len(e.outputs) > 1 and _differentiable(o.dtype):
                upstream.append(array_ops.zeros_like(o))
            else:
                upstream.append(None)
        if isinstance(e, _Entry):
            e.skip = tuple(i for i, x in enumerate(e.inputs) if key(x) not in reach)
        result = rule(e, *upstream)
        if not isinstance(result, (list, tuple)):
            result = (result,)
        for x, g in zip(e.inputs, result):
            if g is None:
                continue
            k = key(x)
            if k in reach:
                grads.setdefault(k, []).append(g)
    return {k: _sum(grads[k]) for k in source_keys if k in grads}


# ---- tf.custom_gradient --------------------------------------------------------------------

def record_custom(inputs, outputs, rule, name="CustomGradient") -> None:
    """Records a computation with a hand-written rule on every recording tape."""
    for tape in active_tapes():
        tape._record_custom(inputs, outputs, rule, name)


def custom_gradient(f=None):
    """`@tf.custom_gradient`: `f(*x)` returns `(y, grad_fn)`; `grad_fn(*dy)` returns the
    gradients of the tensor arguments (and, with `variables=`, of the Variables f used)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        tapes = active_tapes()
        if not tapes:
            result, _ = f(*args, **kwargs)
            return result
        with context_scope(_base_context()):
            with GradientTape() as probe:
                result, grad_fn = f(*args, **kwargs)
            variables = list(probe.watched_variables())
            flat_out = flatten(result)
            outs = [array_ops.identity(o) if isinstance(o, (Tensor, Variable)) else o
                    for o in flat_out]
        tensor_args = [a for a in flatten(args) if isinstance(a, (Tensor, Variable))]
        n_args = len(tensor_args)

        def rule(op, *dys):
            dys = [dy for dy, o in zip(dys, outs) if isinstance(o, Tensor)]
            if variables:
                dx, dv = grad_fn(*dys, variables=variables)
            else:
                dx, dv = grad_fn(*dys), []
            dx = list(dx) if isinstance(dx, (list, tuple)) else [dx]
            if len(dx) != n_args:
                raise ValueError(f"custom_gradient function expected to return {n_args} "
                                 f"gradients, but returned {len(dx)} instead.")
            return dx + list(dv)

        inputs = tensor_args + variables
        live = [o for o in outs if isinstance(o, Tensor)]
        for tape in tapes:
            tape._record_custom(inputs, live, rule, f.__name__)
        return pack_sequence_as(result, outs)

    return decorated


# ---- tf.gradients: differentiate a graph being built ---------------------------------------

def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """`tf.gradients`: symbolic gradients inside a `tf.function` (no tape needed)."""
    ctx = _base_context()
    graph = getattr(ctx, "graph", None)
    if graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    unconnected = UnconnectedGradients(unconnected_gradients)
    ys, flat_xs = flatten(ys), flatten(xs)
    grad_ys = [None] * len(ys) if grad_ys is None else flatten(grad_ys)
    keys = []
    for x in flat_xs:
        if isinstance(x, Variable):
            found = graph.captures.get(id(x._handle))
            keys.append(id(found[1]) if found is not None else id(x._handle))
        else:
            keys.append(id(x))
    stop = {id(s) for s in flatten(stop_gradients)} if stop_gradients is not None else set()
    entries = [op for op in graph.operations if not any(id(o) in stop for o in op.outputs)]
    seeds = [(id(y), g if g is not None else array_ops.ones_like(y)) for y, g in zip(ys, grad_ys)]
    with context_scope(ctx):
        found = backprop(entries, seeds, set(keys), key=id)
        return [_finish(found.get(k), x, unconnected) for k, x in zip(keys, flat_xs)]


# ---- the gradient of a traced graph (function calls, control-flow branches) ----------------

def graph_gradient(graph, inputs, output_grads):
    """Gradients of `graph`'s outputs w.r.t. `inputs` (its placeholders then its captures),
    by running the graph's ops again under a tape in the current context."""
    with GradientTape(watch_accessed_variables=False) as tape:
        watched = []
        for x in inputs:
            if isinstance(x, Tensor) and _differentiable(x.dtype):
                x = array_ops.identity(x)
                tape.watch(x)
            elif isinstance(x, ResourceHandle) or (isinstance(x, Tensor) and
                                                   x.dtype is d.resource):
                tape._tracked[id(x)] = x
            watched.append(x)
        outs = replay(graph, watched)
    tape._recording = False
    seeds = [(id(o), g) for o, g in zip(outs, output_grads)
             if g is not None and (isinstance(o, (Tensor, ResourceHandle)))]
    keys = [id(w) for w in watched]
    found = backprop(tape._entries, seeds, set(keys))
    return [found.get(k) for k in keys]


def replay(graph, inputs) -> list:
    """Runs `graph`'s ops through `bind` on `inputs` (for its placeholders, then captures)."""
    values = {}
    for ph, v in zip(list(graph.inputs) + list(graph.capture_placeholders), inputs):
        values[id(ph)] = v
    for op in graph.operations:
        if op.type == "Placeholder" or op.op_def.tf_type == "NoOp":
            continue
        args = op.grouped_inputs([values.get(id(t), t) for t in op.inputs])
        out = bind(op.op_def, tuple(args), _bind_attrs(op), None)
        if op.op_def.num_outputs == 1:
            values[id(op.outputs[0])] = out
        elif isinstance(out, list):
            for o, v in zip(op.outputs, out):
                values[id(o)] = v
    return [values.get(id(t), t) for t in graph.outputs]


def _bind_attrs(op) -> dict:
    return {k: v for k, v in op.attrs.items()
            if k not in op.op_def.type_attrs and not k.startswith("_")}


GRADIENT_HOOKS["function"] = graph_gradient
GRADIENT_HOOKS["replay"] = replay
