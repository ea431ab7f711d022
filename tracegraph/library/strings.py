"""The TensorFlow-style functions of the strings family, built from its op records."""

from __future__ import annotations

from .. import dtypes as d
from ..ops.registry import NO_ATTRS, bind
from ..ops.string_hashing import (
    string_to_hash_bucket_fast_op,
    string_to_hash_bucket_op,
    string_to_hash_bucket_strong_op,
)
from ..ops.strings import (
    as_string_op,
    join_op,
    length_op,
    lower_op,
    regex_replace_op,
    strip_op,
    substr_op,
    to_number_op,
    upper_op,
)

# ---- (tf.strings) ---------------------------------------------------------------


def join(inputs, separator="", name=None):
    return bind(join_op, (list(inputs),), {"separator": separator}, name)


def length(input, unit="BYTE", name=None):  # noqa: A002
    return bind(length_op, (input,), {"unit": unit}, name)


def upper(input, encoding="", name=None):  # noqa: A002
    return bind(upper_op, (input,), {"encoding": encoding}, name)


def lower(input, encoding="", name=None):  # noqa: A002
    return bind(lower_op, (input,), {"encoding": encoding}, name)


def strip(input, name=None):  # noqa: A002
    return bind(strip_op, (input,), NO_ATTRS, name)


def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002
    return bind(substr_op, (input, pos, len), {"unit": unit}, name)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    return bind(regex_replace_op, (input, pattern, rewrite),
                {"replace_global": bool(replace_global)}, name)


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1,  # noqa: A002
              fill="", name=None):
    return bind(as_string_op, (input,), {"precision": precision, "scientific": scientific,
                                         "shortest": shortest, "width": width, "fill": fill},
                name)


def to_number(input, out_type=d.float32, name=None):  # noqa: A002
    return bind(to_number_op, (input,), {"out_type": d.as_dtype(out_type)}, name)



def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002
    """Fingerprint64(s) % num_buckets: the stable hash TensorFlow recommends."""
    return bind(string_to_hash_bucket_fast_op, (input,), {"num_buckets": int(num_buckets)}, name)


def to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """SipHash-2-4 keyed by `key` (two ints), modulo num_buckets."""
    key = [int(k) for k in key]
    if len(key) != 2:
        raise ValueError(f"key must have size 2, got {len(key)}")
    return bind(string_to_hash_bucket_strong_op, (input,),
                {"num_buckets": int(num_buckets), "key": tuple(key)}, name)


def to_hash_bucket(string_tensor, num_buckets, name=None):
    """TensorFlow's legacy Hash64 modulo num_buckets (prefer to_hash_bucket_fast)."""
    return bind(string_to_hash_bucket_op, (string_tensor,), {"num_buckets": int(num_buckets)},
                name)
