"""Keras's convolution, pooling and normalization layers run on `tf` (TensorFlow 2.21 when
making fixtures/conv_pool_layers.npz, tracegraph in test_conv_pool_layers.py): each layer's
output and the gradients of sum(output^2) w.r.t. its input and weights, the weights drawn from
one seed."""

import numpy as np


def cases(keras):
    L = keras.layers
    return {
        "conv1d": (L.Conv1D(4, 3, strides=2, padding="same"), (2, 9, 3)),
        "conv1d_causal": (L.Conv1D(4, 3, padding="causal", dilation_rate=2), (2, 9, 3)),
        "conv2d": (L.Conv2D(4, (3, 2), strides=(2, 1), padding="same"), (2, 7, 8, 3)),
        "conv2d_dilated": (L.Conv2D(4, 3, padding="same", dilation_rate=2), (2, 7, 8, 3)),
        "conv2d_groups": (L.Conv2D(4, 3, groups=2), (2, 7, 8, 4)),
        "conv3d": (L.Conv3D(2, 2, strides=2, padding="same"), (2, 5, 6, 4, 3)),
        "conv1d_transpose": (L.Conv1DTranspose(3, 3, strides=2, padding="same"), (2, 5, 4)),
        "conv2d_transpose": (L.Conv2DTranspose(3, 3, strides=2), (2, 4, 5, 4)),
        "conv3d_transpose": (L.Conv3DTranspose(2, 2, strides=2, padding="same"),
                             (1, 3, 3, 2, 3)),
        "depthwise2d": (L.DepthwiseConv2D(3, depth_multiplier=2, padding="same"),
                        (2, 7, 8, 3)),
        "depthwise1d": (L.DepthwiseConv1D(3, depth_multiplier=2), (2, 9, 3)),
        "separable2d": (L.SeparableConv2D(4, 3, padding="same"), (2, 7, 8, 3)),
        "separable1d": (L.SeparableConv1D(4, 3, padding="same"), (2, 9, 3)),
        "maxpool1d": (L.MaxPooling1D(2), (2, 9, 3)),
        "maxpool2d": (L.MaxPooling2D(2, padding="same"), (2, 7, 8, 3)),
        "maxpool3d": (L.MaxPooling3D(2), (2, 5, 6, 4, 3)),
        "avgpool1d": (L.AveragePooling1D(3, strides=2, padding="same"), (2, 9, 3)),
        "avgpool2d": (L.AveragePooling2D(2), (2, 7, 8, 3)),
        "avgpool3d": (L.AveragePooling3D(2, padding="same"), (2, 5, 6, 4, 3)),
        "global_avg2d": (L.GlobalAveragePooling2D(), (2, 7, 8, 3)),
        "global_max1d": (L.GlobalMaxPooling1D(), (2, 9, 3)),
        "batchnorm": (L.BatchNormalization(), (4, 5, 3)),
        "layernorm": (L.LayerNormalization(), (4, 5, 3)),
        "embedding": (L.Embedding(10, 3), (2, 4)),
    }


def run(tf, layer, shape, name):
    """(output, d/dx, d/dweights...) of sum(layer(x)^2), x and the weights from fixed seeds."""
    ids = name == "embedding"
    x = np.random.default_rng(len(name)).integers(0, 10, shape) if ids else \
        np.random.default_rng(len(name)).standard_normal(shape).astype(np.float32)
    layer.build(x.shape)
    rng = np.random.default_rng(1)
    for w in layer.weights:
        w.assign(rng.standard_normal(w.shape).astype(np.float32) * 0.5)
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = layer(xt, training=True)
        loss = tf.reduce_sum(y * y)
    grads = tape.gradient(loss, ([] if ids else [xt]) + layer.trainable_weights)
    return [np.asarray(y)] + [np.asarray(tf.convert_to_tensor(g)) for g in grads]
