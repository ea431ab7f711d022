"""Tensor bundles: every dtype TensorFlow stores (strings, bfloat16, sliced tensors over several
shards) read as TensorFlow reads them, written so that they read back, and damaged data
refused."""

import os
import shutil

import numpy as np
import pytest

from tracegraph import dtypes as d
from tracegraph.errors import NotFoundError
from tracegraph.formats.tensorflow.format_errors import InvalidSavedDataError, SavedDataError
from tracegraph.formats.tensorflow.messages import messages
from tracegraph.formats.tensorflow.model_files import CheckpointFiles
from tracegraph.formats.tensorflow.sstable import read_table, write_table
from tracegraph.formats.tensorflow.tensor_bundle import BundleReader, write_bundle
from tracegraph.formats.tensorflow.tensor_slice_keys import slice_key

from .fixtures_util import FIXTURES

pytest.importorskip("google_crc32c")


def _reader(prefix) -> BundleReader:
    return BundleReader(CheckpointFiles(prefix).open, str(prefix))


def test_every_dtype_tensorflow_wrote_reads_as_tensorflow_read_it():
    reader = _reader(FIXTURES / "ckpt_dtypes" / "ckpt")
    expected = np.load(FIXTURES / "ckpt_dtypes" / "expected.npz", allow_pickle=True)
    assert reader.num_shards == 4
    assert sorted(reader.entries) == sorted(expected.files)
    for key in expected.files:
        got, want = reader.read(key), expected[key]
        assert got.shape == want.shape, key
        if got.dtype == object:
            assert list(got.reshape(-1)) == list(want.reshape(-1)), key
        else:
            np.testing.assert_array_equal(got, want.astype(got.dtype), err_msg=key)
    assert reader.entry("values/bf16/.ATTRIBUTES/VARIABLE_VALUE").dtype is d.bfloat16
    assert reader.read("values/words/.ATTRIBUTES/VARIABLE_VALUE")[3] == bytes(range(256))


def test_a_sliced_tensor_is_assembled_from_its_slices():
    reader = _reader(FIXTURES / "ckpt_dtypes" / "ckpt")
    big = reader.entry("values/big/.ATTRIBUTES/VARIABLE_VALUE")
    assert len(big.slices) == 7 and big.size == 0
    np.testing.assert_array_equal(reader.read(big.name),
                                  np.arange(1600, dtype=np.float32).reshape(40, 40))


def test_slice_keys_follow_tensorflows_ordered_code():
    s = messages().TensorSliceProto()
    for start, length in ((0, 10), (-1, None), (70, 2**40), (-300, 5)):
        extent = s.extent.add(start=start)
        if length is not None:
            extent.length = length
    key = slice_key("a\x00b", s)
    assert key.startswith(b"\x00a\x00\xffb\x00\x01\x01\x04")     # num(0) string num(rank 4)
    assert key[9:11] == b"\x80\x8a"                              # 0, 10: one byte each
    assert key[11:13] == b"\x80\x7f"                             # a whole dimension: 0, -1
    assert key[13:15] == b"\xc0\x46"                             # 70: two bytes, header 10
    assert key[15:21] == b"\xfd\x00\x00\x00\x00\x00"             # 2**40: six bytes, 0xfc header
    assert key[21:] == b"\x3e\xd4\x85"                           # -300 in two bytes, then 5


VALUES = {
    "f32": (d.float32, np.arange(12, dtype=np.float32).reshape(3, 4) / 7),
    "f16": (d.float16, np.array([1.5, -65504, 0.1], np.float16)),
    "bf16": (d.bfloat16, np.array([1.5, -2.25, 3.0e38, np.nan, 1 / 3], np.float32)),
    "f64": (d.float64, np.linspace(-1, 1, 5)),
    "c128": (d.complex128, np.array([1 + 2j, -3.5j])),
    "i8": (d.int8, np.array([-128, 127], np.int8)),
    "u64": (d.uint64, np.array([0, 2**64 - 1], np.uint64)),
    "b": (d.bool, np.array([[True, False]])),
    "s": (d.string, np.array([b"", b"x" * 300, "\u00e9".encode()], dtype=object)),
    "scalar_s": (d.string, np.array(b"one", dtype=object)),
    "empty": (d.float32, np.zeros((0, 3), np.float32)),
    "empty_s": (d.string, np.zeros((0,), dtype=object)),
}


