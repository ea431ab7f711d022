"""TensorFlow's tensor bundles: the `PREFIX.index` table and `PREFIX.data-0000k-of-0000N` shards
that hold a checkpoint's (and a SavedModel's `variables/`) tensors.

The index is a sorted string table (`sstable`) whose first entry, under the empty key, is a
`BundleHeaderProto` (number of shards, endianness, format version) and whose other entries map
each tensor's name to a `BundleEntryProto`: dtype, shape, the shard holding its bytes, their
offset and size, and their masked CRC32C. Numbers are stored as their little-endian bytes;
a string tensor as the varint64 lengths of its elements, the masked CRC32C of those lengths
(each taken as a little-endian uint32), then the bytes of every element; its entry's checksum
covers the uint32 lengths, that length checksum and the bytes. A tensor too big for one shard
is stored as slices: its entry lists them and each slice is an entry of its own, keyed by
`tensor_slice_keys.slice_key`.

`BundleReader` validates the header and every entry when it opens the index, then reads a
tensor on demand: one bounded read into a NumPy buffer, its checksum, and a view of the buffer
as the tensor (no per-element Python except for string elements). `write_bundle` writes one
shard and the index, each through a temporary file renamed into place.
"""

from __future__ import annotations

import math
import os
import struct
import tempfile

import numpy as np

from ... import dtypes as d
from ...errors import NotFoundError
from .checksums import crc32c, crc32c_of_array, mask, unmask
from .format_errors import data_loss, invalid
from .messages import messages
from .sstable import read_table, write_table
from .tensor_slice_keys import slice_key

__all__ = ["BundleReader", "BundleEntry", "write_bundle", "data_suffix", "storable_dtype",
           "MAX_INDEX_BYTES", "MAX_ELEMENTS"]

MAX_INDEX_BYTES = 1 << 30
MAX_SHARDS = 1 << 20
MAX_ELEMENTS = 1 << 40
BUNDLE_VERSION = 1           # TensorFlow's kTensorBundleVersion (what this code writes and reads)

# bfloat16 is stored as 16 bits: the upper half of a float32.
_STORED = {d.bfloat16: np.dtype("<u2"), d.bool: np.dtype("u1")}


def data_suffix(shard: int, num_shards: int) -> str:
    return f".data-{shard:05d}-of-{num_shards:05d}"


def storable_dtype(dtype) -> bool:
    return dtype is d.string or (dtype not in (d.resource, d.variant) and
                                 dtype.as_numpy_dtype is not object)


def _stored_dtype(dtype) -> np.dtype:
    return _STORED.get(dtype) or np.dtype(dtype.as_numpy_dtype).newbyteorder("<")


class BundleEntry:
    """One tensor of the index: where its bytes are and what they must be."""

    __slots__ = ("name", "dtype", "shape", "shard", "offset", "size", "crc", "slices")

    def __init__(self, name, dtype, shape, shard, offset, size, crc, slices):
        self.name, self.dtype, self.shape = name, dtype, shape
        self.shard, self.offset, self.size, self.crc, self.slices = (
            shard, offset, size, crc, slices)


