"""Files the formats read and write, handled as untrusted input.

Opening (`open_inside`): only a regular file whose real path lies inside the directory it
belongs to (a saved model's directory, a checkpoint's directory) is opened. A symbolic link that
leaves the directory, a FIFO, a device, a socket or a directory placed where a data file should
be is a `SavedDataError`, decided from the open descriptor (`fstat`) without reading: the open
never blocks (`O_NONBLOCK`, so a FIFO without a writer returns at once) and reads are bounded by
the size the caller declares.

Checksums: `open_checked` reads a file once, in chunks, against the size and SHA-256 its
manifest declares, and hands back the same open file positioned at its start, so what is
parsed is what was checked. The manifests themselves are sealed JSON (`write_sealed_json`,
`read_sealed_json`): the document's bytes follow their own SHA-256 in one JSON object,
`{"sha256":"<64 hex digits>","document":<document>}`, so one flipped bit anywhere in any file
a format reads is a `SavedDataError` (a DataLossError).

Writing (`atomic_write`): a temporary file in the same directory, renamed into place, so a
write lands whole or not at all.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile

from .saved_data_error import SavedDataError

__all__ = ["open_inside", "open_checked", "read_bytes", "read_json", "parse_json",
           "read_sealed_json", "sealed_json_bytes", "write_sealed_json", "file_sha256",
           "atomic_write", "unsealed_version", "MAX_JSON_BYTES", "MAX_MANIFEST_BYTES"]

MAX_JSON_BYTES = 256 << 20
MAX_MANIFEST_BYTES = 16 << 20
_CHUNK = 1 << 20
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
_SPECIAL = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
            (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
            (stat.S_ISDIR, "a directory"))


def _inside(path: str, root: str) -> str:
    """The real path of `path`, which must lie inside the real path of `root`."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    if os.path.commonpath([real_root, real]) != real_root or real == real_root:
        raise SavedDataError(path, "", f"resolves to {real}, outside {real_root}: files are "
                             "read only from inside their directory (a symbolic link that "
                             "leaves it is refused)")
    return real


def open_inside(path, root=None, limit: int | None = None):
    """Opens `path` for binary reading: a regular file inside `root` (default: the file's own
    directory), of at most `limit` bytes. Never blocks; any problem is a SavedDataError."""
    path = os.fspath(path)
    root = os.path.dirname(os.path.abspath(path)) if root is None else os.fspath(root)
    real = _inside(path, root)
    try:
        fd = os.open(real, _OPEN_FLAGS)
    except FileNotFoundError:
        raise SavedDataError(path, "", "the file is missing") from None
    except OSError as e:   # ELOOP (a link swapped in), EACCES, ...
        raise SavedDataError(path, "", f"cannot open ({e.strerror or e})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _SPECIAL if test(info.st_mode)),
                        "not a regular file")
            raise SavedDataError(path, "", f"is {kind}, not a regular file")
        if limit is not None and info.st_size > limit:
            raise SavedDataError(path, "", f"{info.st_size} bytes is more than the {limit} "
                                 "allowed")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path, root=None, limit: int = MAX_JSON_BYTES) -> bytes:
    """The whole of a regular file inside `root`, of at most `limit` bytes."""
    with open_inside(path, root, limit) as f:
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise SavedDataError(path, "", f"cannot read ({e.strerror or e})") from None
    if len(data) > limit:
        raise SavedDataError(path, "", f"more than the {limit} bytes allowed")
    return data


def parse_json(raw: bytes, file: str):
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        raise SavedDataError(file, "", "JSON nested too deeply") from None
    except Exception as e:  # UnicodeDecodeError, JSONDecodeError, ValueError
        raise SavedDataError(file, "", f"cannot read JSON ({type(e).__name__}: "
                             f"{e!s:.200})") from None


def _no_constant(name):
    raise ValueError(f"{name} is not valid JSON")


