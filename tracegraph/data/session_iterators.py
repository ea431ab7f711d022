"""The records of TF1's dataset iterators, whose state a `tf.compat.v1.Session` keeps:
`IteratorV2`, the handle (no kernel: each Session feeds it an iterator of its own), and
`_OneShotGetNext`, the next element of an iterator that starts itself on its dataset the first
time (TF1's `make_one_shot_iterator`). `MakeIterator` and `IteratorGetNext` (iterators.py)
start and advance the others."""

from __future__ import annotations

from ..ops.registry import defop
from ..shapes import TensorType
from .records import VARIANT

__all__ = ["iterator_v2_op", "one_shot_get_next_op"]


def _infer_handle(shared_name="", container="", output_types=(), output_shapes=()):
    return VARIANT


iterator_v2_op = defop(
    "iterator_v2", "IteratorV2",
    attrs={"shared_name": "", "container": "", "output_types": (), "output_shapes": ()},
    infer=_infer_handle, kernel=None, flags={"placeholder"})


def _infer_one_shot(dataset, iterator, output_types=(), output_shapes=()):
    return tuple(TensorType(t, s) for t, s in zip(output_types, output_shapes))


def _kernel_one_shot(dataset, iterator, output_types=(), output_shapes=()):
    if iterator.node is None:
        iterator.start(dataset)
    return iterator.next_components()


one_shot_get_next_op = defop(
    "one_shot_get_next", "_OneShotGetNext", inputs=("dataset: variant", "iterator: variant"),
    attrs={"output_types": (), "output_shapes": ()}, infer=_infer_one_shot,
    kernel=_kernel_one_shot, stateful=True, num_outputs=None, flags={"external_state"})
