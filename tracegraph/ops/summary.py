"""Summary ops: `tf.summary` writes as stateful ops, eagerly and inside `tf.function` graphs.

Like `tf.print`, a write is a stateful op: a graph runs it at every call, in program order, even
though no output depends on it. The writer is a resource: its handle's `.value` is an event-file
writer object of the TensorBoard format (`formats/tensorboard/`), with `write_tensor(step, tag,
array, metadata: bytes)` and `flush()`. The kernels only call those methods; the format builds
the protobuf messages (importing the `tensorboard` extra only when a writer is created).
"""

from __future__ import annotations

import numpy as np

from ..errors import FailedPreconditionError
from .registry import ALL_TYPES, REAL, TypeAttr, defop

DEFAULT_BUCKET_COUNT = 30


def _writer(handle):
    writer = handle.value
    if writer is None:
        raise FailedPreconditionError(
            "The summary writer was closed; create a new one with "
            "tf.summary.create_file_writer(logdir).")
    return writer


def _text(value) -> str:
    v = np.asarray(value)[()]
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)


def kernel_write_summary(writer, step, tensor, tag, summary_metadata):
    metadata = np.asarray(summary_metadata)[()]
    metadata = metadata if isinstance(metadata, bytes) else str(metadata).encode("utf-8")
    _writer(writer).write_tensor(int(step), _text(tag), np.asarray(tensor), metadata)


def histogram_buckets(values, bucket_count: int = DEFAULT_BUCKET_COUNT) -> np.ndarray:
    """TensorBoard's histogram tensor: `[bucket_count, 3]` rows of (left, right, count), float64.

    Equal-width buckets from min to max; all-equal data puts every count in the last bucket with
    both edges at the value; empty data gives zeros (the layout `tf.summary.histogram` writes)."""
    data = np.asarray(values, dtype=np.float64).reshape(-1)
    if bucket_count <= 0:
        return np.zeros((0, 3))
    if data.size == 0:
        return np.zeros((bucket_count, 3))
    low, high = data.min(), data.max()
    if high == low:
        counts = np.zeros(bucket_count)
        counts[-1] = data.size
        edges = np.full(bucket_count, high)
        return np.stack([edges, edges, counts]).T
    width = (high - low) / bucket_count
    index = np.minimum(np.floor((data - low) / width).astype(np.int64), bucket_count - 1)
    counts = np.bincount(index, minlength=bucket_count).astype(np.float64)
    edges = np.linspace(low, high, bucket_count + 1)
    edges[-1] = high
    return np.stack([edges[:-1], edges[1:], counts]).T


def kernel_write_histogram(writer, step, tag, values, summary_metadata, buckets=30):
    kernel_write_summary(writer, step, histogram_buckets(values, buckets), tag, summary_metadata)


def kernel_flush(writer):
    if writer.value is not None:
        writer.value.flush()


def _no_outputs(*_, **__):
    return ()


write_summary_op = defop(
    "write_summary", "WriteSummary",
    inputs=("writer: resource", "step: int64", "tensor: T", "tag: string",
            "summary_metadata: string"),
    attrs={"T": TypeAttr(ALL_TYPES)}, infer=_no_outputs, kernel=kernel_write_summary,
    num_outputs=0, stateful=True)

# TensorFlow's own kernel of this op writes a v1 HistogramProto; tracegraph's writes the bucket
# tensor `tf.summary.histogram` writes in TensorFlow 2 (TensorBoard reads both), and carries
# the summary metadata as an input like `WriteSummary`.
write_histogram_summary_op = defop(
    "write_histogram_summary", "WriteHistogramSummary",
    inputs=("writer: resource", "step: int64", "tag: string", "values: T",
            "summary_metadata: string"),
    attrs={"T": TypeAttr(REAL), "buckets": DEFAULT_BUCKET_COUNT}, infer=_no_outputs,
    kernel=kernel_write_histogram, num_outputs=0, stateful=True)

flush_summary_writer_op = defop(
    "flush_summary_writer", "FlushSummaryWriter", inputs=("writer: resource",),
    infer=_no_outputs, kernel=kernel_flush, num_outputs=0, stateful=True)

__all__ = ["write_summary_op", "write_histogram_summary_op", "flush_summary_writer_op",
           "histogram_buckets"]
