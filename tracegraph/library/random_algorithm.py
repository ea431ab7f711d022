"""`tf.random.Algorithm` and how a `seed` or an `alg` argument becomes what the random ops take.

TensorFlow's algorithm ids: `PHILOX` (1) runs everywhere, `THREEFRY` (2) only under XLA (a CPU
kernel refuses it, as TensorFlow's does), `AUTO_SELECT` (3) lets the device choose: Philox on a
CPU. An `alg` argument may be an `Algorithm`, its id, its name in any case with or without
`-`/`_` (`"philox"`, `"auto_select"`), or an int32 tensor.
"""

from __future__ import annotations

import enum

from .. import dtypes as d
from ..ops.random_stateless import stateless_random_get_key_counter_op
from ..ops.registry import bind, convert_to_tensor
from .array import reshape, zeros
from .math import bitwise_or, cast, left_shift

__all__ = ["Algorithm", "convert_alg_to_int", "unsupported_alg_error_msg", "key_counter_alg",
           "key_counter"]


class Algorithm(enum.Enum):
    """A random-number-generation algorithm (`tf.random.Algorithm`)."""

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3



def unsupported_alg_error_msg(alg) -> str:
    if isinstance(alg, int):
        names = [a.value for a in Algorithm]
    elif isinstance(alg, str):
        names = ["philox", "threefry", "auto_select"]
    else:
        names = list(Algorithm)
    return (f"Argument `alg` got unsupported value {alg}. Supported values are {names[0]} for "
            f"the Philox algorithm, {names[1]} for the ThreeFry algorithm, and {names[2]} for "
            f"auto-selection.")


def convert_alg_to_int(alg):
    """An algorithm's id (a tensor stays a tensor)."""
    if isinstance(alg, bool):
        raise TypeError(f"Can't convert argument `alg` (of value {alg} and type {type(alg)}) "
                        f"to int.")
    if isinstance(alg, int):
        return alg
    if isinstance(alg, Algorithm):
        return alg.value
    if isinstance(getattr(alg, "dtype", None), d.DType):   # a tensor: its value decides
        return alg
    if isinstance(alg, str):
        canonical = alg.strip().lower().replace("-", "").replace("_", "")
        ids = {"philox": Algorithm.PHILOX, "threefry": Algorithm.THREEFRY,
               "autoselect": Algorithm.AUTO_SELECT}
        if canonical in ids:
            return ids[canonical].value
        raise ValueError(unsupported_alg_error_msg(alg))
    raise TypeError(f"Can't convert argument `alg` (of value {alg} and type {type(alg)}) to "
                    f"int.")


def key_counter(seed, alg: int):
    """The key and counter the `...V2` ops take for `seed` under algorithm `alg`: Philox and
    auto-select scramble the seed (`StatelessRandomGetKeyCounter`), ThreeFry packs it into the
    key with a zero counter. A symbolic `alg` tensor is taken to be Philox's."""
    if isinstance(getattr(alg, "dtype", None), d.DType):
        alg = int(alg.numpy()) if hasattr(alg, "numpy") else Algorithm.PHILOX.value
    if alg in (Algorithm.AUTO_SELECT.value, Algorithm.PHILOX.value):
        return bind(stateless_random_get_key_counter_op, (seed,))
    if alg == Algorithm.THREEFRY.value:
        words = cast(seed, d.uint32)
        key = bitwise_or(cast(words[0], d.uint64),
                         left_shift(cast(words[1], d.uint64),
                                    convert_to_tensor(32, dtype=d.uint64)))
        return reshape(key, [1]), zeros([1], d.uint64)
    raise ValueError(unsupported_alg_error_msg(alg))


def key_counter_alg(seed, alg):
    """(key, counter, algorithm id) for a stateless op (`alg=None` is auto-select)."""
    alg = convert_alg_to_int(Algorithm.AUTO_SELECT.value if alg is None else alg)
    key, counter = key_counter(seed, alg)
    return key, counter, alg
