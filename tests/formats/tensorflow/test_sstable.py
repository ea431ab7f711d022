"""The `.index` table: TensorFlow's files read, written back byte for byte, and every
corruption refused with a DataLossError naming the file."""

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tracegraph as tf
from tracegraph.formats.tensorflow.checksums import crc32c, mask, unmask
from tracegraph.formats.tensorflow.format_errors import SavedDataError
from tracegraph.formats.tensorflow.sstable import read_table, write_table

from .fixtures_util import FIXTURES

pytest.importorskip("google_crc32c")
INDEXES = ["ckpt_dtypes/ckpt.index", "ckpt_adam/ckpt-1.index", "mlp/variables/variables.index",
           "keras_export/variables/variables.index"]


def test_crc32c_and_its_mask():
    assert crc32c(b"123456789") == 0xE3069283          # the CRC32C check value
    assert crc32c(b"6789", crc32c(b"12345")) == crc32c(b"123456789")
    for value in (0, 1, 0xE3069283, 0xFFFFFFFF):
        assert unmask(mask(value)) == value
        assert mask(value) != value


@pytest.mark.parametrize("name", INDEXES)
def test_tensorflow_tables_read_and_write_back_identically(name):
    data = (FIXTURES / name).read_bytes()
    entries = read_table(data, name)
    assert entries[0][0] == b""                          # the bundle header comes first
    assert [k for k, _ in entries] == sorted(k for k, _ in entries)
    assert write_table(entries) == data


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.binary(max_size=40), st.binary(max_size=3000), max_size=60))
def test_any_entries_round_trip(table):
    entries = sorted(table.items())
    assert read_table(write_table(entries), "t.index") == entries


def _damaged(data: bytes, position: int) -> bytes:
    return data[:position] + bytes([data[position] ^ 0x40]) + data[position + 1:]


def test_a_flipped_bit_in_a_block_is_a_checksum_error():
    data = (FIXTURES / "ckpt_adam/ckpt-1.index").read_bytes()
    with pytest.raises(SavedDataError, match="checksum mismatch") as info:
        read_table(_damaged(data, 20), "ckpt-1.index")
    assert isinstance(info.value, tf.errors.DataLossError)
    assert info.value.file == "ckpt-1.index"


@pytest.mark.parametrize("cut", [0, 10, 47, 100, -1])
def test_truncated_tables(cut):
    data = (FIXTURES / "ckpt_adam/ckpt-1.index").read_bytes()
    with pytest.raises(SavedDataError):
        read_table(data[:cut], "t.index")


def test_bad_magic_and_handles_past_the_end():
    data = bytearray((FIXTURES / "ckpt_adam/ckpt-1.index").read_bytes())
    with pytest.raises(SavedDataError, match="bad magic"):
        read_table(bytes(data[:-1] + b"\x00"), "t.index")
    footer = len(data) - 48
    data[footer:footer + 40] = b"\xff\xff\xff\xff\x0f\x05" + b"\x00" * 34   # huge offset
    with pytest.raises(SavedDataError, match="past the end"):
        read_table(bytes(data), "t.index")


def test_unsorted_keys_and_compressed_blocks_are_refused():
    entries = [(b"a", b"1"), (b"b", b"2")]
    data = bytearray(write_table(entries))
    swapped = write_table([(b"b", b"2"), (b"a", b"1")])
    with pytest.raises(SavedDataError, match="out of order"):
        read_table(swapped, "t.index")
    data[len(b"\x00\x01\x01a1\x00\x01\x01b2") + 8] = 1          # the first block's type byte
    block = bytes(data[:len(b"\x00\x01\x01a1\x00\x01\x01b2") + 8])
    data[len(block) + 1:len(block) + 5] = struct.pack("<I", mask(crc32c(block + b"\x01")))
    with pytest.raises(SavedDataError, match="compression type 1"):
        read_table(bytes(data), "t.index")
