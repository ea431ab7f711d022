"""`tf.nn.ctc_loss`: labels dense (padded, with their lengths) or a `tf.SparseTensor`, logits
time-major or batch-major, any blank index, computed as TensorFlow's CPU path for sparse labels
does: the blank moved to the last class, the labels made sparse, one `CTCLoss`."""

from __future__ import annotations

from .. import dtypes as d
from ..ops.ctc import ctc_loss_op
from ..ops.registry import NO_ATTRS, bind, convert_to_tensor
from .array import shape, transpose
from .indexing import gather_nd, sequence_mask, where
from .join_split import concat
from .math import cast, less, subtract

__all__ = ["ctc_loss"]


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
             blank_index=None, name=None):
    """The negative log-probability of each label sequence under the per-frame `logits`
    (`[frames, batch, classes]`, or `[batch, frames, classes]` when not time-major); `unique`
    is an optimization TensorFlow may use and is not needed here."""
    sparse = hasattr(labels, "indices") and hasattr(labels, "dense_shape")
    if sparse and blank_index is None:
        raise ValueError("Argument `blank_index` must be provided when `labels` is a "
                         "`SparseTensor`.")
    logits = convert_to_tensor(logits)
    if not logits_time_major:
        logits = transpose(logits, [1, 0, 2])
    classes = logits.shape.as_list()[-1] if logits.shape.rank else None
    blank = 0 if blank_index is None else int(blank_index)
    if blank < 0:
        if classes is None:
            raise ValueError("a negative blank_index needs the number of classes known")
        blank += classes
    if sparse:
        indices, values = labels.indices, cast(labels.values, d.int32)
    else:
        labels = convert_to_tensor(labels)
        mask = sequence_mask(label_length, shape(labels)[1])
        indices = where(mask)
        values = cast(gather_nd(labels, indices), d.int32)
    if classes is None or blank != classes - 1:   # TensorFlow's kernel takes the blank last
        logits = concat([logits[:, :, :blank], logits[:, :, blank + 1:],
                         logits[:, :, blank:blank + 1]], 2)
        values = where(less(values, blank), values, subtract(values, 1))
    loss, _ = bind(ctc_loss_op, (logits, cast(indices, d.int64), values,
                                 cast(logit_length, d.int32)), NO_ATTRS, name)
    return loss

