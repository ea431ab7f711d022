"""TFRecord files, TensorFlow's bytes exactly: framing, compression, reading and writing.

A TFRecord file is a run of records, each framed as

    uint64 length | uint32 masked_crc32c(length) | byte data[length] | uint32 masked_crc32c(data)

(little-endian; "masked" is TensorFlow's rotation plus a constant, so the CRC of data holding
CRCs does not degenerate). A GZIP or ZLIB file is that same stream compressed with zlib at
TensorFlow's defaults (level Z_DEFAULT_COMPRESSION, mem_level 9, window bits 15, +16 for
GZIP), which makes the compressed bytes the same as TensorFlow's too. Offsets in errors count
from the start of the uncompressed stream, as TensorFlow's do.

Reading checks both CRCs of every record and raises TensorFlow's errors, with the file named:
a bad length CRC is `corrupted record at <record offset>`, a bad data CRC `corrupted record at
<data offset>`, data cut short `truncated record at <record offset>`; a header cut short at the
end of a file ends it quietly (as TensorFlow). A length larger than what the file holds is
found without reading (no allocation of a corrupt size). CRC32C comes from `google_crc32c`.
"""

from __future__ import annotations

import os
import re
import struct
import zlib

from ..errors import (
    DataLossError,
    FailedPreconditionError,
    InvalidArgumentError,
    NotFoundError,
    PermissionDeniedError,
)
from ..optional_extras import require

__all__ = ["masked_crc32c", "frame", "read_records", "open_for_reading", "open_for_writing",
           "compression_name", "COMPRESSIONS", "DEFAULT_BUFFER_SIZE", "RecordFileWriter",
           "file_chunks"]

COMPRESSIONS = {"": None, "ZLIB": zlib.MAX_WBITS, "GZIP": zlib.MAX_WBITS + 16}
DEFAULT_BUFFER_SIZE = 256 * 1024     # TensorFlow's TFRecordDataset read buffer
_MIN_CHUNK = 1 << 16
_MASK_DELTA = 0xA282EAD8
_HEADER = struct.Struct("<QI")
_FOOTER = struct.Struct("<I")
_crc_value = None


def _crc():
    global _crc_value
    if _crc_value is None:
        _crc_value = require("google_crc32c", "tfformats", "TFRecord files (CRC32C)").value
    return _crc_value


def masked_crc32c(data) -> int:
    """TensorFlow's masked CRC32C of `data` (bytes or a memoryview)."""
    crc = _crc()(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + _MASK_DELTA) & 0xFFFFFFFF


def frame(record: bytes) -> bytes:
    """One record as it is stored: header, data, footer."""
    length = len(record)
    head = struct.pack("<Q", length)
    return b"".join((head, _FOOTER.pack(masked_crc32c(head)), record,
                     _FOOTER.pack(masked_crc32c(record))))


def compression_name(compression_type) -> str:
    """"", "ZLIB" or "GZIP" from a name, None, or a TFRecordOptions/CompressionType."""
    if compression_type is None:
        return ""
    if hasattr(compression_type, "compression_type"):
        return compression_name(compression_type.compression_type)
    if isinstance(compression_type, bytes):
        compression_type = compression_type.decode()
    if compression_type in (0, 1, 2) and not isinstance(compression_type, str):
        return ("", "ZLIB", "GZIP")[compression_type]
    if compression_type not in COMPRESSIONS:
        raise ValueError(f'Not a valid compression_type: "{compression_type}"')
    return compression_type


# ---- reading ----------------------------------------------------------------------------------

def open_for_reading(path: str):
    """The file at `path` opened for binary reading, with TensorFlow's NotFoundError."""
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise InvalidArgumentError(f"{path}; Is a directory") from None
    except PermissionError:
        raise PermissionDeniedError(f"{path}; Permission denied") from None


def file_chunks(path: str, compression: str, buffer_size: int):
    """The file's uncompressed bytes, in chunks of about `buffer_size`."""
    size = max(int(buffer_size or 0), _MIN_CHUNK)
    wbits = COMPRESSIONS[compression]
    with open_for_reading(path) as f:
        if wbits is None:
            while chunk := f.read(size):
                yield chunk
            return
        inflater = zlib.decompressobj(wbits)
        while raw := f.read(size):
            try:
                out = inflater.decompress(raw)
            except zlib.error as e:
                raise _inflate_error(e, path) from None
            if out:
                yield out
            if inflater.eof:   # concatenated members (gzip files may hold several)
                rest = inflater.unused_data
                inflater = zlib.decompressobj(wbits)
                if rest:
                    try:
                        out = inflater.decompress(rest)
                    except zlib.error as e:
                        raise _inflate_error(e, path) from None
                    if out:
                        yield out
        tail = inflater.flush()
        if tail:
            yield tail


def _inflate_error(e: zlib.error, path: str) -> DataLossError:
    """TensorFlow's words for a zlib error: `inflate() failed with error -3: <reason>`."""
    found = re.match(r"Error (-?\d+) while decompressing data: (.*)", str(e))
    text = f"error {found[1]}: {found[2]}" if found else str(e)
    return DataLossError(f"inflate() failed with {text} in file {path}")


