"""`CTCLoss`: the connectionist temporal classification loss of each sequence and its gradient
w.r.t. the logits (TensorFlow's fused op: labels as a sparse matrix's indices and values, the
blank label last, logits time-major). Forward-backward in log space, per batch entry."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError, UnimplementedError
from ..shapes import TensorType
from .registry import TypeAttr, defop

__all__ = ["ctc_loss_op", "ctc_greedy_decoder_op"]


def _log_softmax(x):
    shifted = x - x.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _logsumexp(*terms):
    stacked = np.stack(terms)
    top = stacked.max(axis=0)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return safe + np.log(np.exp(stacked - safe).sum(axis=0))


def _shift(a, k, fill=-np.inf):
    """`a` moved k places right (left when k < 0), `fill` coming in."""
    out = np.full_like(a, fill)
    if abs(k) < len(a):
        if k > 0:
            out[k:] = a[:-k]
        else:
            out[:k] = a[-k:]
    return out


def _one_sequence(lp, label, blank):
    """(loss, d loss / d logits) of one sequence: lp [T, C] log-probabilities."""
    steps = lp.shape[0]
    ext = np.full(2 * len(label) + 1, blank, np.int64)
    ext[1::2] = label
    n = len(ext)
    # a step may skip the blank between two different labels
    skip = np.zeros(n, bool)
    skip[2:] = (ext[2:] != blank) & (ext[2:] != ext[:-2])
    alpha = np.full((steps, n), -np.inf)
    alpha[0, :min(2, n)] = lp[0, ext[:min(2, n)]]
    for t in range(1, steps):
        prev = alpha[t - 1]
        two = np.where(skip, _shift(prev, 2), -np.inf)
        alpha[t] = lp[t, ext] + _logsumexp(prev, _shift(prev, 1), two)
    beta = np.full((steps, n), -np.inf)
    beta[-1, -min(2, n):] = 0.0
    for t in range(steps - 2, -1, -1):
        nxt = beta[t + 1] + lp[t + 1, ext]
        two = np.where(_shift(skip, -2, False), _shift(nxt, -2), -np.inf)
        beta[t] = _logsumexp(nxt, _shift(nxt, -1), two)
    log_p = _logsumexp(alpha[-1, -1], alpha[-1, -2] if n > 1 else -np.inf)
    occupancy = alpha + beta - log_p                     # log P(path at s at t | label)
    grad = np.exp(lp)
    for k in np.unique(ext):
        grad[:, k] -= np.exp(_logsumexp(*occupancy[:, ext == k].T))
    return -log_p, grad


def kernel_ctc_loss(inputs, labels_indices, labels_values, sequence_length,
                    preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                    ignore_longer_outputs_than_inputs=False):
    x = np.asarray(inputs)
    indices, values = np.asarray(labels_indices), np.asarray(labels_values)
    lengths = np.asarray(sequence_length)
    if x.ndim != 3:
        raise InvalidArgumentError("inputs is not a 3-Tensor")
    steps, batch, classes = x.shape
    if lengths.shape != (batch,):
        raise InvalidArgumentError(f"len(sequence_length) != batch_size.  len(sequence_length):"
                                   f"  {lengths.size} batch_size: {batch}")
    if not ctc_merge_repeated:
        raise UnimplementedError("CTCLoss with ctc_merge_repeated=False (repeated labels "
                                 "read as separate labels) is not implemented in tracegraph")
    blank = classes - 1
    loss = np.zeros(batch, x.dtype)
    grad = np.zeros_like(x)
    for b in range(batch):
        rows = indices[:, 0] == b
        label = values[rows][np.argsort(indices[rows, 1], kind="stable")].astype(np.int64)
        if preprocess_collapse_repeated and label.size:
            label = label[np.concatenate([[True], label[1:] != label[:-1]])]
        if ((label < 0) | (label >= blank)).any():
            raise InvalidArgumentError(f"Saw a non-null label (index >= num_classes - 1) "
                                       f"following a null label, batch: {b} num_classes: "
                                       f"{classes} labels: {','.join(map(str, label))}")
        t = int(lengths[b])
        if t > steps:
            raise InvalidArgumentError(f"sequence_length({b}) <= {steps}")
        required = len(label) + int((label[1:] == label[:-1]).sum())
        if t < required or t == 0:
            if ignore_longer_outputs_than_inputs:
                continue
            raise InvalidArgumentError(f"Not enough time for target transition sequence "
                                       f"(required: {required}, available: {t})")
        lp = _log_softmax(x[:t, b].astype(np.float64))
        value, g = _one_sequence(lp, label, blank)
        loss[b] = value
        grad[:t, b] = g
    return loss, grad


def infer_ctc_loss(inputs, labels_indices, labels_values, sequence_length, **_):
    shape = inputs.shape
    if shape is not None and len(shape) != 3:
        raise ValueError(f"Shape must be rank 3 but is rank {len(shape)}")
    batch = None if shape is None else shape[1]
    return (TensorType(inputs.dtype, (batch,)), TensorType(inputs.dtype, shape))


ctc_loss_op = defop(
    "ctc_loss", "CTCLoss",
    inputs=("inputs: T", "labels_indices: int64", "labels_values: int32",
            "sequence_length: int32"),
    attrs={"T": TypeAttr({d.float32, d.float64}, d.float32),
           "preprocess_collapse_repeated": False, "ctc_merge_repeated": True,
           "ignore_longer_outputs_than_inputs": False},
    infer=infer_ctc_loss, kernel=kernel_ctc_loss, num_outputs=2, flags={"pure"})


# ---- greedy decoding: the best class of each frame, repeats merged, blanks dropped ----------

def kernel_ctc_greedy_decoder(inputs, sequence_length, merge_repeated=False, blank_index=-1):
    x = np.asarray(inputs)
    lengths = np.asarray(sequence_length)
    if x.ndim != 3:
        raise InvalidArgumentError("inputs is not a 3-Tensor")
    steps, batch, classes = x.shape
    if lengths.shape != (batch,):
        raise InvalidArgumentError(f"len(sequence_length) != batch_size.  len(sequence_length):"
                                   f"  {lengths.size} batch_size: {batch}")
    blank = blank_index % classes if blank_index < 0 else blank_index
    rows, scores = [], np.zeros((batch, 1), x.dtype)
    for b in range(batch):
        t = int(lengths[b])
        if t > steps:
            raise InvalidArgumentError(f"sequence_length({b}) <= {steps}")
        best = x[:t, b].argmax(axis=-1) if t else np.zeros(0, np.int64)
        scores[b, 0] = -x[:t, b].max(axis=-1).sum() if t else 0
        keep = best != blank
        if merge_repeated:
            keep &= np.concatenate([[True], best[1:] != best[:-1]])
        rows.append(best[keep].astype(np.int64))
    indices = np.array([[b, i] for b, row in enumerate(rows) for i in range(len(row))],
                       np.int64).reshape(-1, 2)
    values = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    shape = np.array([batch, max((len(r) for r in rows), default=0)], np.int64)
    return indices, values.astype(np.int64), shape, scores


def infer_ctc_greedy_decoder(inputs, sequence_length, **_):
    shape = inputs.shape
    if shape is not None and len(shape) != 3:
        raise ValueError(f"Shape must be rank 3 but is rank {len(shape)}")
    batch = None if shape is None else shape[1]
    return (TensorType(d.int64, (None, 2)), TensorType(d.int64, (None,)),
            TensorType(d.int64, (2,)), TensorType(inputs.dtype, (batch, 1)))


ctc_greedy_decoder_op = defop(
    "ctc_greedy_decoder", "CTCGreedyDecoder", inputs=("inputs: T", "sequence_length: int32"),
    attrs={"T": TypeAttr({d.float32, d.float64}, d.float32), "merge_repeated": False,
           "blank_index": -1},
    infer=infer_ctc_greedy_decoder, kernel=kernel_ctc_greedy_decoder, num_outputs=4,
    flags={"pure", "data_dependent_shape"})
