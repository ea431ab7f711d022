"""Keras 3 on tracegraph reaching issue 24's family-5 ops through its TensorFlow backend: the
Hashing layer's buckets (FarmHash and SipHash), image resizing, segment sums and stft, against
what Keras on TensorFlow 2.21 gives (values written here from that run)."""

import numpy as np


def test_hashing_layer_buckets_as_keras_on_tensorflow(keras):
    words = np.array(["a", "b", "c"])
    assert keras.layers.Hashing(num_bins=10)(words).numpy().tolist() == [9, 2, 2]
    assert keras.layers.Hashing(num_bins=10, salt=[1, 2])(words).numpy().tolist() == [6, 4, 9]


def test_image_resize_as_keras_on_tensorflow(keras):
    ops = keras.ops
    x = (np.arange(2 * 6 * 5 * 3).reshape(2, 6, 5, 3) % 11 / 11).astype("float32")
    bicubic = ops.image.resize(x, (4, 7), interpolation="bicubic", antialias=True)
    np.testing.assert_allclose(np.asarray(bicubic)[0, :2, :2, 0],
                               [[0.09458379, 0.26993802], [0.5957675, 0.36020648]], rtol=1e-5)
    lanczos = ops.image.resize(x, (3, 3), interpolation="lanczos3")
    np.testing.assert_allclose(np.asarray(lanczos)[1, :2, :2, 1],
                               [[0.59855074, 0.5034452], [0.12253916, 0.8631423]], rtol=1e-5)


def test_segments_stft_and_search(keras):
    ops = keras.ops
    ids = np.array([0, 0, 1, 1, 2, 2])
    assert np.asarray(ops.segment_sum(np.arange(6.0), ids, num_segments=3)).tolist() == \
        [1.0, 5.0, 9.0]
    assert np.asarray(ops.segment_max(np.arange(6.0), ids, sorted=True)).tolist() == \
        [1.0, 3.0, 5.0]
    signal = np.sin(np.arange(32, dtype="float32"))
    back = ops.istft(ops.stft(signal, 8, 4, 8), 8, 4, 8)
    np.testing.assert_allclose(np.asarray(back)[4:-4], signal[4:-4], atol=1e-5)
    assert np.asarray(ops.searchsorted(np.array([1.0, 2, 3]), np.array([2.5]))).tolist() == [2]
