"""Files of a TensorFlow SavedModel or checkpoint, opened as untrusted input.

`ModelFiles(root)` opens files by a relative path inside `root` only: every component of the
path must be a plain name (no `..`, no absolute path, no NUL), no component may be a symbolic
link, the file must be a regular file (not a device, FIFO or directory), and reads are bounded
by the caller's limit and checked against the size the file had when opened. `CheckpointFiles`
does the same for a checkpoint's files, which live beside a user-given prefix.
"""

from __future__ import annotations

import os
import stat

from ...errors import NotFoundError
from ..safe_files import open_inside
from .format_errors import data_loss

__all__ = ["ModelFiles", "CheckpointFiles", "MAX_PROTO_BYTES"]

MAX_PROTO_BYTES = 1 << 30          # saved_model.pb: protobuf's own 2 GB limit, halved


class _OpenFile:
    """A regular file inside its directory, opened as `safe_files.open_inside` opens every file
    a format reads (never blocking, never a FIFO or device); `read_at` is bounded."""

    def __init__(self, path: str):
        self.path = path
        if not os.path.lexists(path):
            raise _missing(path, FileNotFoundError(path))
        self.file = open_inside(path)
        self.size = os.fstat(self.file.fileno()).st_size

    def read_at(self, offset: int, size: int) -> bytes:
        if offset < 0 or size < 0 or offset + size > self.size:
            raise data_loss(self.path, "", f"reading {size} bytes at offset {offset} runs past "
                            f"the end of the file ({self.size} bytes)")
        self.file.seek(offset)
        data = self.file.read(size)
        if len(data) != size:
            raise data_loss(self.path, "", "the file was truncated while being read")
        return data

    def read_into(self, offset: int, buffer) -> None:
        size = memoryview(buffer).nbytes
        if offset < 0 or offset + size > self.size:
            raise data_loss(self.path, "", f"reading {size} bytes at offset {offset} runs past "
                            f"the end of the file ({self.size} bytes)")
        self.file.seek(offset)
        view = memoryview(buffer).cast("B")
        done = 0
        while done < size:
            n = self.file.readinto(view[done:])
            if not n:
                raise data_loss(self.path, "", "the file was truncated while being read")
            done += n

    def close(self) -> None:
        self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _missing(path: str, error: OSError):
    if isinstance(error, FileNotFoundError):
        return NotFoundError(f"{path} not found (no such file or directory)")
    return data_loss(path, "", f"cannot open ({error.strerror or error})")


def _check_no_links(root: str, parts: list[str]) -> str:
    path = root
    for part in parts:
        path = os.path.join(path, part)
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return os.path.join(root, *parts)   # opening reports it as missing
        except OSError as e:
            raise data_loss(path, "", f"cannot inspect ({e.strerror or e})") from None
        if stat.S_ISLNK(info.st_mode):
            raise data_loss(path, "", "is a symbolic link; a model's files must be inside its "
                            "directory and not links")
    return path


class ModelFiles:
    """Opens files inside the directory `root` (see the module docstring)."""

    def __init__(self, root):
        root = os.fspath(root)
        try:
            info = os.stat(root)
        except OSError as e:
            raise _missing(root, e) from None
        if not stat.S_ISDIR(info.st_mode):
            raise data_loss(root, "", "not a directory")
        self.root = root

    def path(self, relative: str) -> str:
        parts = relative.split("/")
        if not relative or any(p in ("", ".", "..") or "\x00" in p or os.sep in p or
                               (os.altsep and os.altsep in p) for p in parts):
            raise data_loss(os.path.join(self.root, relative), "",
                            "not a plain path inside the model directory")
        return _check_no_links(self.root, parts)

    def open(self, relative: str) -> _OpenFile:
        return _OpenFile(self.path(relative))

    def exists(self, relative: str) -> bool:
        try:
            return os.path.isfile(self.path(relative)) and not os.path.islink(
                self.path(relative))
        except Exception:
            return False

    def read(self, relative: str, limit: int) -> bytes:
        with self.open(relative) as f:
            if f.size > limit:
                raise data_loss(f.path, "", f"{f.size} bytes is more than the {limit} allowed")
            return f.read_at(0, f.size)


class CheckpointFiles:
    """The files of a checkpoint `prefix` (`prefix.index`, `prefix.data-*`): regular files,
    never symbolic links, in the prefix's directory."""

    def __init__(self, prefix):
        self.prefix = os.fspath(prefix)
        self.directory = os.path.dirname(self.prefix) or "."
        self.base = os.path.basename(self.prefix)

    def path(self, suffix: str) -> str:
        return os.path.join(self.directory, self.base + suffix)

    def open(self, suffix: str) -> _OpenFile:
        path = self.path(suffix)
        try:
            if os.path.islink(path):
                raise data_loss(path, "", "is a symbolic link; checkpoint files must be "
                                "regular files")
        except OSError:
            pass
        return _OpenFile(path)

    def read(self, suffix: str, limit: int) -> bytes:
        with self.open(suffix) as f:
            if f.size > limit:
                raise data_loss(f.path, "", f"{f.size} bytes is more than the {limit} allowed")
            return f.read_at(0, f.size)