def read_json(path, limit: int = MAX_JSON_BYTES, root=None):
    """Parses a JSON file of bounded size (no object hooks); any problem is a SavedDataError."""
    return parse_json(read_bytes(path, root, limit), os.fspath(path))


# ---- sealed JSON: a document after its own checksum ---------------------------------------------

_SEAL_HEAD, _SEAL_MID, _SEAL_TAIL = b'{"sha256":"', b'","document":', b"}"
_HEX = frozenset(b"0123456789abcdef")


def sealed_json_bytes(doc) -> bytes:
    """`doc` as sealed JSON bytes (see the module docstring)."""
    body = json.dumps(doc, separators=(",", ":"), allow_nan=False).encode("utf-8")
    digest = hashlib.sha256(body).hexdigest().encode()
    return _SEAL_HEAD + digest + _SEAL_MID + body + _SEAL_TAIL


def write_sealed_json(path, doc) -> None:
    """Writes `doc` as sealed JSON, atomically."""
    data = sealed_json_bytes(doc)

    def write(tmp):
        with open(tmp, "wb") as f:
            f.write(data)
    atomic_write(os.fspath(path), write)


def read_sealed_json(path, root=None, limit: int = MAX_MANIFEST_BYTES):
    """The document of a sealed JSON file, after checking its checksum."""
    file = os.fspath(path)
    raw = read_bytes(path, root, limit)
    start = len(_SEAL_HEAD) + 64
    digest = raw[len(_SEAL_HEAD):start]
    if (not raw.startswith(_SEAL_HEAD) or not set(digest) <= _HEX
            or raw[start:start + len(_SEAL_MID)] != _SEAL_MID or not raw.endswith(_SEAL_TAIL)):
        raise SavedDataError(file, "", 'not a sealed JSON document ({"sha256": ..., '
                             '"document": ...}): the file is corrupted or is not one')
    body = raw[start + len(_SEAL_MID):-len(_SEAL_TAIL)]
    if hashlib.sha256(body).hexdigest().encode() != digest:
        raise SavedDataError(file, "", "checksum mismatch: the file is corrupted or was "
                             "modified")
    return parse_json(body, file)


def unsealed_version(path, root=None, limit: int = MAX_MANIFEST_BYTES):
    """(format, version) of a plain JSON document where a sealed one was expected (a file an
    older tracegraph wrote), or None."""
    try:
        doc = read_json(path, limit, root)
    except SavedDataError:
        return None
    if isinstance(doc, dict) and isinstance(doc.get("format"), str):
        return doc["format"], doc.get("version")
    return None


# ---- checksums ----------------------------------------------------------------------------------

def open_checked(path, root, size: int, sha256: str):
    """Opens a file of a saved model or checkpoint and checks it against its manifest (exactly
    `size` bytes with this SHA-256, read in chunks); returns the open file at offset 0."""
    file = os.fspath(path)
    f = open_inside(path, root, size)
    try:
        h, total = hashlib.sha256(), 0
        while total <= size:
            chunk = f.read(min(_CHUNK, size + 1 - total))
            if not chunk:
                break
            h.update(chunk)
            total += len(chunk)
        if total != size:
            raise SavedDataError(file, "", f"{total} bytes where the manifest declares {size}: "
                                 "the file is truncated or was modified")
        if h.hexdigest() != sha256:
            raise SavedDataError(file, "", "checksum mismatch: the file is corrupted or was "
                                 "modified")
        f.seek(0)
        return f
    except OSError as e:
        f.close()
        raise SavedDataError(file, "", f"cannot read ({e.strerror or e})") from None
    except BaseException:
        f.close()
        raise


def file_sha256(path) -> str:
    """SHA-256 of a file this process wrote (for manifests; reading uses `open_checked`)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def atomic_write(path: str, write) -> None:
    """Calls `write(tmp)` on a temporary path beside `path`, then renames it into place."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.tmp-", dir=directory)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
