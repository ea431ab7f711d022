"""Helpers of the tf.data tests: elements as plain Python values, and the two paths."""

from __future__ import annotations

import numpy as np

import tracegraph as tf


def values(dataset) -> list:
    """The elements as nested Python lists/tuples/dicts of numbers and bytes."""
    return [to_python(e) for e in dataset]


def to_python(x):
    if isinstance(x, dict):
        return {k: to_python(v) for k, v in x.items()}
    if isinstance(x, tuple):
        items = [to_python(v) for v in x]
        return type(x)(*items) if hasattr(type(x), "_fields") else tuple(items)
    if isinstance(x, tf.RaggedTensor):
        return ("ragged", x.to_list())
    if isinstance(x, tf.SparseTensor):
        return ("sparse", x.indices.numpy().tolist(), x.values.numpy().tolist(),
                x.dense_shape.numpy().tolist())
    if isinstance(x, tf.data.Dataset):
        return ("dataset", values(x))
    return np.asarray(x.numpy()).tolist()


def element_by_element(dataset):
    """The dataset with the batch path turned off (every stage element by element)."""
    options = tf.data.Options()
    options.experimental_optimization.columnar_execution = False
    return dataset.with_options(options)


def both_paths(dataset) -> tuple[list, list]:
    """The elements on the batch path and element by element. Pass a function making the
    dataset when it shuffles (each iteration of one dataset draws a new order)."""
    if callable(dataset):
        return values(dataset()), values(element_by_element(dataset()))
    return values(dataset), values(element_by_element(dataset))
