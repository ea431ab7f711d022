"""TensorFlow's sorted string tables (LevelDB's format), the `.index` file of a tensor bundle.

A table is a file of blocks followed by a 48-byte footer:

    [data block][trailer] ... [meta-index block][trailer] [index block][trailer] [footer]

- A block holds key/value entries sorted by key. Each entry is `varint32 shared`, `varint32
  non_shared`, `varint32 value_length`, the `non_shared` bytes that follow the `shared` bytes
  taken from the previous key, then the value. Every `restart_interval` entries a key is stored
  whole (shared = 0) and its offset listed in the restart array that ends the block: `fixed32`
  offsets, then `fixed32` their count.
- A trailer is 5 bytes: the compression type (0: none; TensorFlow's bundles never compress) and
  the masked CRC32C of the block's bytes and that type byte.
- The index block maps, for each data block, a key at least its last key (and below the next
  block's first) to the block's handle: `varint64 offset`, `varint64 size`.
- The footer holds the meta-index and index handles, zero padding to 40 bytes, then the magic
  number 0xdb4775248b80fb57 as a little-endian `fixed64`.

`read_table` checks every bound, checksum and ordering rule and returns the entries; any
problem is a `SavedDataError` (`tf.errors.DataLossError`) naming the file. `write_table` builds
the bytes TensorFlow's table builder writes (shortest separators in the index).
"""

from __future__ import annotations

import struct

from .checksums import crc32c, mask, unmask
from .format_errors import data_loss

__all__ = ["read_table", "write_table", "MAGIC", "FOOTER_SIZE"]

MAGIC = 0xDB4775248B80FB57
FOOTER_SIZE = 48
_HANDLES_SIZE = 40          # two block handles of at most 20 bytes each, zero padded
_TRAILER_SIZE = 5
_BLOCK_SIZE = 4096          # a data block is cut once it reaches this size
_RESTART_INTERVAL = 16
MAX_ENTRIES = 10_000_000


class _Cursor:
    """Reads varints and fixed-size integers from `data[pos:end]`, with bounds checks."""

    def __init__(self, data: bytes, pos: int, end: int, file: str, where: str):
        self.data, self.pos, self.end, self.file, self.where = data, pos, end, file, where

    def fail(self, problem: str):
        raise data_loss(self.file, self.where, problem)

    def varint(self, max_bits: int) -> int:
        result, shift, data = 0, 0, self.data
        while True:
            if self.pos >= self.end:
                self.fail("truncated varint")
            byte = data[self.pos]
            self.pos += 1
            result |= (byte & 0x7F) << shift
            if not byte & 0x80:
                break
            shift += 7
            if shift >= max_bits:
                self.fail(f"varint longer than {max_bits} bits")
        if result >> max_bits:
            self.fail(f"varint does not fit {max_bits} bits")
        return result

    def take(self, n: int) -> bytes:
        if n > self.end - self.pos:
            self.fail(f"{n} bytes declared where {self.end - self.pos} remain")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out


def _handle(cursor: _Cursor) -> tuple[int, int]:
    return cursor.varint(64), cursor.varint(64)


def _block(data: bytes, handle: tuple[int, int], limit: int, file: str, what: str) -> bytes:
    """The checked contents of the block at `handle` (which must end before `limit`)."""
    offset, size = handle
    if offset + size + _TRAILER_SIZE > limit:
        raise data_loss(file, what, f"block at offset {offset} of {size} bytes runs past the "
                        f"end of the blocks ({limit} bytes)")
    contents = data[offset:offset + size]
    kind = data[offset + size]
    (stored,) = struct.unpack_from("<I", data, offset + size + 1)
    if unmask(stored) != crc32c(data[offset:offset + size + 1]):
        raise data_loss(file, what, f"block checksum mismatch at offset {offset}: the file is "
                        "corrupted")
    if kind != 0:
        raise data_loss(file, what, f"block compression type {kind} is not supported "
                        "(TensorFlow's tensor bundles are never compressed)")
    return contents


def _entries(block: bytes, file: str, what: str) -> list[tuple[bytes, bytes]]:
    size = len(block)
    if size < 4:
        raise data_loss(file, what, "block too short for its restart count")
    (restarts,) = struct.unpack_from("<I", block, size - 4)
    if restarts < 1 or restarts > (size - 4) // 4:
        raise data_loss(file, what, f"bad restart count {restarts}")
    end = size - 4 - 4 * restarts
    offsets = struct.unpack_from(f"<{restarts}I", block, end)
    if any(o >= max(end, 1) for o in offsets) or list(offsets) != sorted(set(offsets)):
        raise data_loss(file, what, "restart points out of order or out of the block")
    cursor = _Cursor(block, 0, end, file, what)
    out: list[tuple[bytes, bytes]] = []
    key = b""
    restart_set = set(offsets)
    while cursor.pos < end:
        start = cursor.pos
        shared, non_shared, value_length = (cursor.varint(32), cursor.varint(32),
                                            cursor.varint(32))
        if shared > len(key) or (start in restart_set and shared):
            cursor.fail(f"entry at offset {start} shares {shared} bytes of a "
                        f"{len(key)}-byte key")
        key = key[:shared] + cursor.take(non_shared)
        out.append((key, cursor.take(value_length)))
    return out


