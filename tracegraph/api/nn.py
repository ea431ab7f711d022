"""`tf.nn`."""

import types as _types

from ..library.convolution import (  # noqa: F401
    atrous_conv2d,
    atrous_conv2d_transpose,
    conv1d,
    conv1d_transpose,
    conv2d,
    conv2d_transpose,
    conv3d,
    conv3d_transpose,
    conv_transpose,
    convolution,
    depthwise_conv2d,
    separable_conv2d,
)
from ..library.math import sigmoid, softplus, softsign, tanh  # noqa: F401
from ..library.nn import (  # noqa: F401
    batch_normalization,
    bias_add,
    dropout,
    elu,
    gelu,
    l2_loss,
    l2_normalize,
    leaky_relu,
    log_softmax,
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
from ..library.pooling import (  # noqa: F401
    avg_pool,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    max_pool,
    max_pool1d,
    max_pool2d,
    max_pool3d,
    max_pool_with_argmax,
    pool,
)
from ..library.random_stateless import stateless_dropout as _stateless_dropout
from ..library.space_batch import batch_to_space, space_to_batch  # noqa: F401

# tf.nn.experimental
experimental = _types.SimpleNamespace(stateless_dropout=_stateless_dropout)