class BundleReader:
    """The tensors of a bundle. `open(suffix)` opens `PREFIX + suffix` (`.index`,
    `.data-00000-of-00001`, ...) as a checked file (`model_files`)."""

    def __init__(self, open_file, name: str):
        self._open = open_file
        self.name = name                       # the prefix, for messages
        with open_file(".index") as f:
            self.index_file = f.path
            if f.size > MAX_INDEX_BYTES:
                raise data_loss(f.path, "", f"{f.size} bytes is more than the "
                                f"{MAX_INDEX_BYTES} an index may have")
            table = read_table(f.read_at(0, f.size), f.path)
        if not table or table[0][0] != b"":
            raise data_loss(self.index_file, "header", "the index has no bundle header")
        self.num_shards, self.big_endian = self._header(table[0][1])
        self.entries: dict[str, BundleEntry] = {}
        self._slices: dict[bytes, BundleEntry] = {}
        for key, value in table[1:]:
            entry = self._entry(key, value)
            if key[:1] == b"\x00":
                self._slices[key] = entry
            else:
                self.entries[entry.name] = entry
        for entry in self.entries.values():
            if entry.slices:
                self._check_slices(entry)

    # --- the index -------------------------------------------------------------------------------
    def _header(self, value: bytes):
        header = messages().BundleHeaderProto()
        try:
            header.ParseFromString(value)
        except Exception as e:  # protobuf's DecodeError, or a RecursionError
            raise data_loss(self.index_file, "header", f"not a BundleHeaderProto ({e})") from None
        if not 1 <= header.num_shards <= MAX_SHARDS:
            raise invalid(self.index_file, "header.num_shards",
                          f"{header.num_shards} shards (expected 1 to {MAX_SHARDS})")
        version = header.version
        if version.min_consumer > BUNDLE_VERSION or BUNDLE_VERSION in version.bad_consumers:
            raise invalid(self.index_file, "header.version",
                          f"bundle format version {version.producer} needs a reader of at "
                          f"least version {version.min_consumer}; this one is "
                          f"{BUNDLE_VERSION}")
        return header.num_shards, header.endianness == 1

    def _entry(self, key: bytes, value: bytes) -> BundleEntry:
        name = key.decode("utf-8", "backslashreplace")
        where = f"entry {name[:200]!r}"
        proto = messages().BundleEntryProto()
        try:
            proto.ParseFromString(value)
        except Exception as e:
            raise data_loss(self.index_file, where, f"not a BundleEntryProto ({e})") from None
        dtype = d.BY_ENUM.get(proto.dtype)
        if dtype is None or not storable_dtype(dtype):
            raise invalid(self.index_file, f"{where}.dtype",
                          f"dtype enum {proto.dtype} cannot be stored in a tensor bundle")
        if proto.shape.unknown_rank or any(dim.size < 0 for dim in proto.shape.dim):
            raise invalid(self.index_file, f"{where}.shape", "a stored tensor's shape must be "
                          "fully known and non-negative")
        shape = tuple(int(dim.size) for dim in proto.shape.dim)
        if len(shape) > 254 or math.prod(shape) > MAX_ELEMENTS:
            raise invalid(self.index_file, f"{where}.shape", f"shape {list(shape)[:10]} is "
                          "too large")
        if not 0 <= proto.shard_id < self.num_shards:
            raise data_loss(self.index_file, f"{where}.shard_id",
                            f"shard {proto.shard_id} of {self.num_shards}")
        if proto.offset < 0 or proto.size < 0:
            raise data_loss(self.index_file, where, "negative offset or size")
        n = math.prod(shape)
        if proto.slices:
            if proto.size or proto.offset:
                raise data_loss(self.index_file, where, "a sliced tensor holds no bytes itself")
        elif dtype is d.string:
            if proto.size < n + 4:
                raise data_loss(self.index_file, f"{where}.size",
                                f"{proto.size} bytes cannot hold {n} strings")
        elif proto.size != n * _stored_dtype(dtype).itemsize:
            raise data_loss(self.index_file, f"{where}.size",
                            f"{proto.size} bytes for a {dtype.name} tensor of shape "
                            f"{list(shape)} (expected {n * _stored_dtype(dtype).itemsize})")
        return BundleEntry(name, dtype, shape, proto.shard_id, proto.offset, proto.size,
                           proto.crc32c, list(proto.slices))

    def _check_slices(self, entry: BundleEntry) -> None:
        where = f"entry {entry.name[:200]!r}.slices"
        covered = 0
        for s in entry.slices:
            bounds = _slice_bounds(s, entry.shape)
            if bounds is None:
                raise invalid(self.index_file, where, "a slice lies outside the tensor")
            piece = self._slices.get(slice_key(entry.name, s))
            want = tuple(b - a for a, b in bounds)
            if piece is None or piece.slices or piece.dtype is not entry.dtype or \
                    piece.shape != want:
                raise data_loss(self.index_file, where, "a slice's entry is missing or does "
                                "not match the slice")
            covered += math.prod(want)
        if covered != math.prod(entry.shape):
            raise data_loss(self.index_file, where, "the slices do not cover the tensor once")

    # --- tensors ---------------------------------------------------------------------------------
    def keys(self) -> list[str]:
        return sorted(self.entries)

    def entry(self, name: str) -> BundleEntry:
        found = self.entries.get(name)
        if found is None:
            raise NotFoundError(f"Key {name} not found in checkpoint")
        return found

    def read(self, name: str) -> np.ndarray:
        """The tensor `name` (a new, writable array; strings as an object array of bytes)."""
        entry = self.entry(name)
        if not entry.slices:
            return self._read_entry(entry)
        out = np.empty(entry.shape, dtype=object if entry.dtype is d.string else
                       entry.dtype.as_numpy_dtype)
        seen = np.zeros(entry.shape, dtype=bool)
        for s in entry.slices:
            bounds = _slice_bounds(s, entry.shape)
            index = tuple(slice(a, b) for a, b in bounds)
            if seen[index].any():
                raise data_loss(self.index_file, f"entry {name[:200]!r}.slices",
                                "slices overlap")
            seen[index] = True
            out[index] = self._read_entry(self._slices[slice_key(entry.name, s)])
        return out

    def _read_entry(self, entry: BundleEntry) -> np.ndarray:
        with self._open(data_suffix(entry.shard, self.num_shards)) as f:
            if entry.dtype is d.string:
                raw = f.read_at(entry.offset, entry.size)
                return _decode_strings(raw, entry, f.path)
            buffer = np.empty(entry.size, dtype=np.uint8)
            f.read_into(entry.offset, buffer)
            if crc32c_of_array(buffer) != unmask(entry.crc):
                raise data_loss(f.path, f"tensor {entry.name[:200]!r}",
                                "checksum does not match: the data file is corrupted")
        stored = _stored_dtype(entry.dtype)
        if self.big_endian:
            stored = stored.newbyteorder(">")
        values = buffer.view(stored).reshape(entry.shape)
        if entry.dtype is d.bfloat16:
            return (values.astype(np.uint32) << 16).view(np.float32)
        if entry.dtype is d.bool:
            return values != 0
        if self.big_endian:
            return values.astype(stored.newbyteorder("<"))
        return values.view(stored.newbyteorder("="))


