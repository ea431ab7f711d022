"""`tf.nn.ctc_greedy_decoder`: the decoded label sequences as a `tf.SparseTensor` (which is
why it lives beside the sparse tensor rather than in library/)."""

from __future__ import annotations

from ..ops.ctc import ctc_greedy_decoder_op
from ..ops.registry import bind
from .sparse import SparseTensor

__all__ = ["ctc_greedy_decoder"]


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """The best class of each frame (`inputs` time-major), repeats merged when
    `merge_repeated`, blanks (the last class unless `blank_index`) dropped: ([the decoded
    labels as a SparseTensor], -(sum of each sequence's best logits) as [batch, 1])."""
    attrs = {"merge_repeated": bool(merge_repeated),
             "blank_index": -1 if blank_index is None else int(blank_index)}
    indices, values, dense_shape, log_probabilities = bind(
        ctc_greedy_decoder_op, (inputs, sequence_length), attrs, None)
    return [SparseTensor(indices, values, dense_shape)], log_probabilities
