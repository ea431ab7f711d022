"""`cache` (in memory or in files) and `prefetch`.

The first iteration that reads the whole input fills the cache; later iterations read it
instead of the input. An iteration that stops early leaves nothing behind (TensorFlow drops a
partial cache too). With a filename, the cache is `filename.index` (JSON) and
`filename.data-00000-of-00001` (a NumPy chunk; `storage.py`'s format), written when complete
and read by every later iteration, in this process or another. The batch path caches blocks.

`prefetch(n)` runs its input on a background thread, `n` elements (or, on the batch path,
blocks) ahead; `tf.data.AUTOTUNE` picks a small buffer.
"""

from __future__ import annotations

import json
import os
import threading

from .. import dtypes as d
from ..errors import DataLossError
from ..ops.registry import convert_to_tensor
from .dataset import AUTOTUNE, DatasetV2, as_int64
from .leaves import batch_leaves
from .records import defdataset
from .runtime import Node
from .storage import FORMAT, VERSION, decode_spec, encode_spec, read_chunk, write_chunk
from .worker_threads import prefetched

__all__ = ["CacheDataset", "_PrefetchDataset"]


class CacheNode(Node):
    def __init__(self, input_dataset, filename, element_spec):
        super().__init__(element_spec, [input_dataset])
        self.input = input_dataset
        value = filename[()] if hasattr(filename, "shape") else filename
        self.filename = value.decode() if isinstance(value, bytes) else str(value)
        self.stored = None          # ("elements", list) or ("blocks", list)
        self.lock = threading.Lock()
        self.cardinality = input_dataset.cardinality

    def describe(self):
        where = f"'{self.filename}'" if self.filename else "memory"
        return f"CacheDataset({where})"

    # ---- the stored form -----------------------------------------------------------------
    def _files(self):
        return f"{self.filename}.index", f"{self.filename}.data-00000-of-00001"

    def _load_files(self):
        index_path, data_path = self._files()
        if self.filename and self.stored is None and os.path.exists(index_path):
            with open(index_path) as f:
                index = json.load(f)
            if index.get("format") != FORMAT or index.get("version") != VERSION:
                raise DataLossError(f"{index_path}: not a tracegraph cache index.")
            spec = decode_spec(index["element_spec"], index_path)
            self.stored = ("elements", read_chunk(data_path, spec))

    def _store(self, kind: str, items: list) -> None:
        with self.lock:
            if self.stored is not None:
                return
            if self.filename:
                elements = items if kind == "elements" else [
                    row for block in items for row in zip(*block)]
                index_path, data_path = self._files()
                with open(data_path + ".tmp", "wb") as f:
                    write_chunk(f, self.element_spec, elements)
                os.replace(data_path + ".tmp", data_path)
                with open(index_path, "w") as f:
                    json.dump({"format": FORMAT, "version": VERSION,
                               "element_spec": encode_spec(self.element_spec)}, f)
            self.stored = (kind, items)

    def _cached_elements(self):
        kind, items = self.stored
        if kind == "elements":
            return iter(items)
        return (row for block in items for row in zip(*block))

    # ---- iteration -------------------------------------------------------------------------------
    def elements(self, ctx):
        self._load_files()
        if self.stored is not None:
            yield from self._cached_elements()
            return
        seen = []
        for element in self.input.rows(ctx):
            seen.append(element)
            yield element
        self._store("elements", seen)

    def _columnar(self, ctx):
        self._load_files()
        if self.stored is not None:
            return self.dense and (self.stored[0] == "blocks" or bool(self.stored[1]))
        return self.input.columnar(ctx)

    def blocks(self, ctx):
        if self.stored is not None:
            kind, items = self.stored
            if kind == "blocks":
                yield from items
            elif items:
                yield tuple(batch_leaves(s, [e[i] for e in items], i)
                            for i, s in enumerate(self.specs))
            return
        seen = []
        for block in self.input.blocks(ctx):
            seen.append(block)
            yield block
        self._store("blocks", seen)


cache_dataset_op = defdataset("cache_dataset", "CacheDatasetV2",
                              inputs=("input_dataset: variant", "filename: string"),
                              node=CacheNode)


class CacheDataset(DatasetV2):
    def __init__(self, input_dataset, filename="", name=None):
        super().__init__(cache_dataset_op,
                         (input_dataset._variant, convert_to_tensor(filename, dtype=d.string)),
                         {}, input_dataset.element_spec, [input_dataset], name)


class PrefetchNode(Node):
    def __init__(self, input_dataset, buffer_size, element_spec, slack_period=0,
                 legacy_autotune=True, buffer_size_min=0):
        super().__init__(element_spec, [input_dataset])
        self.input = input_dataset
        self.size = int(buffer_size)
        self.cardinality = input_dataset.cardinality

    def describe(self):
        size = "AUTOTUNE" if self.size == AUTOTUNE else self.size
        return f"PrefetchDataset(buffer_size={size})"

    def elements(self, ctx):
        if self.size == 0:
            return self.input.rows(ctx)
        size = 8 if self.size == AUTOTUNE else self.size
        return prefetched(self.input.rows(ctx), size, ctx)

    def _columnar(self, ctx):
        return self.input.columnar(ctx)

    def blocks(self, ctx):
        if self.size == 0:
            return self.input.blocks(ctx)
        return prefetched(self.input.blocks(ctx), 2 if self.size == AUTOTUNE else
                          max(1, min(self.size, 4)), ctx)


prefetch_dataset_op = defdataset(
    "prefetch_dataset", "PrefetchDataset", inputs=("input_dataset: variant", "buffer_size: int64"),
    attrs={"slack_period": 0, "legacy_autotune": True, "buffer_size_min": 0}, node=PrefetchNode)


class _PrefetchDataset(DatasetV2):
    def __init__(self, input_dataset, buffer_size, name=None):
        buffer_size = -1 if buffer_size is None else buffer_size
        super().__init__(prefetch_dataset_op,
                         (input_dataset._variant, as_int64(buffer_size, "buffer_size")), {},
                         input_dataset.element_spec, [input_dataset], name)