def _slice_bounds(s, shape):
    """[(start, stop)] per dim of a TensorSliceProto, or None if out of the tensor."""
    if len(s.extent) != len(shape):
        return None
    bounds = []
    for extent, size in zip(s.extent, shape):
        start = extent.start
        stop = start + extent.length if extent.HasField("length") else size
        if not 0 <= start <= stop <= size:
            return None
        bounds.append((start, stop))
    return bounds


def _varint64(raw: bytes, pos: int, end: int):
    result, shift = 0, 0
    while True:
        if pos >= end or shift > 63:
            return None, pos
        byte = raw[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def _decode_strings(raw: bytes, entry: BundleEntry, path: str) -> np.ndarray:
    n = math.prod(entry.shape)
    where = f"tensor {entry.name[:200]!r}"
    lengths, pos, crc = [], 0, 0
    for _ in range(n):
        length, pos = _varint64(raw, pos, len(raw))
        if length is None:
            raise data_loss(path, where, "truncated string lengths")
        lengths.append(length)
    packed = b"".join(struct.pack("<I", n) if n <= 0xFFFFFFFF else struct.pack("<Q", n)
                      for n in lengths)
    crc = crc32c(packed)
    if pos + 4 > len(raw):
        raise data_loss(path, where, "truncated string tensor")
    (stored,) = struct.unpack_from("<I", raw, pos)
    if unmask(stored) != crc:
        raise data_loss(path, where, "checksum of the string lengths does not match")
    crc = crc32c(raw[pos:pos + 4], crc)
    pos += 4
    if pos + sum(lengths) != len(raw):
        raise data_loss(path, where, f"string lengths add up to {sum(lengths)} bytes, the "
                        f"entry holds {len(raw) - pos}")
    if unmask(entry.crc) != crc32c(raw[pos:], crc):
        raise data_loss(path, where, "checksum does not match: the data file is corrupted")
    out = np.empty(n, dtype=object)
    for i, length in enumerate(lengths):
        out[i] = raw[pos:pos + length]
        pos += length
    return out.reshape(entry.shape)


# ---- writing -------------------------------------------------------------------------------------

def _encode_strings(values: np.ndarray) -> tuple[bytes, int]:
    items = [v if isinstance(v, bytes) else str(v).encode("utf-8")
             for v in np.asarray(values, dtype=object).reshape(-1)]
    lengths = bytearray()
    for item in items:
        n = len(item)
        while n >= 0x80:
            lengths.append((n & 0x7F) | 0x80)
            n >>= 7
        lengths.append(n)
    crc = crc32c(b"".join(struct.pack("<I", len(i)) if len(i) <= 0xFFFFFFFF else
                          struct.pack("<Q", len(i)) for i in items))
    length_crc = struct.pack("<I", mask(crc))
    crc = crc32c(length_crc, crc)
    body = b"".join(items)
    return bytes(lengths) + length_crc + body, crc32c(body, crc)


def _encode_numbers(dtype, values: np.ndarray) -> bytes:
    arr = np.ascontiguousarray(values, dtype=np.float32 if dtype is d.bfloat16 else
                               dtype.as_numpy_dtype)
    if dtype is d.bfloat16:   # round to nearest even, keep NaN a NaN
        bits = arr.view(np.uint32).astype(np.uint64)
        rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
        nan = np.isnan(arr)
        rounded[nan] = ((bits[nan] >> 16) | 0x40).astype(np.uint16)
        return rounded.astype("<u2").tobytes()
    if dtype is d.bool:
        return arr.astype(np.uint8).tobytes()
    return arr.astype(_stored_dtype(dtype)).tobytes()


def _atomic_write(path: str, chunks) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.tmp-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def write_bundle(prefix: str, tensors: dict) -> None:
    """Writes `prefix.data-00000-of-00001` then `prefix.index` for `tensors`
    ({name: (DType, array)}), as TensorFlow's BundleWriter does (one shard)."""
    protos = messages()
    chunks, entries, offset = [], [], 0
    for name in sorted(tensors):
        dtype, value = tensors[name]
        value = np.asarray(value, dtype=object if dtype is d.string else None)
        if not storable_dtype(dtype):
            raise ValueError(f"Cannot write tensor {name!r} of dtype {dtype.name} to a "
                             "checkpoint.")
        if dtype is d.string:
            data, crc = _encode_strings(value)
        else:
            data = _encode_numbers(dtype, value)
            crc = crc32c(data)
        entry = protos.BundleEntryProto(dtype=dtype.as_datatype_enum, shard_id=0, offset=offset,
                                   size=len(data), crc32c=mask(crc))
        for size in value.shape:
            entry.shape.dim.add(size=int(size))
        entries.append((name.encode("utf-8"), entry.SerializeToString(deterministic=True)))
        chunks.append(data)
        offset += len(data)
    header = protos.BundleHeaderProto(num_shards=1)
    header.version.producer = BUNDLE_VERSION
    table = write_table([(b"", header.SerializeToString(deterministic=True))] + entries)
    _atomic_write(prefix + data_suffix(0, 1), chunks)
    _atomic_write(prefix + ".index", [table])
