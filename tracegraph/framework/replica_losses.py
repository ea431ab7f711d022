"""`tf.nn.compute_average_loss` and `tf.nn.scale_regularization_loss`: losses scaled for the
replicas of the current distribution strategy (one replica outside any), as TensorFlow's
custom training loops write them."""

from __future__ import annotations

from .. import dtypes as d
from ..library.array import expand_dims, shape, squeeze
from ..library.logging import ASSERTS
from ..library.math import cast, divide, divide_no_nan, multiply
from ..library.reduce import reduce_sum
from ..ops.registry import convert_to_tensor
from .distribution import get_strategy, has_strategy, in_cross_replica_context

__all__ = ["compute_average_loss", "scale_regularization_loss"]


def _replicas(what):
    if has_strategy() and in_cross_replica_context():
        raise RuntimeError(f"You are calling `{what}` in cross replica context, while it was "
                           f"expected to be called in replica context.")
    return get_strategy().num_replicas_in_sync


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """sum(per_example_loss * sample_weight) / global batch size (the per-replica batch times
    the replicas when not given); 0 when the global batch size is 0. Weighting is computed in
    float32, as TensorFlow's `scale_losses_by_sample_weight` does."""
    per_example_loss = convert_to_tensor(per_example_loss)
    dtype = per_example_loss.dtype
    if per_example_loss.shape.rank == 0:
        raise ValueError(f"Invalid value passed for `per_example_loss`. Expected a tensor with "
                         f"at least rank 1. Received per_example_loss={per_example_loss} with "
                         f"rank 0")
    if sample_weight is not None:
        losses = cast(per_example_loss, d.float32)
        sample_weight = cast(convert_to_tensor(sample_weight), d.float32)
        lr, wr = losses.shape.rank, sample_weight.shape.rank
        if lr is not None and wr is not None:   # TensorFlow's squeeze_or_expand_dimensions
            if wr == lr + 1 and sample_weight.shape.as_list()[-1] in (1, None):
                sample_weight = squeeze(sample_weight, [-1])
            elif wr == lr - 1:
                sample_weight = expand_dims(sample_weight, -1)
        per_example_loss = cast(multiply(losses, sample_weight), dtype)
    if global_batch_size is None:
        global_batch_size = multiply(shape(per_example_loss)[0],
                                     _replicas("compute_average_loss"))
    global_batch_size = convert_to_tensor(global_batch_size)
    if global_batch_size.shape.rank not in (None, 0):
        raise ValueError(f"global_batch_size must be scalar..  Expected scalar shape, saw "
                         f"shape: {global_batch_size.shape}.")
    if not global_batch_size.dtype.is_integer:
        raise TypeError(f"global_batch_size must be an integer..  Expected \"x\" to be integer "
                        f"type.  Found: tensor of dtype {global_batch_size.dtype}")
    ASSERTS["assert_non_negative"](global_batch_size,
                                   message="global_batch_size must be non-negative.")
    return divide_no_nan(reduce_sum(per_example_loss), cast(global_batch_size, dtype))


def scale_regularization_loss(regularization_loss):
    """sum(regularization_loss) / the replicas in sync (integers divide into floats)."""
    replicas = _replicas("scale_regularization_loss")
    return divide(reduce_sum(convert_to_tensor(regularization_loss)), replicas)
