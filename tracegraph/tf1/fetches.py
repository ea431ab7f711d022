"""What `Session.run` accepts and returns: fetches in nested structures (lists, tuples,
namedtuples, dicts) of tensors, operations, names, Variables and sparse tensors, and feeds
keyed by tensors or their names, with TensorFlow's errors for anything else.

A `FetchMapper` flattens a fetch into unique tensors to compute and ops to run, and rebuilds
the structure from the values: a tensor's value is a NumPy array (a NumPy scalar, or `bytes`,
for a scalar), an operation's is None, a sparse tensor's a `SparseTensorValue`.
"""

from __future__ import annotations

import collections

import numpy as np

from .. import dtypes as d
from ..framework.graph_variables import GraphVariable
from ..framework.sparse import SparseTensor
from ..framework.tensor import Tensor
from ..framework.variables import Variable
from ..graph.graph import Operation
from ..graph.tensor import SymbolicTensor
from ..ops.convert import as_string_array
from ..shapes import format_shape, shapes_compatible

__all__ = ["FetchMapper", "SparseTensorValue", "graph_element", "feed_items"]

SparseTensorValue = collections.namedtuple("SparseTensorValue",
                                           ["indices", "values", "dense_shape"])


def graph_element(graph, name: str):
    """The tensor (`"op:0"`) or operation (`"op"`) of `graph` named `name`, with TensorFlow's
    message (a KeyError's or ValueError's) when there is none."""
    if ":" not in name:
        try:
            return graph.get_operation_by_name(name)
        except KeyError:
            raise KeyError(f"The name '{name}' refers to an Operation not in the graph.") from None
    op_name, _, index = name.rpartition(":")
    try:
        op = graph.get_operation_by_name(op_name)
    except KeyError:
        raise KeyError(f"The name '{name}' refers to a Tensor which does not exist. The "
                       f"operation, '{op_name}', does not exist in the graph.") from None
    if not index.isdigit() or int(index) >= len(op.outputs):
        raise KeyError(f"The name '{name}' refers to a Tensor which does not exist. The "
                       f"operation, '{op_name}', exists but only has {len(op.outputs)} "
                       "outputs.")
    return op.outputs[int(index)]


def _fetch_error(fetch, reason: str) -> ValueError:
    return ValueError(f"Argument `fetch` = {fetch} cannot be interpreted as a Tensor. "
                      f"({reason})")


def _element_of(graph, fetch):
    """A fetch leaf as a tensor, an operation, or (for an unread Variable) its write op."""
    if fetch is None:
        raise TypeError('Argument `fetch` = None has invalid type "NoneType". Cannot be None')
    if isinstance(fetch, str):
        try:
            return graph_element(graph, fetch)
        except KeyError as e:
            raise _fetch_error(fetch, f'"{e.args[0]}"') from None
    if isinstance(fetch, GraphVariable):
        fetch = fetch.graph_element()
    elif isinstance(fetch, Variable) and isinstance(getattr(fetch, "op", None), Operation):
        return fetch   # an unread Variable: `v.assign(...)` in a graph
    if isinstance(fetch, SymbolicTensor):
        if fetch.op.graph is not graph:
            raise _fetch_error(fetch, f"Tensor {fetch} is not an element of this graph.")
        return fetch
    if isinstance(fetch, Operation):
        if fetch.graph is not graph:
            raise _fetch_error(fetch, f"Operation {fetch!r} is not an element of this graph.")
        return fetch
    kind = type(fetch).__name__
    raise TypeError(f'Argument `fetch` = {fetch} has invalid type "{kind}" must be a string '
                    f"or Tensor. (Can not convert a {kind} into a Tensor or Operation.)")


