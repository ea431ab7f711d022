"""`Dataset.shuffle`: TensorFlow's buffer semantics, element by element or on blocks.

The buffer holds the first `buffer_size` elements; then, for each further input element, a
uniformly chosen slot is output and the new element takes its place; when the input ends,
the elements left are output in uniformly random order. Random draws: one double per
replacement (slot = floor(u * buffer_size)), then one permutation of what is left.

TensorFlow's exact stream (its Philox generator) is not reproduced; the distribution of
orders is the same, a seed gives the same order every run, and with
`reshuffle_each_iteration=True` each iteration (epoch) draws a new order from the seed.

The batch path computes the same order on blocks: the slot of each replacement is drawn for
a whole block at once (the same doubles, in the same order), the element each step outputs is
found by grouping the steps by slot (a stable sort), and rows are moved with one gather. So
both paths output the same elements in the same order for a given seed.
"""

from __future__ import annotations

import threading

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..ops.random import get_seed
from ..ops.registry import convert_to_tensor
from .dataset import AUTOTUNE, DatasetV2, as_int64
from .records import defdataset
from .runtime import Node
from .sources import BLOCK_ROWS

__all__ = ["_ShuffleDataset", "SeedSequence", "dataset_seeds", "ShuffleNode"]


def dataset_seeds(seed):
    """(seed, seed2) int64 tensors by TensorFlow's rule (both 0: not reproducible)."""
    s1, s2 = get_seed(None if seed is None else int(seed))
    return (convert_to_tensor(s1, dtype=d.int64), convert_to_tensor(s2, dtype=d.int64))


class SeedSequence:
    """The generators successive iterations of one dataset use."""

    def __init__(self, seed: int, seed2: int, reshuffle: bool):
        self.seeds = (seed & 0xFFFFFFFF, seed2 & 0xFFFFFFFF)
        self.reshuffle = reshuffle
        self.epoch = 0
        self.lock = threading.Lock()

    def next_generator(self) -> np.random.Generator:
        if self.seeds == (0, 0):
            return np.random.default_rng()
        with self.lock:
            epoch = self.epoch
            if self.reshuffle:
                self.epoch += 1
        return np.random.default_rng([*self.seeds, epoch])


class ShuffleNode(Node):
    def __init__(self, input_dataset, buffer_size, seed, seed2, element_spec,
                 reshuffle_each_iteration=True):
        super().__init__(element_spec, [input_dataset])
        self.input = input_dataset
        self.buffer_size = int(buffer_size)
        if self.buffer_size <= 0:
            raise InvalidArgumentError("buffer_size must be greater than zero.")
        self.seeds = SeedSequence(int(seed), int(seed2), bool(reshuffle_each_iteration))
        self.cardinality = input_dataset.cardinality

    def describe(self):
        return f"ShuffleDataset(buffer_size={self.buffer_size})"

    # ---- element by element ----------------------------------------------------------------
    def elements(self, ctx):
        rng = self.seeds.next_generator()
        size = self.buffer_size
        buffer = []
        for element in self.input.rows(ctx):
            if len(buffer) < size:
                buffer.append(element)
                continue
            slot = min(int(rng.random() * size), size - 1)
            yield buffer[slot]
            buffer[slot] = element
        for i in rng.permutation(len(buffer)):
            yield buffer[i]

    # ---- blocks ----------------------------------------------------------------------------------
    def _columnar(self, ctx):
        return self.input.columnar(ctx)

    def blocks(self, ctx):
        rng = self.seeds.next_generator()
        size = self.buffer_size
        buffer = None          # columns of the buffer (views until the first write)
        owned = False
        filled = 0
        pending = []           # blocks read while filling
        for block in self.input.blocks(ctx):
            if buffer is None:
                need = size - filled
                if len(block[0]) <= need:
                    pending.append(block)
                    filled += len(block[0])
                    if filled < size:
                        continue
                    block = tuple(c[:0] for c in block)
                else:
                    pending.append(tuple(c[:need] for c in block))
                    block = tuple(c[need:] for c in block)
                    filled = size
                buffer = pending[0] if len(pending) == 1 else tuple(
                    np.concatenate(cols) for cols in zip(*pending))
                owned = len(pending) > 1
                pending = []
                if not len(block[0]):
                    continue
            if not owned:
                buffer = tuple(np.array(c) for c in buffer)
                owned = True
            yield self._replace(rng, buffer, block)
        if buffer is None:
            if not pending:
                return
            buffer = pending[0] if len(pending) == 1 else tuple(
                np.concatenate(cols) for cols in zip(*pending))
        order = rng.permutation(len(buffer[0]))
        for lo in range(0, len(order), BLOCK_ROWS):
            take = order[lo:lo + BLOCK_ROWS]
            yield tuple(c[take] for c in buffer)

    def _replace(self, rng, buffer, block):
        """One block of replacements: outputs, and the buffer updated in place."""
        size = self.buffer_size
        m = len(block[0])
        slots = np.minimum((rng.random(m) * size).astype(np.int64), size - 1)
        order = np.argsort(slots, kind="stable")
        sorted_slots = slots[order]
        same = sorted_slots[1:] == sorted_slots[:-1]
        prev = np.full(m, -1, np.int64)
        prev[order[1:]] = np.where(same, order[:-1], -1)
        from_buffer = prev < 0
        out = []
        for buf, col in zip(buffer, block):
            column = np.empty((m,) + col.shape[1:], col.dtype)
            column[from_buffer] = buf[slots[from_buffer]]
            column[~from_buffer] = col[prev[~from_buffer]]
            out.append(column)
        last = order[np.append(~same, True)]
        for buf, col in zip(buffer, block):
            buf[slots[last]] = col[last]
        return tuple(out)


shuffle_dataset_op = defdataset(
    "shuffle_dataset", "ShuffleDatasetV3",
    inputs=("input_dataset: variant", "buffer_size: int64", "seed: int64", "seed2: int64"),
    attrs={"reshuffle_each_iteration": True}, node=ShuffleNode, stateful=True,
    flags={"random"})


class _ShuffleDataset(DatasetV2):
    def __init__(self, input_dataset, buffer_size, seed=None, reshuffle_each_iteration=True,
                 name=None):
        if isinstance(buffer_size, int) and buffer_size == AUTOTUNE:
            buffer_size = 1024
        s1, s2 = dataset_seeds(seed)
        reshuffle = True if reshuffle_each_iteration is None else bool(
            reshuffle_each_iteration)
        super().__init__(shuffle_dataset_op,
                         (input_dataset._variant, as_int64(buffer_size, "buffer_size"), s1, s2),
                         {"reshuffle_each_iteration": reshuffle}, input_dataset.element_spec,
                         [input_dataset], name)
