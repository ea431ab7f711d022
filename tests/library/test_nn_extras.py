"""Counting, ranking, embeddings, normalization statistics, losses, activations and space/depth
blocks against the values and gradients TensorFlow 2.21 computes (fixtures/nn_extras.npz, made
by fixtures/make_case_fixtures.py from the cases in nn_extras_cases.py), eagerly and in
tf.function; IndexedSlices gradients of embeddings; the graphs' op types; errors."""

import pathlib

import numpy as np
import pytest

import tracegraph as tf

from .nn_extras_cases import CASES
from .oracle import raises

REFERENCE = np.load(pathlib.Path(__file__).with_name("fixtures") / "nn_extras.npz")
VALUE_CASES = sorted(n for n in CASES if f"{n}/error" not in REFERENCE)


def _upstream(shape):
    return np.random.default_rng(11).standard_normal(shape).astype(np.float32)


def _run(fn, upstream, xs, differentiate):
    with tf.GradientTape() as tape:
        tape.watch(xs)
        out = fn(tf, *xs)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        loss = tf.reduce_sum(tf.cast(outs[0], tf.float32) * upstream)
    floats = [x for x in xs if x.dtype.is_floating] if differentiate else []
    grads = iter(tape.gradient(loss, floats) if floats else [])
    return outs, [next(grads) if x.dtype.is_floating and differentiate else None for x in xs]


@pytest.mark.parametrize("name", VALUE_CASES)
@pytest.mark.parametrize("mode", ["eager", "function"])
def test_matches_tensorflow(name, mode):
    fn, inputs = CASES[name]
    upstream = _upstream(REFERENCE[f"{name}/out0"].shape)
    differentiate = f"{name}/grad_error" not in REFERENCE
    run = _run if mode == "eager" else tf.function(_run)
    outs, grads = run(fn, upstream, [tf.constant(x) for x in inputs], differentiate)
    for i, out in enumerate(outs):
        want = REFERENCE[f"{name}/out{i}"]
        assert out.dtype.as_numpy_dtype == want.dtype, (out.dtype, want.dtype)
        assert out.shape.as_list() == list(want.shape)
        tol = 1e-3 if want.dtype == np.float16 else 1e-5
        np.testing.assert_allclose(out.numpy(), want, rtol=tol, atol=tol)
    for i, g in enumerate(grads):
        key = f"{name}/grad{i}"
        if key in REFERENCE:
            np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(), REFERENCE[key],
                                       rtol=1e-4, atol=1e-5)
        else:
            assert g is None, key


def _in_graph(fn):
    return lambda: tf.function(fn)()


