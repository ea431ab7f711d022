"""`tf.compat.v1`: TF1's API on tracegraph (graphs, sessions, placeholders, variable scopes,
collections, initializers, TF1 optimizers, `wrap_function`), and every TF2 name besides, as
TensorFlow's `compat.v1` module holds both (`tf.compat.v1.constant` is `tf.constant`). Keras's
TensorFlow backend reaches it too (`placeholder` in a FuncGraph being built, `SummaryMetadata`)."""

from __future__ import annotations

import types as _types

from .. import config as _config
from ..dimension import Dimension
from ..framework.sparse import SparseTensor
from ..graph.graph import Graph
from ..tf1 import *  # noqa: F403 - the namespace is the point
from ..tf1 import initializers as _init
from ..tf1.initializers import (
    constant_initializer,
    glorot_normal_initializer,
    glorot_uniform_initializer,
    ones_initializer,
    random_normal_initializer,
    random_uniform_initializer,
    truncated_normal_initializer,
    variance_scaling_initializer,
    zeros_initializer,
)

initializers = _types.SimpleNamespace(
    zeros=zeros_initializer, ones=ones_initializer, constant=constant_initializer,
    random_uniform=random_uniform_initializer, random_normal=random_normal_initializer,
    truncated_normal=truncated_normal_initializer, glorot_uniform=glorot_uniform_initializer,
    glorot_normal=glorot_normal_initializer, variance_scaling=variance_scaling_initializer,
    global_variables=None, local_variables=None, variables=None)
del _init

from ..tf1 import optimizers as _optimizers  # noqa: E402


def _train_namespace():
    """`tf.compat.v1.train`: TF1's optimizers and global step, over `tf.train`'s names."""
    import tracegraph
    names = dict(vars(tracegraph.train)) if hasattr(tracegraph, "train") else {}
    names.update({n: getattr(_optimizers, n) for n in _optimizers.__all__})
    return _types.SimpleNamespace(**{k: v for k, v in names.items() if not k.startswith("__")})


data = _types.SimpleNamespace(
    Dataset=DatasetV1, Iterator=Iterator,  # noqa: F405
    make_initializable_iterator=make_initializable_iterator,  # noqa: F405
    make_one_shot_iterator=make_one_shot_iterator)  # noqa: F405

SparseTensorValue = SparseTensorValue  # noqa: F405, PLW0127 - re-exported name


def initialize_all_variables():
    """TF1's old name for `global_variables_initializer`."""
    return global_variables_initializer()  # noqa: F405


def enable_tensor_equality() -> None:
    """`==` on tensors and Variables compares values, and they are unhashable (TF2)."""
    _config.set_tensor_equality(True)


def disable_tensor_equality() -> None:
    """`==` on tensors and Variables compares identity, and Variables hash (TF1)."""
    _config.set_tensor_equality(False)


def enable_v2_behavior() -> None:
    enable_tensor_equality()
    enable_eager_execution()  # noqa: F405


def disable_v2_behavior() -> None:
    """TF1's behaviours that tracegraph has: graph mode and identity equality."""
    disable_tensor_equality()
    disable_eager_execution()  # noqa: F405


def set_random_seed(seed) -> None:
    """TF1's `tf.set_random_seed`: the graph-level seed (`tf.random.set_seed`)."""
    from ..library.random import set_seed
    set_seed(seed)


def __getattr__(name):
    if name == "SummaryMetadata":  # the protocol buffer, from TensorBoard's compiled protos
        try:
            from tensorboard.compat.proto.summary_pb2 import SummaryMetadata
        except ImportError as e:
            raise ImportError("tf.compat.v1.SummaryMetadata is TensorBoard's protocol buffer: "
                              "pip install 'tracegraph[tensorboard]'") from e
        return SummaryMetadata
    if name == "train":   # built on first use: tf.train is bound after this module
        globals()["train"] = _train_namespace()
        return globals()["train"]
    import tracegraph
    try:
        return getattr(tracegraph, name)
    except AttributeError:
        raise AttributeError(f"module 'tracegraph.compat.v1' has no attribute {name!r}") \
            from None


__all__ = ["Dimension", "Graph", "SparseTensor", "initializers", "constant_initializer",
           "glorot_normal_initializer", "glorot_uniform_initializer", "ones_initializer",
           "random_normal_initializer", "random_uniform_initializer",
           "truncated_normal_initializer", "variance_scaling_initializer", "zeros_initializer",
           "initialize_all_variables", "enable_tensor_equality", "disable_tensor_equality",
           "enable_v2_behavior", "disable_v2_behavior", "set_random_seed"]