def read_table(data: bytes, file: str) -> list[tuple[bytes, bytes]]:
    """Every (key, value) of a table's bytes, in key order; checks everything."""
    if len(data) < FOOTER_SIZE:
        raise data_loss(file, "footer", f"{len(data)} bytes is too short for a table")
    limit = len(data) - FOOTER_SIZE
    (magic,) = struct.unpack_from("<Q", data, len(data) - 8)
    if magic != MAGIC:
        raise data_loss(file, "footer", "not an sstable (bad magic number)")
    footer = _Cursor(data, limit, limit + _HANDLES_SIZE, file, "footer")
    _block(data, _handle(footer), limit, file, "meta-index block")  # checked, not used
    index = _entries(_block(data, _handle(footer), limit, file, "index block"), file,
                     "index block")
    out: list[tuple[bytes, bytes]] = []
    for n, (separator, handle_bytes) in enumerate(index):
        where = f"data block {n}"
        cursor = _Cursor(handle_bytes, 0, len(handle_bytes), file, f"index entry {n}")
        handle = _handle(cursor)
        if cursor.pos != len(handle_bytes):
            cursor.fail("trailing bytes after a block handle")
        entries = _entries(_block(data, handle, limit, file, where), file, where)
        if entries and entries[-1][0] > separator:
            raise data_loss(file, where, "keys beyond the index's separator")
        out.extend(entries)
        if len(out) > MAX_ENTRIES:
            raise data_loss(file, where, f"more than {MAX_ENTRIES} entries")
    for i in range(1, len(out)):
        if out[i - 1][0] >= out[i][0]:
            raise data_loss(file, "keys", f"keys out of order or repeated: "
                            f"{out[i - 1][0][:60]!r} then {out[i][0][:60]!r}")
    return out


# ---- writing -------------------------------------------------------------------------------------

def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _encode_block(entries, restart_interval: int) -> bytes:
    body = bytearray()
    restarts = []
    previous = b""
    for i, (key, value) in enumerate(entries):
        if i % restart_interval == 0:
            restarts.append(len(body))
            shared = 0
        else:
            shared = 0
            limit = min(len(previous), len(key))
            while shared < limit and previous[shared] == key[shared]:
                shared += 1
        body += _varint(shared) + _varint(len(key) - shared) + _varint(len(value))
        body += key[shared:] + value
        previous = key
    if not restarts:
        restarts.append(0)
    body += struct.pack(f"<{len(restarts)}I", *restarts) + struct.pack("<I", len(restarts))
    return bytes(body)


def _shortest_separator(start: bytes, limit: bytes) -> bytes:
    """A short key k with start <= k < limit (LevelDB's bytewise comparator)."""
    n = 0
    while n < min(len(start), len(limit)) and start[n] == limit[n]:
        n += 1
    if n < min(len(start), len(limit)):
        byte = start[n]
        if byte < 0xFF and byte + 1 < limit[n]:
            return start[:n] + bytes([byte + 1])
    return start


def _short_successor(key: bytes) -> bytes:
    """A short key k >= key."""
    for i, byte in enumerate(key):
        if byte != 0xFF:
            return key[:i] + bytes([byte + 1])
    return key


def write_table(entries: list[tuple[bytes, bytes]]) -> bytes:
    """A table holding `entries` (sorted by key, keys unique), as TensorFlow writes it."""
    out = bytearray()

    def add_block(contents: bytes) -> bytes:
        handle = _varint(len(out)) + _varint(len(contents))
        out.extend(contents)
        out.append(0)
        out.extend(struct.pack("<I", mask(crc32c(contents + b"\x00"))))
        return handle

    index: list[tuple[bytes, bytes]] = []
    pending: list[tuple[bytes, bytes]] = []
    pending_size = 0
    for i, (key, value) in enumerate(entries):
        pending.append((key, value))
        pending_size += len(key) + len(value) + 8
        if pending_size >= _BLOCK_SIZE:
            handle = add_block(_encode_block(pending, _RESTART_INTERVAL))
            following = entries[i + 1][0] if i + 1 < len(entries) else None
            last = pending[-1][0]
            index.append((_shortest_separator(last, following) if following is not None
                          else _short_successor(last), handle))
            pending, pending_size = [], 0
    if pending:
        handle = add_block(_encode_block(pending, _RESTART_INTERVAL))
        index.append((_short_successor(pending[-1][0]), handle))
    meta_handle = add_block(_encode_block([], 1))
    index_handle = add_block(_encode_block(index, 1))
    handles = meta_handle + index_handle
    out.extend(handles + b"\x00" * (_HANDLES_SIZE - len(handles)))
    out.extend(struct.pack("<Q", MAGIC))
    return bytes(out)
