"""`tf.nn`."""

from ..library.math import sigmoid, softplus, softsign, tanh  # noqa: F401
from ..library.nn import (  # noqa: F401
    avg_pool,
    avg_pool2d,
    batch_normalization,
    bias_add,
    conv2d,
    dropout,
    elu,
    gelu,
    l2_loss,
    l2_normalize,
    leaky_relu,
    log_softmax,
    max_pool,
    max_pool2d,
    moments,
    relu,
    relu6,
    selu,
    sigmoid_cross_entropy_with_logits,
    silu,
    softmax,
    softmax_cross_entropy_with_logits,
    sparse_softmax_cross_entropy_with_logits,
    swish,
)

import types as _types

from ..library.random_stateless import stateless_dropout as _stateless_dropout

# tf.nn.experimental
experimental = _types.SimpleNamespace(stateless_dropout=_stateless_dropout)