class FetchMapper:
    """A fetch structure as `tensors` to compute and `targets` to run, and the way back."""

    def __init__(self, graph, fetches):
        self.tensors: list = []
        self.targets: list = []
        self._tensor_index: dict[int, int] = {}
        self._target_ids: set[int] = set()
        self._rebuild = self._plan(graph, fetches)

    def _tensor(self, t) -> int:
        index = self._tensor_index.get(id(t))
        if index is None:
            index = self._tensor_index[id(t)] = len(self.tensors)
            self.tensors.append(t)
        return index

    def _target(self, op) -> None:
        if id(op) not in self._target_ids:
            self._target_ids.add(id(op))
            self.targets.append(op)

    def _plan(self, graph, fetch):
        if isinstance(fetch, SparseTensor):
            parts = [self._tensor(_element_of(graph, t)) for t in
                     (fetch.indices, fetch.values, fetch.dense_shape)]
            return lambda values, storage: SparseTensorValue(*(values[i] for i in parts))
        if isinstance(fetch, dict):
            items = [(k, self._plan(graph, v)) for k, v in fetch.items()]
            kind = type(fetch)
            return lambda values, storage: kind((k, f(values, storage)) for k, f in items)
        if isinstance(fetch, (list, tuple)):
            items = [self._plan(graph, v) for v in fetch]
            kind = type(fetch)
            if hasattr(kind, "_fields"):   # a namedtuple
                return lambda values, storage: kind(*(f(values, storage) for f in items))
            return lambda values, storage: kind(f(values, storage) for f in items)
        element = _element_of(graph, fetch)
        if isinstance(element, Operation):
            self._target(element)
            return lambda values, storage: None
        if isinstance(element, Variable):   # read after its write has run
            self._target(element.op)
            handle_op = element.handle.op
            return lambda values, storage: _fetched(storage(handle_op).value)
        index = self._tensor(element)
        return lambda values, storage: values[index]

    def results(self, values, storage):
        """The fetch structure filled with `values` (one per tensor, fetched)."""
        return self._rebuild([_fetched(v) for v in values], storage)


def _fetched(value):
    """A fetched value as TensorFlow's Session returns it: a NumPy array of its own (a NumPy
    scalar, or bytes, when 0-d)."""
    if isinstance(value, np.ndarray):
        return value[()] if value.ndim == 0 else value.copy()
    return value


def feed_items(graph, feed_dict) -> list:
    """[(tensor, array)] for a `feed_dict`, each value converted to its tensor's dtype and
    checked against its static shape (TensorFlow's TypeErrors and ValueErrors)."""
    items = []
    for key, value in (feed_dict or {}).items():
        if isinstance(key, SparseTensor):
            parts = zip((key.indices, key.values, key.dense_shape), value)
            items.extend(_feed(graph, k, v, key) for k, v in parts)
            continue
        items.append(_feed(graph, key, value, key))
    return items


def _feed(graph, key, value, shown):
    try:
        tensor = graph_element(graph, key) if isinstance(key, str) else key
        if isinstance(tensor, GraphVariable):
            tensor = tensor.graph_element()
        if not isinstance(tensor, SymbolicTensor):
            raise KeyError(f"Can not convert a {type(tensor).__name__} into a Tensor.")
        if tensor.op.graph is not graph:
            raise KeyError(f"Tensor {tensor} is not an element of this graph.")
    except KeyError as e:
        raise TypeError(f"Cannot interpret feed_dict key as Tensor: {e.args[0]}") from None
    if isinstance(value, (SymbolicTensor, GraphVariable)):
        raise TypeError(
            "The value of a feed cannot be a tf.Tensor object. Acceptable feed values include "
            "Python scalars, strings, lists, numpy ndarrays, or TensorHandles. For reference, "
            f"the tensor object was {value} which was passed to the argument `feed_dict` with "
            f"key {shown}.")
    if isinstance(value, Tensor):
        value = value.numpy()
    if tensor.dtype is d.string:
        array = as_string_array(value)
    else:
        array = np.asarray(value, dtype=tensor.dtype.as_numpy_dtype)
    if not shapes_compatible(tensor.dims, array.shape):
        raise ValueError(f"Cannot feed value of shape {format_shape(array.shape)} for Tensor "
                         f"{tensor.name}, which has shape {format_shape(tensor.dims)}")
    return tensor, array
