"""Save in this process, load in a fresh one that cannot import the defining module, and get
bit-identical results (R-8.1, R-10.2)."""

import numpy as np
import pytest

import tracegraph as tf

from ..catalogue import CATALOGUE
from .fresh import decode_array, encode_array, run_cases


def _get(obj, path):
    for part in path.split("."):
        obj = obj[int(part)] if isinstance(obj, list) else getattr(obj, part)
    return obj


def _arg(a):
    return {"array": encode_array(a)} if isinstance(a, (np.ndarray, np.generic)) else {"py": a}


def _call(obj, attr, args):
    fn = _get(obj, attr)
    return fn(*[tf.constant(a) if isinstance(a, (np.ndarray, np.generic)) else a for a in args])


@pytest.fixture(scope="module")
def fresh_results(tmp_path_factory):
    """Every catalogue entry: traced and saved here, loaded and called in one fresh process."""
    work = tmp_path_factory.mktemp("roundtrip")
    cases, expected = [], {}
    for name, build in CATALOGUE.items():
        obj, calls = build()
        for attr, args in calls:          # trace every signature the calls use
            _call(obj, attr, args)
        export = work / name
        tf.saved_model.save(obj, str(export))
        reference = tf.saved_model.load(str(export))  # the state as saved, loaded here too
        outs = [[np.asarray(t.numpy()) for t in tf.nest.flatten(_call(obj, attr, args))]
                for attr, args in calls]
        ref_outs = [[np.asarray(t.numpy()) for t in tf.nest.flatten(_call(reference, attr, a))]
                    for attr, a in calls]
        ref_vars = [np.asarray(v.numpy()) for v in reference.variables]
        expected[name] = (outs, ref_outs, ref_vars)
        cases.append({"name": name, "dir": str(export),
                      "calls": [{"attr": attr, "args": [_arg(a) for a in args]}
                                for attr, args in calls]})
    return run_cases(cases, work), expected


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype == object:
        return a.tolist() == b.tolist()
    return a.tobytes() == b.tobytes()


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_fresh_process_results_are_bit_identical(fresh_results, name):
    results, expected = fresh_results
    outs, ref_outs, _ = expected[name]
    got = results[name]["outputs"]
    assert len(got) == len(outs) == len(ref_outs)
    for call_out, call_want, call_ref in zip(got, outs, ref_outs):
        assert len(call_out) == len(call_want) == len(call_ref)
        for meta, want, ref in zip(call_out, call_want, call_ref):
            assert _same(decode_array(meta), want), (name, decode_array(meta), want)
            assert _same(ref, want), (name, ref, want)


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_fresh_process_variables_end_like_the_originals(fresh_results, name):
    """After the same calls, the fresh process's Variables equal those of the same model
    loaded and called here."""
    results, expected = fresh_results
    _, _, ref_vars = expected[name]
    got = [decode_array(meta) for _, meta in sorted(results[name]["variables"].items(),
                                                    key=lambda kv: int(kv[0].split("#")[1]))]
    assert len(got) == len(ref_vars)
    for a, b in zip(got, ref_vars):
        assert _same(a, b)


def test_variables_of_every_dtype_round_trip(tmp_path):
    from ..catalogue import AllDtypes
    obj = AllDtypes()
    obj.read_all()
    tf.saved_model.save(obj, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    for name, v in obj.vars.items():
        got = loaded.vars[name]
        assert got.dtype is v.dtype and _same(np.asarray(got.numpy()), np.asarray(v.numpy()))
    assert loaded.text.numpy().tolist() == [b"", b"caf\xc3\xa9", b"a\x00b\x00"]
    assert loaded.scalar.numpy() == np.float32(2.5) and loaded.scalar.shape == ()


def test_variables_with_unknown_dims_round_trip(tmp_path):
    from ..catalogue import Holder
    h = Holder()
    h.v = tf.Variable([1.0, 2.0], shape=tf.TensorShape([None]))
    h.u = tf.Variable([[1, 2]], shape=tf.TensorShape(None))
    tf.saved_model.save(h, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert loaded.v.shape.as_list() == [None] and loaded.u.shape.rank is None
    loaded.v.assign([1.0, 2.0, 3.0])          # a longer value fits the unknown dim
    assert loaded.v.numpy().tolist() == [1.0, 2.0, 3.0]
