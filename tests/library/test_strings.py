"""`tf.strings` and string tensors, against Python's own string operations.

Expected behaviour (values, error types and messages) was taken from TensorFlow 2.21.
"""

import re

import numpy as np
import pytest

import tracegraph as tf

from .oracle import expect, raises

WORDS = ["abc", "", "héllo", " Mixed Case \n"]
BYTES = [w.encode() for w in WORDS]


def _strings(values):
    return np.array(values, dtype=object)


def test_string_tensors():
    t = tf.constant(WORDS)
    expect(t, BYTES)
    assert t.dtype == tf.string
    expect(tf.constant("a") + tf.constant("a"), _strings(b"aa"))
    expect(tf.constant(["a", "b"]) == tf.constant(["a", "c"]), np.array([True, False]))
    expect(tf.equal(tf.constant("a"), "a"), np.bool_(True))


@pytest.mark.parametrize("inputs,separator,ref", [
    ([["a", "b"], ["c", "d"]], "", [b"ac", b"bd"]),
    ([["a", "b"], "x"], "-", [b"a-x", b"b-x"]),       # scalars broadcast
    (["a", "b"], "", b"ab"),
    ([[["a"], ["b"]], [["c"], ["d"]]], ", ", [[b"a, c"], [b"b, d"]]),
    ([], "", b""),
])
def test_join(inputs, separator, ref):
    expect(tf.strings.join([tf.constant(x) for x in inputs], separator=separator),
           _strings(ref) if isinstance(ref, bytes) else ref)


def test_join_does_not_broadcast_non_scalars():
    with raises(tf.errors.InvalidArgumentError, "Input shapes do not match: [2] vs. [3]",
                "[Op:StringJoin]"):
        tf.strings.join([tf.constant(["a", "b"]), tf.constant(["c", "d", "e"])])


def test_length():
    expect(tf.strings.length(WORDS), np.int32([len(b) for b in BYTES]))
    expect(tf.strings.length(WORDS, unit="UTF8_CHAR"), np.int32([len(w) for w in WORDS]))
    with raises(tf.errors.InvalidArgumentError, "expected to be a string tensor but is a int32"):
        tf.strings.length(tf.constant([1]))


def test_upper_lower_strip():
    expect(tf.strings.upper(WORDS), [b.upper() for b in BYTES])  # ASCII only by default
    expect(tf.strings.upper(WORDS, encoding="utf-8"), [w.upper().encode() for w in WORDS])
    expect(tf.strings.lower(WORDS), [b.lower() for b in BYTES])
    expect(tf.strings.lower(["ÀB"], encoding="utf-8"), ["àb".encode()])
    expect(tf.strings.strip(WORDS), [b.strip() for b in BYTES])


@pytest.mark.parametrize("x,pos,length,unit,ref", [
    (["hello", "world"], 1, 3, "BYTE", [b"ell", b"orl"]),
    ("hello", -3, 2, "BYTE", _strings(b"ll")),          # counts from the end
    ("hello", 2, 10, "BYTE", _strings(b"llo")),
    ("hello", 5, 1, "BYTE", _strings(b"")),
    (["hello", "ab"], [1, 0], [2, 1], "BYTE", [b"el", b"a"]),
    ("héllo", 1, 2, "UTF8_CHAR", _strings("él".encode())),
])
def test_substr(x, pos, length, unit, ref):
    expect(tf.strings.substr(x, pos, length, unit=unit), ref)


def test_substr_out_of_range():
    with raises(tf.errors.InvalidArgumentError, "pos 6 out of range for string b'hello' at "
                                                "index 0", "[Op:Substr]"):
        tf.strings.substr("hello", 6, 1)
    with raises(tf.errors.InvalidArgumentError, "pos 3 out of range for string b'ab' at index 1"):
        tf.strings.substr(["hello", "ab"], [0, 3], [1, 1])


