"""tf.RaggedTensor, tf.ragged.constant and the text functions with ragged results (issue 14).

Printed forms and values were taken from TensorFlow 2.21.
"""

import numpy as np
import pytest

import tracegraph as tf

ROWS = [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]


def test_ragged_constant_prints_and_converts_as_tensorflow():
    with pytest.raises(ValueError, match="non-rectangular Python sequence"):
        tf.constant(ROWS)
    rt = tf.ragged.constant(ROWS)
    assert str(rt) == repr(rt) == "<tf.RaggedTensor [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]>"
    assert rt.shape.as_list() == [4, None] and rt.dtype == tf.int32 and rt.ragged_rank == 1
    assert rt.to_list() == ROWS
    np.testing.assert_array_equal(rt.to_tensor().numpy(),
                                  [[0, 1, 2, 3], [4, 5, 0, 0], [6, 7, 8, 0], [9, 0, 0, 0]])
    assert rt.row_lengths().numpy().tolist() == [4, 2, 3, 1]
    assert rt.row_lengths().dtype == tf.int64
    assert rt.row_splits.numpy().tolist() == [0, 4, 6, 9, 10]
    assert rt.values.numpy().tolist() == list(range(10))
    assert rt[1].numpy().tolist() == [4, 5] and rt[-1].numpy().tolist() == [9]
    assert int(rt.nrows()) == 4


def test_ragged_printing_of_other_dtypes_and_nesting():
    assert str(tf.ragged.constant([[1.5, 2.0], []])) == "<tf.RaggedTensor [[1.5, 2.0], []]>"
    assert str(tf.ragged.constant([["a", "b"], ["c"]])) == \
        "<tf.RaggedTensor [[b'a', b'b'], [b'c']]>"
    nested = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert nested.shape.as_list() == [2, None, None]
    np.testing.assert_array_equal(nested.to_tensor(default_value=-1).numpy(),
                                  [[[1, 2], [3, -1]], [[4, -1], [-1, -1]]])
    assert str(tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 0, 1])) == \
        "<tf.RaggedTensor [[1, 2], [], [3]]>"


def test_factories_validate_splits():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1, 3])
    with pytest.raises(ValueError, match="private"):
        tf.RaggedTensor([1], [0, 1])


def test_strings_split():
    words = tf.strings.split(tf.constant(["Gray wolf", "Quick brown fox", "Lazy dog"]))
    assert str(words) == ("<tf.RaggedTensor [[b'Gray', b'wolf'], [b'Quick', b'brown', b'fox'],"
                          " [b'Lazy', b'dog']]>")
    scalar = tf.strings.split(tf.constant("Gray wolf"), sep=" ")
    assert isinstance(scalar, tf.Tensor) and scalar.numpy().tolist() == [b"Gray", b"wolf"]
    assert str(tf.strings.split(tf.constant([["a b", "c"], ["d e f", ""]]))) == (
        "<tf.RaggedTensor [[[b'a', b'b'], [b'c']],\n [[b'd', b'e', b'f'], []]]>")
    assert tf.strings.split(tf.constant(["a,b,,c", "d"]), sep=",").to_list() == \
        [[b"a", b"b", b"", b"c"], [b"d"]]
    assert tf.strings.split(tf.constant(["a b c d"]), maxsplit=1).to_list() == \
        [[b"a", b"b c d"]]
    np.testing.assert_array_equal(
        tf.strings.to_number(tf.strings.split(tf.constant("1 10 100"), " ")).numpy(),
        [1., 10., 100.])


def test_bytes_unicode_and_decode_raw():
    assert str(tf.strings.bytes_split(tf.constant("Duck"))) == \
        "tf.Tensor([b'D' b'u' b'c' b'k'], shape=(4,), dtype=string)"
    assert str(tf.io.decode_raw(tf.constant("Duck"), tf.uint8)) == \
        "tf.Tensor([ 68 117  99 107], shape=(4,), dtype=uint8)"
    duck = tf.constant("アヒル 🦆")
    assert str(tf.strings.unicode_split(duck, "UTF-8")) == (
        r"tf.Tensor([b'\xe3\x82\xa2' b'\xe3\x83\x92' b'\xe3\x83\xab' b' ' b'\xf0\x9f\xa6\x86'],"
        " shape=(5,), dtype=string)")
    assert str(tf.strings.unicode_decode(duck, "UTF-8")) == \
        "tf.Tensor([ 12450  12498  12523     32 129414], shape=(5,), dtype=int32)"
    pair = tf.constant(["héllo", "ab"])
    assert str(tf.strings.unicode_decode(pair, "UTF-8")) == \
        "<tf.RaggedTensor [[104, 233, 108, 108, 111], [97, 98]]>"
    assert tf.strings.unicode_split(pair, "UTF-8").to_list() == \
        [[b"h", "é".encode(), b"l", b"l", b"o"], [b"a", b"b"]]
    assert tf.strings.bytes_split(tf.constant(["ab", ""])).to_list() == [[b"a", b"b"], []]
    raw = tf.constant(["abcd", "efgh"])
    assert tf.io.decode_raw(raw, tf.int16).numpy().tolist() == [[25185, 25699], [26213, 26727]]
    assert tf.io.decode_raw(raw, tf.int16, little_endian=False).numpy().tolist() == \
        [[24930, 25444], [25958, 26472]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="same size"):
        tf.io.decode_raw(tf.constant(["ab", "c"]), tf.uint8)
    assert tf.strings.regex_full_match(tf.constant(["abc", "x"]), "a.c").numpy().tolist() == \
        [True, False]


def test_ragged_parts_inside_a_function():
    @tf.function
    def padded_words(s):
        return tf.strings.split(s).to_tensor(default_value="-")

    out = padded_words(tf.constant(["a b", "c"]))
    assert out.numpy().tolist() == [[b"a", b"b"], [b"c", b"-"]]
    lengths = tf.function(lambda s: tf.strings.split(s).row_lengths())(tf.constant(["a b", "c"]))
    assert lengths.numpy().tolist() == [2, 1]


def test_from_tensor_iteration_and_no_len():
    rt = tf.RaggedTensor.from_tensor(tf.constant([[1, 2], [3, 4]]))
    assert str(rt) == "<tf.RaggedTensor [[1, 2],\n [3, 4]]>"  # equal rows print as a matrix
    ragged = tf.ragged.constant([[1, 2], [3]])
    assert [r.numpy().tolist() for r in ragged] == [[1, 2], [3]]
    with pytest.raises(TypeError):
        len(ragged)
    assert str(tf.ragged.constant([[], []])) == "<tf.RaggedTensor [[], []]>"