@pytest.mark.parametrize("call,error,message", [
    (lambda: tf.math.bincount([1, -1, 2]), tf.errors.InvalidArgumentError,
     "Input arr must be non-negative!"),
    (lambda: tf.math.bincount([1, 2], weights=[1.0, 2.0], binary_output=True), ValueError,
     "Arguments `binary_output` and `weights` are mutually exclusive."),
    (lambda: tf.math.bincount([[1, 2]], axis=1), ValueError,
     "Unsupported value for argument axis=1. Only 0 and -1 are currently supported."),
    (lambda: tf.math.bincount(np.ones((2, 2, 2), np.int32), axis=-1),
     tf.errors.InvalidArgumentError, "Shape must be at most rank 2 but is rank 3"),
    (_in_graph(lambda: tf.math.bincount(np.ones((2, 2, 2), np.int32), axis=-1)), ValueError,
     "Shape must be at most rank 2 but is rank 3"),
    (lambda: tf.math.bincount([1, 2, 3], weights=[1.0, 2.0]), tf.errors.InvalidArgumentError,
     "`weights` must be the same shape as `arr` or a length-0 `Tensor`"),
    (lambda: tf.math.confusion_matrix([1, -1], [1, 1]), tf.errors.InvalidArgumentError,
     "`labels` contains negative values"),
    (lambda: tf.math.confusion_matrix([1, 3], [1, 1], num_classes=3),
     tf.errors.InvalidArgumentError, "`labels` out of bound"),
    (lambda: tf.math.confusion_matrix([1, 2], [1, 1], weights=[1.0, 2.0, 3.0]), ValueError,
     "Shapes (2,) and (3,) are incompatible"),
    (lambda: tf.math.in_top_k([1], [1.0, 2.0], 1), tf.errors.InvalidArgumentError,
     "predictions must be 2-dimensional"),
    (_in_graph(lambda: tf.math.in_top_k([1], [1.0, 2.0], 1)), ValueError,
     "Shape must be rank 2 but is rank 1"),
    (lambda: tf.math.in_top_k([1], tf.constant([[1.0, 2.0]], tf.float64), 1), ValueError,
     "Tensor conversion requested dtype float32 for Tensor with dtype float64"),
    (lambda: tf.nn.in_top_k([1, 0], [[1.0, 2.0]], 1), tf.errors.InvalidArgumentError,
     "First dimension of predictions 1 must match length of targets 2"),
    (_in_graph(lambda: tf.nn.in_top_k([1, 0], [[1.0, 2.0]], 1)), ValueError,
     "Dimensions must be equal, but are 1 and 2"),
    (lambda: tf.nn.embedding_lookup([], [1]), ValueError,
     "Length of params is currently 0. Need at least one param."),
    (lambda: tf.nn.embedding_lookup(np.ones((3, 2), np.float32), [3]),
     tf.errors.InvalidArgumentError, "indices[0] = 3 is not in [0, 3)"),
    (lambda: tf.nn.lrn(np.ones((2, 3), np.float32)), tf.errors.InvalidArgumentError,
     "in must be 4-dimensional"),
    (_in_graph(lambda: tf.nn.local_response_normalization(np.ones((2, 3), np.float32))),
     ValueError, "Shape must be rank 4 but is rank 2"),
    (lambda: tf.nn.depth_to_space(np.ones((1, 2, 2, 3), np.float32), 2),
     tf.errors.InvalidArgumentError, "Input depth dimension 3 should be divisible by: 4"),
    (_in_graph(lambda: tf.nn.depth_to_space(np.ones((1, 2, 2, 3), np.float32), 2)), ValueError,
     "Dimension size must be evenly divisible by 4 but is 3"),
    (lambda: tf.nn.depth_to_space(np.ones((2, 2, 4), np.float32), 2),
     tf.errors.InvalidArgumentError, "Input rank should be: 4 instead of: 3"),
    (lambda: tf.nn.space_to_depth(np.ones((2, 2, 4), np.float32), 2),
     tf.errors.InvalidArgumentError, "Input rank should be 4 instead of 3"),
    (lambda: tf.nn.space_to_depth(CASES["space_to_depth_odd"][1][0], 2),
     tf.errors.InvalidArgumentError,
     "Image width 4 and height 3 should be divisible by block_size: 2"),
    (_in_graph(lambda: tf.nn.space_to_depth(CASES["space_to_depth_odd"][1][0], 2)), ValueError,
     "Dimension size must be evenly divisible by 2 but is 3"),
    (lambda: tf.nn.depth_to_space(np.ones((1, 2, 2, 4), np.float32), 1),
     tf.errors.InvalidArgumentError, "Value for attr 'block_size' of 1 must be at least minimum 2"),
    (lambda: tf.nn.compute_average_loss(3.0), ValueError,
     "Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1."),
    (lambda: tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=2.0), TypeError,
     "global_batch_size must be an integer..  Expected \"x\" to be integer type.  Found: "
     "tensor of dtype <dtype: 'float32'>"),
    (lambda: tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=[2]), ValueError,
     "global_batch_size must be scalar..  Expected scalar shape, saw shape: (1,)."),
    (lambda: tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=-1),
     tf.errors.InvalidArgumentError, "global_batch_size must be non-negative."),
    (lambda: tf.nn.sigmoid_cross_entropy_with_logits([1.0, 0.0], [1.0, 2.0, 3.0]), ValueError,
     "`logits` and `labels` must have the same shape, received ((3,) vs (2,))."),
    (lambda: tf.nn.weighted_cross_entropy_with_logits([1.0, 0.0], [1.0, 2.0, 3.0], 2.0),
     ValueError, "`logits` and `labels` must have the same shape, received ((3,) vs (2,))."),
    (lambda: tf.nn.log_poisson_loss([1.0, 0.0], [1.0, 2.0, 3.0]), ValueError,
     "`log_input` and `targets` must have the same shape, received ((3,) vs (2,))."),
    (lambda: tf.nn.sparse_softmax_cross_entropy_with_logits([1, 0], [1.0, 2.0]), ValueError,
     "`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape=(2,) of "
     "rank 1 and logits.shape=(2,) of rank 1"),
    (lambda: tf.nn.sparse_softmax_cross_entropy_with_logits([2], [[1.0, 2.0]]),
     tf.errors.InvalidArgumentError,
     "Received a label value of 2 which is outside the valid range of [0, 2)."),
])
def test_errors(call, error, message):
    with raises(error, message):
        call()