def read_records(path: str, compression: str = "", buffer_size: int = DEFAULT_BUFFER_SIZE,
                 batch: int = 1024, stopping=None):
    """Lists of up to `batch` records of the file, in order. A corrupt record raises
    TensorFlow's error after the records before it have been handed out."""
    crc = _crc()
    unpack_header = _HEADER.unpack_from
    unpack_footer = _FOOTER.unpack_from
    file_size = os.path.getsize(path) if not compression and os.path.exists(path) else None
    buf = b""
    base = 0          # stream offset of buf[0]
    out = []
    error = None
    for chunk in file_chunks(path, compression, buffer_size):
        buf = buf + chunk if buf else chunk
        pos = 0
        end = len(buf)
        while end - pos >= 12:
            length, masked = unpack_header(buf, pos)
            c = crc(buf[pos:pos + 8])
            if ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + _MASK_DELTA) & 0xFFFFFFFF != masked:
                hint = " (Is this even a TFRecord file?)" if base + pos == 0 else ""
                error = DataLossError(f"corrupted record at {base + pos}{hint} in file {path}")
                break
            stop = pos + 16 + length
            if stop > end:
                if file_size is not None and base + stop > file_size:
                    error = DataLossError(
                        f"truncated record at {base + pos} in file {path}: the record's "
                        f"{length} bytes go past the end of the file ({file_size} bytes)")
                break
            data = buf[pos + 12:stop - 4]
            c = crc(data)
            if ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + _MASK_DELTA) & 0xFFFFFFFF != \
                    unpack_footer(buf, stop - 4)[0]:
                error = DataLossError(f"corrupted record at {base + pos + 12} in file {path}")
                break
            out.append(data)
            pos = stop
            if len(out) >= batch:
                yield out
                out = []
        if error is not None:
            break
        base += pos
        buf = buf[pos:]
        if stopping is not None and stopping():
            return
    if out:
        yield out
    if error is not None:
        raise error
    if len(buf) >= 12:
        length = _HEADER.unpack_from(buf, 0)[0]
        raise DataLossError(f"truncated record at {base} in file {path}: read less bytes than "
                            f"requested (the record needs {length + 4} bytes after its header, "
                            f"{len(buf) - 12} are left)")
    # fewer than 12 bytes left: a header cut short ends the file (TensorFlow's behaviour)


# ---- writing ----------------------------------------------------------------------------------

def open_for_writing(path: str, mode: str = "wb"):
    try:
        return open(path, mode)
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise InvalidArgumentError(f"{path}; Is a directory") from None
    except PermissionError:
        raise PermissionDeniedError(f"{path}; Permission denied") from None


class RecordFileWriter:
    """Writes framed records to a file, compressed as TensorFlow's writer does."""

    def __init__(self, path: str, compression: str = "", *, level=None, mem_level=None,
                 window_bits=None, strategy=None, flush_mode=None):
        self.path = path
        self._crc = _crc()
        self._file = open_for_writing(path)
        wbits = COMPRESSIONS[compression]
        if wbits is None:
            self._deflater = None
        else:
            if window_bits is not None:
                wbits = window_bits + (16 if compression == "GZIP" else 0)
            self._deflater = zlib.compressobj(
                zlib.Z_DEFAULT_COMPRESSION if level is None else level, zlib.DEFLATED, wbits,
                9 if mem_level is None else mem_level,
                zlib.Z_DEFAULT_STRATEGY if strategy is None else strategy)
        self._flush_mode = zlib.Z_PARTIAL_FLUSH if flush_mode in (None, zlib.Z_NO_FLUSH) \
            else flush_mode
        self.closed = False

    def write(self, record) -> None:
        if self.closed:
            raise FailedPreconditionError(f"Writer is closed (file {self.path}).")
        if isinstance(record, str):
            record = record.encode()
        crc = self._crc
        head = struct.pack("<Q", len(record))
        c1 = crc(head)
        c2 = crc(record)
        framed = b"".join((
            head, _FOOTER.pack(((((c1 >> 15) | (c1 << 17)) & 0xFFFFFFFF) + _MASK_DELTA)
                               & 0xFFFFFFFF),
            record, _FOOTER.pack(((((c2 >> 15) | (c2 << 17)) & 0xFFFFFFFF) + _MASK_DELTA)
                                 & 0xFFFFFFFF)))
        if self._deflater is not None:
            framed = self._deflater.compress(framed)
        self._file.write(framed)

    def flush(self) -> None:
        if self.closed:
            return
        if self._deflater is not None:
            self._file.write(self._deflater.flush(self._flush_mode))
        self._file.flush()

    def close(self) -> None:
        if self.closed:
            return
        if self._deflater is not None:
            self._file.write(self._deflater.flush(zlib.Z_FINISH))
        self._file.close()
        self.closed = True
