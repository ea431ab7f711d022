"""`tf.__internal__`: the part of TensorFlow's internal API that libraries built on it (Keras)
use — tracking base classes, abstract tensor types, the graph class, `smart_cond`, the
default-strategy helpers."""

from __future__ import annotations

import contextlib
from types import SimpleNamespace as _Namespace

from ..framework import distribution as _distribution
from ..framework import tracking as _tracking
from ..framework.core_types import CompositeTensor
from ..framework.core_types import Tensor as _CoreTensor
from ..framework.module import init_scope as _init_scope
from ..framework.tensor import EagerTensor
from ..graph.graph import FuncGraph
from ..graph.tensor import SymbolicTensor
from ..trace.control_flow import cond as _cond

__all__ = ["tracking", "types", "CompositeTensor", "EagerTensor", "SymbolicTensor", "FuncGraph",
           "smart_cond", "tf2", "eager_context", "distribute"]

tracking = _Namespace(
    Trackable=_tracking.Trackable,
    AutoTrackable=_tracking.AutoTrackable,
    TrackableReference=_tracking.TrackableReference,
    no_automatic_dependency_tracking=_tracking.no_automatic_dependency_tracking,
    sticky_attribute_assignment=_tracking.sticky_attribute_assignment,
    wrap=_tracking.wrap_or_unwrap,
)

types = _Namespace(Tensor=_CoreTensor)


def _smart_cond(pred, true_fn=None, false_fn=None, name=None):
    """`tf.__internal__.smart_cond.smart_cond`: a Python bool or a tensor whose value is known
    (eager, or a graph constant) picks its branch in Python; otherwise `tf.cond`."""
    if isinstance(pred, bool):
        return true_fn() if pred else false_fn()
    known = getattr(pred, "known_value", None)   # an eager value, or a graph constant's
    if known is not None:
        return true_fn() if bool(known) else false_fn()
    return _cond(pred, true_fn, false_fn, name=name)


@contextlib.contextmanager
def _eager_mode():
    """Runs the block eagerly, out of any graph being built (TF's `context.eager_mode`)."""
    with _init_scope():
        yield


smart_cond = _Namespace(smart_cond=_smart_cond)
tf2 = _Namespace(enabled=lambda: True)
eager_context = _Namespace(eager_mode=_eager_mode)
distribute = _Namespace(
    interim=_Namespace(maybe_merge_call=_distribution.maybe_merge_call),
    strategy_supports_no_merge_call=_distribution.strategy_supports_no_merge_call,
)
