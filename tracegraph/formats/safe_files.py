"""Files the formats read and write, handled safely: JSON read with a size bound and no object
hooks, SHA-256 checksums read in chunks, and writes that land whole or not at all (a temporary
file in the same directory, renamed into place)."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile

from .saved_data_error import SavedDataError

__all__ = ["read_json", "file_sha256", "atomic_write", "MAX_JSON_BYTES"]

MAX_JSON_BYTES = 256 << 20


def read_json(path, limit: int = MAX_JSON_BYTES):
    """Parses a JSON file of bounded size; any problem is a SavedDataError."""
    file = str(path)
    try:
        size = os.path.getsize(path)
        if size > limit:
            raise SavedDataError(file, "", f"{size} bytes is more than the {limit} allowed")
        with open(path, "rb") as f:
            raw = f.read(limit + 1)
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except SavedDataError:
        raise
    except RecursionError:
        raise SavedDataError(file, "", "JSON nested too deeply") from None
    except Exception as e:  # OSError, UnicodeDecodeError, JSONDecodeError, ValueError
        raise SavedDataError(file, "", f"cannot read JSON ({type(e).__name__}: "
                             f"{e!s:.200})") from None


def _no_constant(name):
    raise ValueError(f"{name} is not valid JSON")


def file_sha256(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
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