def test_values_tensorflow_documents():
    """TensorFlow 2.21's outputs for these calls (printed by it, compared with tfdiff)."""
    assert tf.math.bincount([1.5, 2.0]).numpy().tolist() == [0, 1, 1]   # cast to int32
    assert tf.math.bincount([1, 2], minlength=-1).numpy().tolist() == [0, 1, 1]
    assert tf.math.bincount([True, False]).numpy().tolist() == [1, 1]
    out = tf.math.bincount(np.int64([1, 2]), weights=np.float64([1, 2]))
    assert out.dtype == tf.float64 and out.numpy().tolist() == [0.0, 1.0, 2.0]
    assert tf.math.in_top_k([5], [[1.0, 2.0]], 1).numpy().tolist() == [False]   # out of range
    assert tf.math.in_top_k([1], [[1.0, 2.0]], 0).numpy().tolist() == [False]
    assert tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=0).numpy() == 0.0
    out = tf.nn.compute_average_loss([1, 2])
    assert out.dtype == tf.float64 and out.numpy() == 1.5
    # sample weights multiply in float32, as TensorFlow's scale_losses_by_sample_weight
    out = tf.nn.compute_average_loss(np.float64([1 / 3, 2.0]), sample_weight=np.float64(
        [1 / 7, 1]))
    assert out.dtype == tf.float64 and out.numpy() == 1.023809526115656
    out = tf.nn.scale_regularization_loss([1, 2])
    assert out.dtype == tf.float64 and out.numpy() == 3.0
    np.testing.assert_array_equal(tf.nn.crelu(np.float32([[1, -2]])).numpy(), [[1, 0, 0, 2]])
    np.testing.assert_allclose(tf.math.log_sigmoid(np.float32([-100, 0])).numpy(),
                               [-100, -np.log(2)], rtol=1e-6)
    counts, m_ss, v_ss, shift = tf.nn.sufficient_statistics(np.float32([[1, 2], [3, 5]]), [1])
    assert counts.numpy() == 2.0 and shift is None
    assert m_ss.numpy().tolist() == [3, 8] and v_ss.numpy().tolist() == [5, 34]
    mean, variance = tf.nn.normalize_moments(counts, m_ss, v_ss, None)
    assert mean.numpy().tolist() == [1.5, 4.0] and variance.numpy().tolist() == [0.25, 1.0]
    mean, variance = tf.nn.weighted_moments(np.float32([1, 2, 3]), [0], np.float32([1, 1, 2]))
    assert (mean.numpy(), variance.numpy()) == (2.25, 0.6875)


def test_channels_first_blocks_equal_channels_last():
    x = CASES["depth_to_space"][1][0]
    for run in (tf.nn.depth_to_space, tf.function(tf.nn.depth_to_space)):
        out = run(np.moveaxis(x, -1, 1), 2, data_format="NCHW")
        np.testing.assert_array_equal(np.moveaxis(out.numpy(), 1, -1),
                                      REFERENCE["depth_to_space/out0"])
    x = CASES["space_to_depth"][1][0]
    out = tf.nn.space_to_depth(np.moveaxis(x, -1, 1), 2, data_format="NCHW")
    np.testing.assert_array_equal(np.moveaxis(out.numpy(), 1, -1),
                                  REFERENCE["space_to_depth/out0"])
    np.testing.assert_array_equal(tf.nn.depth_to_space(tf.nn.space_to_depth(x, 2), 2).numpy(), x)


def _op_types(fn, *specs):
    graph = tf.function(fn).get_concrete_function(*specs).graph
    return [op.type for op in graph.get_operations()
            if op.type not in ("Placeholder", "Const", "Identity")]


