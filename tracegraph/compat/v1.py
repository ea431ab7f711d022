"""`tf.compat.v1`: TF1's API on tracegraph (graphs, sessions, placeholders, variable scopes,
collections, initializers, TF1 optimizers, `wrap_function`), and every TF2 name besides, as
TensorFlow's `compat.v1` module holds both (`tf.compat.v1.constant` is `tf.constant`). Keras's
TensorFlow backend reaches it too (`placeholder` in a FuncGraph being built, `SummaryMetadata`)."""

from __future__ import annotations

import importlib as _importlib
import types as _types

import tracegraph as _tracegraph  # the package being initialized (read at call time only)

from .. import config as _config
from ..dimension import Dimension
from ..framework.sparse import SparseTensor
from ..graph.graph import Graph
from ..library.random import set_seed as _set_seed
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

from .. import tf_logging as _tf_logging  # noqa: E402
from ..tf1 import adaptive_optimizers as _adaptive  # noqa: E402
from ..tf1 import learning_rate_decay as _decay  # noqa: E402
from ..tf1 import losses  # noqa: E402 - tf.compat.v1.losses
from ..tf1 import optimizers as _optimizers  # noqa: E402
from ..tf1 import v1_signatures as _v1_signatures  # noqa: E402
from ..tf1.legacy_names import *  # noqa: E402, F403 - TF1's renamed and dropped names
from ..tf1.saver import Saver, init_from_checkpoint  # noqa: E402
from ..tf1.v1_signatures import (  # noqa: E402, F401 - TF1's argument names
    argmax,
    argmin,
    count_nonzero,
    expand_dims,
    norm,
    reduce_all,
    reduce_any,
    reduce_logsumexp,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
    squeeze,
)

# `tf.compat.v1.logging`: TensorFlow's logger under TF1's functions and levels.
logging = _types.SimpleNamespace(
    DEBUG=_tf_logging.DEBUG, INFO=_tf_logging.INFO, WARN=_tf_logging.WARN,
    WARNING=_tf_logging.WARN, ERROR=_tf_logging.ERROR, FATAL=_tf_logging.FATAL,
    warn=_tf_logging.warning,
    **{n: getattr(_tf_logging, n) for n in ("log", "debug", "info", "warning", "error", "fatal",
                                            "vlog", "log_if", "log_first_n", "log_every_n",
                                            "get_verbosity", "set_verbosity", "flush")})
get_logger = _tf_logging.get_logger

class _Keras2Layers:
    """`tf.compat.v1.layers`: TF1's layers are Keras 2's, which TensorFlow 2.21 (with Keras 3)
    no longer has: every name is TensorFlow's AttributeError."""

    def __getattr__(self, name):
        raise AttributeError(f"`{name}` is not available with Keras 3.")


layers = _Keras2Layers()

# TF1's names of what TF2 moved (`tf.compat.v1.log` is `tf.math.log`): where each lives now.
_MOVED = {
    "log": "math.log", "log1p": "math.log1p", "mod": "math.floormod", "floor_div": "math.floordiv",
    "floordiv": "math.floordiv", "squared_difference": "math.squared_difference",
    "is_nan": "math.is_nan", "is_finite": "math.is_finite", "is_inf": "math.is_inf",
    "erf": "math.erf", "rsqrt": "math.rsqrt", "reciprocal": "math.reciprocal",
    "ceil": "math.ceil", "floor": "math.floor", "count_nonzero": "math.count_nonzero",
    "arg_max": "math.argmax", "arg_min": "math.argmin", "where_v2": "where",
    "random_normal": "random.normal", "random_uniform": "random.uniform",
    "truncated_normal": "random.truncated_normal", "random_shuffle": "random.shuffle",
    "multinomial": "random.categorical", "string_to_number": "strings.to_number",
    "matrix_transpose": "linalg.matrix_transpose", "matrix_band_part": "linalg.band_part",
    "matrix_inverse": "linalg.inv", "cholesky": "linalg.cholesky", "svd": "linalg.svd",
    **{n: f"io.{n}" for n in ("FixedLenFeature", "VarLenFeature", "FixedLenSequenceFeature",
                              "parse_example", "parse_single_example")},
    **{n: f"debugging.{n}" for n in ("assert_equal", "assert_none_equal", "assert_greater",
                                     "assert_greater_equal", "assert_less",
                                     "assert_less_equal", "assert_positive",
                                     "assert_negative", "assert_non_negative",
                                     "assert_non_positive", "assert_rank", "assert_type")},
}

# TensorFlow's protocol buffers under tf.compat.v1, from TensorBoard's compiled protos.
_PROTOS = {
    "SummaryMetadata": "summary_pb2", "Summary": "summary_pb2", "Event": "event_pb2",
    "SessionLog": "event_pb2", "GraphDef": "graph_pb2", "NodeDef": "node_def_pb2",
    "AttrValue": "attr_value_pb2", "MetaGraphDef": "meta_graph_pb2",
    "TensorInfo": "meta_graph_pb2", "ConfigProto": "config_pb2", "GPUOptions": "config_pb2",
    "GraphOptions": "config_pb2", "OptimizerOptions": "config_pb2",
    "RunOptions": "config_pb2", "RunMetadata": "config_pb2",
}


