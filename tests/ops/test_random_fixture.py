"""tracegraph's random numbers are TensorFlow 2.21's, bit for bit: every case of
random_cases.py (stateless functions of every dtype, the raw V1/V2 ops, key/counter
scrambling, categorical, split/fold_in, stateless dropout, tf.random.Generator step by step
and inside a tf.function) against fixtures/tf_random.npz, made by
fixtures/make_random_fixture.py under TensorFlow."""

import pathlib

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.ops import libm, random_seeded
from tracegraph.ops.registry import bind, get_op

from .random_cases import CASES

FIXTURE = np.load(pathlib.Path(__file__).parent / "fixtures" / "tf_random.npz")
# Without numba, normals come from NumPy's log/sin/cos: within an ulp of the C library's.
EXACT = libm.exact()
TRANSCENDENTAL = ("normal", "truncated", "Normal", "shifted", "dropout", "scalar",
                  "int32_seed", "function")


def raw(op_type, **kwargs):
    """One op by its TensorFlow type, inputs and attrs by name (like `tf.raw_ops`)."""
    op = get_op(op_type)
    inputs = tuple(kwargs.pop(spec.name) for spec in op.inputs)
    return bind(op, inputs, kwargs)


@pytest.mark.parametrize("case", sorted(CASES))
def test_same_numbers_as_tensorflow(case, monkeypatch):
    # The categorical sampler splits its batch as TensorFlow did on the fixture's machine.
    threads = int(FIXTURE["threads/cpu_threads"])
    monkeypatch.setattr(random_seeded, "_cpu_threads", lambda: threads)
    got = CASES[case](tf, raw)
    if case == "threads":
        return
    want = {k.split("/", 1)[1]: FIXTURE[k] for k in FIXTURE.files if k.startswith(case + "/")}
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        mine = got[key]
        assert mine.dtype == value.dtype and mine.shape == value.shape, (key, mine, value)
        if EXACT or not any(word in key for word in TRANSCENDENTAL):
            np.testing.assert_array_equal(mine, value, err_msg=key)
        elif "sha256" not in key:
            np.testing.assert_allclose(mine.astype(np.float64), value.astype(np.float64),
                                       rtol=2e-3, atol=1e-6, err_msg=key)