def test_graphs_read_like_tensorflows():
    v = tf.TensorSpec([2, 3, 4, 8])
    assert _op_types(lambda x: tf.nn.lrn(x), v) == ["LRN"]
    assert _op_types(lambda x: tf.nn.depth_to_space(x, 2), v) == ["DepthToSpace"]
    assert _op_types(lambda x: tf.nn.space_to_depth(x, 2), tf.TensorSpec([2, 4, 4, 3])) == [
        "SpaceToDepth"]
    assert "DenseBincount" in _op_types(lambda x: tf.math.bincount(x),
                                        tf.TensorSpec([5], tf.int32))
    assert _op_types(lambda t, p: tf.math.in_top_k(t, p, 2), tf.TensorSpec([3], tf.int32),
                     tf.TensorSpec([3, 4])) == ["InTopKV2"]
    assert "ScatterNd" in _op_types(lambda y, p: tf.math.confusion_matrix(y, p, 5),
                                    tf.TensorSpec([4], tf.int32), tf.TensorSpec([4], tf.int32))
    assert _op_types(lambda p, i: tf.nn.embedding_lookup(p, i), tf.TensorSpec([10, 3]),
                     tf.TensorSpec([4], tf.int32)) == ["GatherV2"]

    def lrn_grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.lrn(x)
        return tape.gradient(y, x)
    assert "LRNGrad" in _op_types(lrn_grad, v)


def test_unknown_shapes_in_graphs():
    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 8]),
                                  tf.TensorSpec([None], tf.int32)])
    def f(x, ids):
        y = tf.nn.depth_to_space(x, 2)
        assert y.shape.as_list() == [None, None, None, 2]
        counts = tf.math.bincount(ids, minlength=3)
        assert counts.shape.as_list() == [None]
        return y, counts
    y, counts = f(np.ones((1, 2, 3, 8), np.float32), np.int32([0, 4, 4]))
    assert y.shape.as_list() == [1, 4, 6, 2] and counts.numpy().tolist() == [1, 0, 0, 0, 2]


# ---- embeddings: the gradient is a tf.IndexedSlices of the rows looked up ---------------------

TABLE = CASES["embedding_lookup"][1][0]


def test_embedding_gradient_is_indexed_slices():
    v = tf.Variable(TABLE)
    with tf.GradientTape() as tape:
        rows = tf.nn.embedding_lookup(v, [[1, 9], [3, 3]])
        loss = tf.reduce_sum(rows * _upstream(rows.shape.as_list()))
    g = tape.gradient(loss, v)
    assert isinstance(g, tf.IndexedSlices)
    assert g.indices.numpy().tolist() == [1, 9, 3, 3] and g.values.shape.as_list() == [4, 3]
    assert g.dense_shape.numpy().tolist() == [10, 3]
    np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(),
                               REFERENCE["embedding_lookup/grad0"], rtol=1e-5, atol=1e-6)


def test_indexed_slices_aggregate_and_densify():
    v = tf.Variable(TABLE)
    with tf.GradientTape(persistent=True) as tape:
        first = tf.reduce_sum(tf.gather(v, [1, 1]))
        both = first + tf.reduce_sum(tf.gather(v, [0]))
        mixed = first + tf.reduce_sum(v * 2.0)
        through = tf.reduce_sum(tf.gather(v * 3.0, [2]))   # a dense rule before the gather
    g = tape.gradient(both, v)
    assert isinstance(g, tf.IndexedSlices) and sorted(g.indices.numpy().tolist()) == [0, 1, 1]
    dense = np.zeros_like(TABLE)
    dense[0], dense[1] = 1, 2
    np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy(), dense)
    g = tape.gradient(mixed, v)
    assert not isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(g.numpy(), np.where(np.arange(10)[:, None] == 1, 4.0, 2.0)
                                  * np.ones_like(TABLE))
    g = tape.gradient(through, v)
    assert not isinstance(g, tf.IndexedSlices)
    assert g.numpy()[2].tolist() == [3, 3, 3] and g.numpy().sum() == 9


def test_indexed_slices_in_tf_function_and_sparse_update():
    v = tf.Variable(TABLE)

    @tf.function
    def step(ids):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.nn.embedding_lookup(v, ids))
        g = tape.gradient(loss, v)
        v.scatter_sub(tf.IndexedSlices(g.values * 0.5, g.indices))
        return g

    g = step(tf.constant([4, 4, 7]))
    assert isinstance(g, tf.IndexedSlices) and g.indices.numpy().tolist() == [4, 4, 7]
    want = TABLE.copy()
    want[4] -= 1.0
    want[7] -= 0.5
    np.testing.assert_allclose(v.numpy(), want, rtol=1e-6)


