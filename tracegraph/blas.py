"""NumPy's bundled OpenBLAS thread counts, for `tf.config.threading` and the parallel executor.

NumPy's wheels ship OpenBLAS as `numpy.libs/libscipy_openblas*.so`; its C entry points set the
number of threads a matmul uses. Both are None-safe: with another BLAS (or none found) they do
nothing and return None.
"""

from __future__ import annotations

import ctypes
import glob
import pathlib

import numpy as np

__all__ = ["set_threads", "set_threads_local", "AVAILABLE"]


def _openblas():
    libs = pathlib.Path(np.__file__).resolve().parent.parent / "numpy.libs"
    for path in sorted(glob.glob(str(libs / "libscipy_openblas*.so"))):
        try:
            lib = ctypes.CDLL(path)
            local = lib.openblas_set_num_threads_local
            whole, get = _symbol(lib, "set_num_threads"), _symbol(lib, "get_num_threads")
        except (OSError, AttributeError):
            continue
        local.argtypes, local.restype = [ctypes.c_int], ctypes.c_int
        whole.argtypes, whole.restype = [ctypes.c_int], None
        get.argtypes, get.restype = [], ctypes.c_int
        return local, whole, get
    return None, None, None


def _symbol(lib, name: str):
    """An OpenBLAS entry point under its plain name or scipy-openblas's prefixed one."""
    for full in (f"openblas_{name}", f"scipy_openblas_{name}64_", f"scipy_openblas_{name}"):
        fn = getattr(lib, full, None)
        if fn is not None:
            return fn
    raise AttributeError(name)


_local, _whole, _get = _openblas()
_initial: int | None = None   # the process-wide count before tf.config.threading changed it
AVAILABLE = _local is not None


def set_threads_local(n: int) -> int | None:
    """Sets the calling thread's count and returns the one it replaces (None: no OpenBLAS).
    In NumPy's builds a thread without its own count reads the process-wide one, so a caller
    must put back what it replaced."""
    return None if _local is None else _local(int(n))


def set_threads(n: int) -> bool:
    """Sets the process-wide count (what `tf.config.threading` intra-op threads mean for
    NumPy's matmuls; 0 puts back the count OpenBLAS started with). False without OpenBLAS."""
    global _initial
    if _whole is None:
        return False
    if _initial is None:
        _initial = _get()
    _whole(int(n) if n > 0 else _initial)
    return True
