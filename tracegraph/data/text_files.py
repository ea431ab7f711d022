"""`tf.data.TextLineDataset`: the lines of text files, as TensorFlow reads them.

Lines end at `\\n`; a `\\r` before it is dropped (so `\\r\\n` files read as `\\n` files); a
last line without a newline is a line; empty lines are kept. Files may be GZIP or ZLIB
compressed (`record_io`'s decompression). The batch path hands out the lines of each read
buffer as one block, so `.batch()` and elementwise `map`s never touch a line in Python.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..ops.registry import convert_to_tensor
from ..shapes import TensorSpec
from .dataset import DatasetV2, as_int64
from .record_io import DEFAULT_BUFFER_SIZE, compression_name, file_chunks
from .records import defdataset
from .runtime import UNKNOWN, Node
from .tfrecord import compression_of, filename_list, filename_vector, filenames_dataset

__all__ = ["TextLineDatasetV2", "file_lines", "line_batches"]


def line_batches(path: str, compression: str = "", buffer_size: int = DEFAULT_BUFFER_SIZE,
                 stopping=None):
    """Lists of the file's lines (bytes, without their line endings), in order."""
    rest = b""
    for chunk in file_chunks(path, compression, buffer_size):
        lines = (rest + chunk).split(b"\n") if rest else chunk.split(b"\n")
        rest = lines.pop()
        if lines:
            yield [line[:-1] if line.endswith(b"\r") else line for line in lines]
        if stopping is not None and stopping():
            return
    if rest:
        yield [rest[:-1] if rest.endswith(b"\r") else rest]


def file_lines(path: str, compression: str = "", buffer_size: int = DEFAULT_BUFFER_SIZE):
    for batch in line_batches(path, compression, buffer_size):
        yield from batch


class TextLineNode(Node):
    """The lines of each file in turn, as scalar strings."""

    def __init__(self, filenames, compression_type, buffer_size, element_spec):
        super().__init__(element_spec)
        self.filenames = filename_list(filenames)
        self.compression = compression_of(compression_type)
        self.buffer_size = int(buffer_size) if int(buffer_size) > 0 else DEFAULT_BUFFER_SIZE
        self.cardinality = UNKNOWN

    def _batches(self, ctx):
        for path in self.filenames:
            yield from line_batches(path, self.compression, self.buffer_size,
                                    stopping=lambda: ctx.stopping)

    def elements(self, ctx):
        for batch in self._batches(ctx):
            for line in batch:
                yield (line,)

    def columnar(self, ctx):
        return True

    def blocks(self, ctx):
        for batch in self._batches(ctx):
            column = np.empty(len(batch), dtype=object)
            column[:] = batch
            yield (column,)

    def describe(self):
        return f"TextLineDataset({len(self.filenames)} file(s))"


text_line_dataset_op = defdataset(
    "text_line_dataset", "TextLineDataset",
    inputs=("filenames: string", "compression_type: string", "buffer_size: int64"),
    node=TextLineNode)


class _TextLineDataset(DatasetV2):
    def __init__(self, filenames, compression_type=None, buffer_size=None, name=None):
        compression = compression_type
        if compression is not None and not hasattr(compression, "dtype"):
            compression = compression_name(compression)
        compression = convert_to_tensor("" if compression is None else compression,
                                        dtype=d.string)
        size = DEFAULT_BUFFER_SIZE if buffer_size is None else buffer_size
        super().__init__(text_line_dataset_op,
                         (filenames, compression, as_int64(size, "buffer_size")), {},
                         TensorSpec((), d.string), name=name)


class TextLineDatasetV2(DatasetV2):
    """`tf.data.TextLineDataset`: the lines of one or more text files."""

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        def read_one(filename):
            return _TextLineDataset(filename, compression_type, buffer_size, name=name)

        if num_parallel_reads is None and not isinstance(filenames, DatasetV2):
            impl = read_one(filename_vector(filenames))
        else:
            names = filenames_dataset(filenames)
            if num_parallel_reads is None:
                impl = names.flat_map(read_one, name=name)
            else:
                impl = names.interleave(read_one, cycle_length=num_parallel_reads,
                                        block_length=1, num_parallel_calls=num_parallel_reads,
                                        deterministic=True, name=name)
        self._variant = impl._variant
        self._element_spec = impl.element_spec
        self._input_datasets = impl._input_datasets