def test_optimizer_applies_indexed_slices():
    v = tf.Variable(TABLE)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.embedding_lookup(v, [2, 2]))
    tf.optimizers.SGD(0.1).apply_gradients([(tape.gradient(loss, v), v)])
    want = TABLE.copy()
    want[2] -= 0.2
    np.testing.assert_allclose(v.numpy(), want, rtol=1e-6)


def test_partitioned_lookup_by_mod_and_variables():
    parts = [tf.Variable(TABLE[i::3]) for i in range(3)]     # "mod": id i in part i % 3
    ids = np.int32([0, 9, 4, 5])
    from tracegraph.library.embedding import embedding_lookup_partitioned
    out = embedding_lookup_partitioned(parts, ids, "mod")
    np.testing.assert_array_equal(out.numpy(), TABLE[ids])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.embedding_lookup(parts, ids))   # "div" split
    grads = tape.gradient(loss, parts)   # each partition: the rows it gave ("div": 4, 3, 3)
    assert all(isinstance(g, tf.IndexedSlices) for g in grads)
    assert [g.indices.numpy().tolist() for g in grads] == [[0], [0, 1], [2]]
    assert [tf.convert_to_tensor(g).shape.as_list() for g in grads] == [[4, 3], [3, 3], [3, 3]]


@pytest.mark.parametrize("fn,shape", [
    (lambda x: tf.nn.local_response_normalization(x, 1, 0.5, 0.8, 0.6), (1, 2, 2, 5)),
    (lambda x: tf.nn.weighted_moments(x, [1], np.float32([[1, 0, 2]]))[1], (2, 3)),
    (lambda x: tf.nn.log_poisson_loss(np.float32([[0, 2, 3]] * 2), x, True), (2, 3)),
    (lambda x: tf.nn.weighted_cross_entropy_with_logits(np.float32([[0, 1, 0.5]] * 2), x,
                                                          1.5),
     (2, 3)),
    (lambda x: tf.nn.compute_average_loss(x, sample_weight=np.float32([[2], [0.5]])), (2, 3)),
    (lambda x: tf.nn.embedding_lookup(x, [[2, 0], [2, 2]], max_norm=0.5), (3, 2)),
])
def test_gradients_against_finite_differences(fn, shape):
    x = np.random.default_rng(2).uniform(0.2, 1.5, shape).astype(np.float32)
    theoretical, numerical = tf.test.compute_gradient(fn, [x])
    np.testing.assert_allclose(theoretical[0], numerical[0], rtol=2e-2, atol=2e-3)


X_ = CASES["log_sigmoid"][1][0]


def test_aliases_are_tensorflows():
    assert tf.nn.top_k is tf.math.top_k and tf.math.log_softmax is tf.nn.log_softmax
    assert tf.math.zero_fraction is tf.nn.zero_fraction and tf.nn.lrn is \
        tf.nn.local_response_normalization
    assert tf.nn.zero_fraction(np.zeros((2, 0), np.float32)).numpy() != \
        tf.nn.zero_fraction(np.zeros((2, 0), np.float32)).numpy()          # 0 / 0: NaN
    np.testing.assert_allclose(tf.nn.batch_norm_with_global_normalization(
        X_, 1.0, 4.0, 0.5, 3.0, 0.0, False).numpy(), (X_ - 1) / 2 + 0.5)