@pytest.mark.parametrize("pattern,rewrite,replace_global", [
    ("a+", "_", True), ("l", "L", False), ("(l+)", r"[\1]", True), ("o", r"\0\0", True),
    ("^", ">", True), ("[aeiou]", "", True),
])
def test_regex_replace(pattern, rewrite, replace_global):
    py_rewrite = rewrite.replace(r"\0", r"\g<0>")
    ref = [re.sub(pattern, py_rewrite, w, count=0 if replace_global else 1).encode()
           for w in ["aabc", "hello", "xyz"]]
    expect(tf.strings.regex_replace(["aabc", "hello", "xyz"], pattern, rewrite,
                                    replace_global=replace_global), ref)


@pytest.mark.parametrize("x,kwargs,ref", [
    (np.float32([1.5, 2.0]), {}, [b"1.500000", b"2.000000"]),
    (np.float64([1.5]), {}, [b"1.500000"]),
    (np.float32([3.14159]), {"precision": 2}, [b"3.14"]),
    (np.float32([314.159]), {"scientific": True}, [b"3.141590e+02"]),
    (np.float32([0.0001, 123456789.0]), {"shortest": True}, [b"0.0001", b"1.23457e+08"]),
    (np.int32([1, 22]), {"width": 4}, [b"   1", b"  22"]),
    (np.int32([1, 22]), {"width": 4, "fill": "0"}, [b"0001", b"0022"]),
    (np.array([True, False]), {}, [b"true", b"false"]),
    (np.array([b"a"], dtype=object), {"width": 3}, [b"  a"]),
    (np.int64([-(2**40)]), {}, [b"-1099511627776"]),
])
def test_as_string(x, kwargs, ref):
    expect(tf.strings.as_string(x, **kwargs), ref)


@pytest.mark.parametrize("x,out_type,ref", [
    (["1.5", "-2", " 3 "], tf.float32, np.float32([1.5, -2, 3])),
    (["12", "-3"], tf.int32, np.int32([12, -3])),
    (["1e3", "inf", "nan"], tf.float64, np.float64([1e3, np.inf, np.nan])),
    (["7"], tf.int64, np.int64([7])),
])
def test_to_number(x, out_type, ref):
    expect(tf.strings.to_number(x, out_type=out_type), ref)


@pytest.mark.parametrize("x,out_type,text", [
    (["abc"], tf.float32, "abc"), (["1.5"], tf.int32, "1.5"),
    (["99999999999"], tf.int32, "99999999999"),
])
def test_to_number_errors(x, out_type, text):
    with raises(tf.errors.InvalidArgumentError, "StringToNumberOp could not correctly convert "
                                                f"string: {text}"):
        tf.strings.to_number(x, out_type=out_type)


@pytest.mark.parametrize("template,inputs,kwargs,ref", [
    ("x={} y={}", [tf.constant([1, 2]), tf.constant(3.5)], {}, b"x=[1 2] y=3.5"),
    ("x={}", tf.constant([[1, 2], [3, 4]]), {}, b"x=[[1 2]\n [3 4]]"),
    ("x={}", tf.range(10), {}, b"x=[0 1 2 ... 7 8 9]"),
    ("x={}", tf.range(10), {"summarize": 2}, b"x=[0 1 ... 8 9]"),
    ("x={}", tf.range(10), {"summarize": -1}, b"x=[0 1 2 3 4 5 6 7 8 9]"),
    ("{}", tf.constant(["a", "b"]), {}, b'["a" "b"]'),
    ("{}", tf.constant(True), {}, b"1"),
    ("{}", tf.constant([0.1, 1e-8, 123456789.0]), {}, b"[0.1 1e-08 123456792]"),
    ("x=%s", tf.constant(1), {"placeholder": "%s"}, b"x=1"),
])
def test_format(template, inputs, kwargs, ref):
    expect(tf.strings.format(template, inputs, **kwargs), _strings(ref))


def test_format_placeholder_count():
    with raises(ValueError, "The template expects 2 tensors, but the inputs only has 1. Please "
                            "ensure the number of placeholders in template matches inputs "
                            "length."):
        tf.strings.format("x={} {}", [tf.constant(1)])