def test_written_bundles_read_back(tmp_path):
    prefix = str(tmp_path / "ckpt")
    write_bundle(prefix, VALUES)
    assert sorted(os.listdir(tmp_path)) == ["ckpt.data-00000-of-00001", "ckpt.index"]
    reader = _reader(prefix)
    for key, (dtype, value) in VALUES.items():
        got = reader.read(key)
        assert reader.entry(key).dtype is dtype and got.shape == value.shape
        if dtype is d.bfloat16:   # rounded to 8 bits of mantissa, NaN stays NaN
            np.testing.assert_allclose(got, value, rtol=2**-8)
        elif dtype is d.string:
            assert list(got.reshape(-1)) == list(value.reshape(-1))
        else:
            np.testing.assert_array_equal(got, value)
    assert reader.read("f32").flags.writeable


def _damage(path, offset: int) -> None:
    data = bytearray(open(path, "rb").read())
    data[offset] ^= 0x01
    open(path, "wb").write(bytes(data))


def test_a_damaged_tensor_fails_its_checksum(tmp_path):
    shutil.copytree(FIXTURES / "ckpt_adam", tmp_path / "c")
    prefix = tmp_path / "c" / "ckpt-1"
    entry = _reader(prefix).entry("model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE")
    _damage(f"{prefix}.data-00000-of-00001", entry.offset + 3)
    reader = _reader(prefix)
    reader.read("model/dense/bias/.ATTRIBUTES/VARIABLE_VALUE")        # others still read
    with pytest.raises(SavedDataError, match="checksum does not match"):
        reader.read(entry.name)


def test_a_damaged_string_tensor_fails(tmp_path):
    shutil.copytree(FIXTURES / "ckpt_dtypes", tmp_path / "c")
    prefix = tmp_path / "c" / "ckpt"
    entry = _reader(prefix).entry("values/words/.ATTRIBUTES/VARIABLE_VALUE")
    for offset, message in ((0, "lengths|checksum"), (entry.size - 1, "checksum")):
        shutil.copy(FIXTURES / "ckpt_dtypes" / "ckpt.data-00000-of-00004",
                    f"{prefix}.data-00000-of-00004")
        _damage(f"{prefix}.data-00000-of-00004", entry.offset + offset)
        with pytest.raises(SavedDataError, match=message):
            _reader(prefix).read(entry.name)


def _rewrite_entry(prefix, key: bytes, change) -> None:
    table = read_table(open(f"{prefix}.index", "rb").read(), "x")
    out = []
    for k, v in table:
        if k == key:
            proto = messages().BundleEntryProto()
            proto.ParseFromString(v)
            change(proto)
            v = proto.SerializeToString()
        out.append((k, v))
    open(f"{prefix}.index", "wb").write(write_table(out))


@pytest.mark.parametrize("change,error,message", [
    (lambda e: setattr(e, "size", 2**40), SavedDataError, "bytes for a float32"),
    (lambda e: e.shape.dim.add(size=2**62), InvalidSavedDataError, "too large"),
    (lambda e: e.shape.dim.add(size=-5), InvalidSavedDataError, "non-negative"),
    (lambda e: setattr(e, "dtype", 20), InvalidSavedDataError, "cannot be stored"),
    (lambda e: setattr(e, "dtype", 99), InvalidSavedDataError, "cannot be stored"),
    (lambda e: setattr(e, "shard_id", 3), SavedDataError, "shard 3 of 1"),
    (lambda e: setattr(e, "offset", 2**40), SavedDataError, "past the end"),
])
def test_entries_that_lie_about_their_tensor(tmp_path, change, error, message):
    shutil.copytree(FIXTURES / "ckpt_adam", tmp_path / "c")
    prefix = tmp_path / "c" / "ckpt-1"
    key = "model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE"
    _rewrite_entry(prefix, key.encode(), change)
    with pytest.raises(error, match=message):
        _reader(prefix).read(key)


def test_missing_keys_and_files():
    reader = _reader(FIXTURES / "ckpt_adam" / "ckpt-1")
    with pytest.raises(NotFoundError, match="Key nope not found in checkpoint"):
        reader.read("nope")
    with pytest.raises(NotFoundError):
        _reader(FIXTURES / "ckpt_adam" / "missing")


def test_a_missing_extra_is_named(monkeypatch):
    import sys

    from tracegraph.formats.tensorflow.checksums import crc32c
    monkeypatch.setitem(sys.modules, "google_crc32c", None)   # as if not installed
    with pytest.raises(ImportError, match=r"pip install 'tracegraph\[tfformats\]'"):
        crc32c(b"data")