def _nn_namespace():
    """`tf.compat.v1.nn`: `tf.nn` with TF1's `dropout(keep_prob=)`, `softmax(dim=)`, and
    the TF1 `softmax_cross_entropy_with_logits` (`_v2` is TF2's)."""
    names = {k: v for k, v in vars(_tracegraph.nn).items() if not k.startswith("__")}
    names["softmax_cross_entropy_with_logits_v2"] = names["softmax_cross_entropy_with_logits"]
    names.update({n: getattr(_v1_signatures, n) for n in (
        "dropout", "softmax", "log_softmax", "softmax_cross_entropy_with_logits")})
    return _types.SimpleNamespace(**names)


def _train_namespace():
    """`tf.compat.v1.train`: TF1's optimizers and global step, over `tf.train`'s names."""
    names = dict(vars(_tracegraph.train)) if hasattr(_tracegraph, "train") else {}
    names.update({n: getattr(_optimizers, n) for n in _optimizers.__all__})
    names.update({n: getattr(m, n) for m in (_adaptive, _decay) for n in m.__all__})
    names.update(Saver=Saver,
                 init_from_checkpoint=init_from_checkpoint)
    return _types.SimpleNamespace(**{k: v for k, v in names.items() if not k.startswith("__")})


data = _types.SimpleNamespace(
    Dataset=DatasetV1, Iterator=Iterator,  # noqa: F405
    make_initializable_iterator=make_initializable_iterator,  # noqa: F405
    make_one_shot_iterator=make_one_shot_iterator)  # noqa: F405

SparseTensorValue = SparseTensorValue  # noqa: F405, PLW0127 - re-exported name


def initialize_all_variables():
    """TF1's old name for `global_variables_initializer`."""
    return global_variables_initializer()  # noqa: F405


def initialize_variables(var_list, name="init"):
    """TF1's old name for `variables_initializer`."""
    return variables_initializer(var_list, name)  # noqa: F405


def initialize_local_variables():
    """TF1's old name for `local_variables_initializer`."""
    return local_variables_initializer()  # noqa: F405


def all_variables():
    """TF1's old name for `global_variables`."""
    return global_variables()  # noqa: F405


def moving_average_variables(scope=None):
    return get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)  # noqa: F405


def no_regularizer(_):
    """The regularizer that adds no loss (`get_variable(regularizer=tf.no_regularizer)`)."""
    return None


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
    """TF1's behaviours that tracegraph has: graph mode and identity equality (reference
    variables and TF1's control flow it has not: see tf1/legacy_names.py)."""
    disable_tensor_equality()
    disable_resource_variables()  # noqa: F405 - TensorFlow's deprecation notice
    disable_control_flow_v2()  # noqa: F405
    disable_eager_execution()  # noqa: F405


def set_random_seed(seed) -> None:
    """TF1's `tf.set_random_seed`: the graph-level seed (`tf.random.set_seed`)."""
    _set_seed(seed)


def __getattr__(name):
    if name in _PROTOS:
        try:
            module = _importlib.import_module(f"tensorboard.compat.proto.{_PROTOS[name]}")
        except ImportError as e:
            raise ImportError(f"tf.compat.v1.{name} is TensorBoard's protocol buffer: "
                              "pip install 'tracegraph[tensorboard]'") from e
        return getattr(module, name)
    if name in _MOVED:
        found = _tracegraph
        for part in _MOVED[name].split("."):
            found = getattr(found, part)
        return found
    if name in ("train", "nn"):   # built on first use: bound after this module
        globals()[name] = _train_namespace() if name == "train" else _nn_namespace()
        return globals()[name]
    try:
        return getattr(_tracegraph, name)
    except AttributeError:
        raise AttributeError(f"module 'tracegraph.compat.v1' has no attribute {name!r}") \
            from None


__all__ = ["Dimension", "Graph", "SparseTensor", "initializers", "constant_initializer",
           "glorot_normal_initializer", "glorot_uniform_initializer", "ones_initializer",
           "random_normal_initializer", "random_uniform_initializer",
           "truncated_normal_initializer", "variance_scaling_initializer", "zeros_initializer",
           "initialize_all_variables", "enable_tensor_equality", "disable_tensor_equality",
           "enable_v2_behavior", "disable_v2_behavior", "set_random_seed", "logging",
           "get_logger", "initialize_variables", "initialize_local_variables", "all_variables",
           "moving_average_variables", "no_regularizer", "losses", "argmax", "argmin",
           "count_nonzero", "expand_dims", "norm", "reduce_all", "reduce_any",
           "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min", "reduce_prod",
           "reduce_sum", "squeeze"]