def test_depthwise_backprops_are_the_gradients_of_depthwise_conv2d():
    _, (w, dy) = CASES["depthwise_backprop_input"]
    x, w = tf.constant(CASES["depthwise_backprop_filter"][1][0]), tf.constant(w)
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME")
    dx, dw = tape.gradient(y, [x, w], output_gradients=dy)
    np.testing.assert_allclose(tf.nn.depthwise_conv2d_backprop_input(
        [2, 3, 4, 3], w, dy, [1, 2, 2, 1], "SAME").numpy(), dx.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(tf.nn.depthwise_conv2d_backprop_filter(
        x, [3, 2, 3, 2], dy, [1, 2, 2, 1], "SAME").numpy(), dw.numpy(), rtol=1e-5, atol=1e-5)


def test_top_level_asserts_keras_uses():
    """tf.assert_equal/greater/less/rank are tf.debugging's (Keras's global max pooling)."""
    assert tf.assert_greater is tf.debugging.assert_greater
    assert tf.assert_less is tf.debugging.assert_less
    assert tf.assert_equal is tf.debugging.assert_equal
    assert tf.assert_rank is tf.debugging.assert_rank
    tf.assert_greater(2, 1)
    with raises(tf.errors.InvalidArgumentError, "Condition x < y did not hold"):
        tf.assert_less(2, 1)


def test_ctc_loss_sparse_labels_and_errors():
    """Sparse labels give the dense labels' loss; TensorFlow's CTCLoss kernel's errors (the
    dense path of TF 2.21 returns a large finite loss, about 709, where the sequence cannot fit
    its frames; tracegraph raises the kernel's error there)."""
    fn, (labels, logits) = CASES["ctc_loss"]
    sparse = tf.sparse.from_dense(labels[:, :3] * np.int32([[1, 1, 1], [1, 1, 0]]))
    loss = tf.nn.ctc_loss(sparse, logits, None, [6, 4], logits_time_major=False, blank_index=0)
    np.testing.assert_allclose(loss.numpy(), REFERENCE["ctc_loss/out0"], rtol=1e-5)
    with raises(ValueError, "Argument `blank_index` must be provided when `labels` is a "
                            "`SparseTensor`."):
        tf.nn.ctc_loss(sparse, logits, None, [6, 4])
    with raises(tf.errors.InvalidArgumentError,
                "len(sequence_length) != batch_size.  len(sequence_length):  1 batch_size: 6"):
        tf.nn.ctc_loss(sparse, logits[:1], None, [6], blank_index=0)
    with raises(tf.errors.InvalidArgumentError,
                "Not enough time for target transition sequence (required: 4, available: 3)"):
        tf.nn.ctc_loss(labels, logits, [3, 2], [3, 4], logits_time_major=False)
    assert "CTCLoss" in _op_types(lambda x: tf.nn.ctc_loss(labels, x, [3, 2], [6, 4], True),
                                  tf.TensorSpec([6, 2, 5]))


@pytest.mark.parametrize("blank,merge,indices,values,shape", [
    (None, True, [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [1, 0]], [2, 1, 3, 1, 3, 1], [2, 5]),
    (0, False, [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [1, 0], [1, 1], [1, 2], [1, 3]],
     [2, 1, 1, 3, 1, 3, 1, 4, 4, 4], [2, 6]),
    (2, True, [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1]], [1, 3, 1, 3, 1, 4], [2, 4]),
])
def test_ctc_greedy_decoder_as_tensorflow(blank, merge, indices, values, shape):
    """TensorFlow 2.21's decodings of these frames (printed by it, eagerly and in graphs)."""
    frames = np.random.default_rng(0).standard_normal((6, 2, 5)).astype(np.float32)

    def parts(x):
        (decoded,), log_probability = tf.nn.ctc_greedy_decoder(x, [6, 4], merge, blank)
        return decoded.indices, decoded.values, decoded.dense_shape, log_probability
    for run in (parts, tf.function(parts)):
        ix, v, sh, lp = run(frames)
        assert ix.numpy().tolist() == indices and v.numpy().tolist() == values
        assert sh.numpy().tolist() == shape and v.dtype == tf.int64
        np.testing.assert_allclose(lp.numpy(), [[-4.75946], [-4.06014]], rtol=1e-5)
    (decoded,), log_probability = tf.nn.ctc_greedy_decoder(frames, [0, 1])
    assert decoded.indices.numpy().tolist() == [[1, 0]]
    assert decoded.dense_shape.numpy().tolist() == [2, 1]
    np.testing.assert_allclose(log_probability.numpy(), [[0.0], [-1.304]], rtol=1e-4)


def test_autopacked_shapes_take_the_dtype_asked_for():
    """tf.SparseTensor's dense shape from int32 scalars (Keras's ctc_decode): TF's autopacking
    casts a list's tensors to the dtype asked for."""
    n, m = tf.constant(2), tf.constant(6)
    assert tf.convert_to_tensor((n, m), dtype=tf.int64).dtype == tf.int64
    sparse = tf.SparseTensor([[0, 1]], [3], (n, m))
    assert sparse.dense_shape.numpy().tolist() == [2, 6]
