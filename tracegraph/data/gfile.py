"""`tf.io.gfile`: the file functions TensorFlow's guides use, on the local file system, with
TensorFlow's errors (`NotFoundError` for a missing file, `AlreadyExistsError`...)."""

from __future__ import annotations

import glob as _glob
import os
import shutil

from ..errors import AlreadyExistsError, NotFoundError

__all__ = ["GFile", "exists", "glob", "makedirs", "mkdir", "listdir", "isdir", "remove",
           "rmtree", "copy", "rename", "walk", "join", "stat"]


def _path(path) -> str:
    return os.fspath(path.decode() if isinstance(path, bytes) else path)


class GFile:
    """`tf.io.gfile.GFile`: a file object (text in "r"/"w"/"a", bytes with "b")."""

    def __init__(self, name, mode="r"):
        self.name = _path(name)
        self.mode = mode
        try:
            self._file = open(self.name, mode, **({} if "b" in mode else
                                                  {"encoding": "utf-8", "newline": ""}))
        except FileNotFoundError:
            raise NotFoundError(f"{self.name}; No such file or directory") from None

    def read(self, n=-1):
        return self._file.read(n)

    def readline(self):
        return self._file.readline()

    def readlines(self):
        return self._file.readlines()

    def write(self, data):
        if isinstance(data, bytes) and "b" not in self.mode:
            data = data.decode()
        self._file.write(data)

    def seek(self, offset, whence=0):
        return self._file.seek(offset, whence)

    def tell(self):
        return self._file.tell()

    def size(self):
        return os.path.getsize(self.name)

    def flush(self):
        self._file.flush()

    def close(self):
        self._file.close()

    def __iter__(self):
        return iter(self._file)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


def exists(path) -> bool:
    return os.path.exists(_path(path))


def glob(pattern) -> list[str]:
    patterns = [pattern] if isinstance(pattern, (str, bytes, os.PathLike)) else pattern
    return sorted({m for p in patterns for m in _glob.glob(_path(p))})


def makedirs(path) -> None:
    os.makedirs(_path(path), exist_ok=True)


def mkdir(path) -> None:
    try:
        os.mkdir(_path(path))
    except FileExistsError:
        raise AlreadyExistsError(f"{_path(path)}; File exists") from None


def listdir(path) -> list[str]:
    try:
        return os.listdir(_path(path))
    except FileNotFoundError:
        raise NotFoundError(f"Could not find directory {_path(path)}") from None


def isdir(path) -> bool:
    return os.path.isdir(_path(path))


def remove(path) -> None:
    try:
        os.remove(_path(path))
    except FileNotFoundError:
        raise NotFoundError(f"{_path(path)}; No such file or directory") from None


def rmtree(path) -> None:
    try:
        shutil.rmtree(_path(path))
    except FileNotFoundError:
        raise NotFoundError(f"{_path(path)}; No such file or directory") from None


def copy(src, dst, overwrite=False) -> None:
    if os.path.exists(_path(dst)) and not overwrite:
        raise AlreadyExistsError(f"file already exists: {_path(dst)}")
    shutil.copyfile(_path(src), _path(dst))


def rename(src, dst, overwrite=False) -> None:
    if os.path.exists(_path(dst)) and not overwrite:
        raise AlreadyExistsError(f"file already exists: {_path(dst)}")
    os.replace(_path(src), _path(dst))


def walk(top, topdown=True, onerror=None):
    yield from os.walk(_path(top), topdown=topdown, onerror=onerror)


def join(path, *paths) -> str:
    return os.path.join(_path(path), *map(_path, paths))


def stat(path):
    try:
        return os.stat(_path(path))
    except FileNotFoundError:
        raise NotFoundError(f"{_path(path)}; No such file or directory") from None
