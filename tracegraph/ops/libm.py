"""The C library's `logf`/`sincosf` and `log`/`sincos`, on arrays, as TensorFlow's CPU kernels
call them.

TensorFlow's Box-Muller transform (normal and truncated normal values) calls the C library
element by element. NumPy's own vectorized `log`/`sin`/`cos` differ from the C library in the
last bit for about 1% of float32 and 0.1% of float64 values, so with the `numba` extra these
functions are compiled loops calling the C library itself (numba lowers `math.log` of a float32
to `logf`), which gives TensorFlow's values bit for bit. Without numba (or when numba would
vectorize through Intel's SVML, another library), they are NumPy's: within one unit in the last
place of TensorFlow's.
"""

from __future__ import annotations

import importlib.util
import math
import threading

import numpy as np

__all__ = ["log32", "sincos32", "log64", "sincos64", "exact"]

_lock = threading.Lock()
_kernels: dict | None = None     # name -> compiled loop, {} when numba cannot give libm's


def _compile() -> dict:
    if importlib.util.find_spec("numba") is None:
        return {}
    import numba
    if getattr(numba.config, "USING_SVML", False):
        return {}
    jit = numba.njit(cache=True, nogil=True)

    @jit
    def log_loop(x, out):           # pragma: no cover - runs compiled
        for i in range(x.shape[0]):
            out[i] = math.log(x[i])

    @jit
    def sincos_loop(x, sin_out, cos_out):   # pragma: no cover - runs compiled
        for i in range(x.shape[0]):
            sin_out[i] = math.sin(x[i])
            cos_out[i] = math.cos(x[i])

    return {"log": log_loop, "sincos": sincos_loop}


def _loops() -> dict:
    global _kernels
    if _kernels is None:
        with _lock:
            if _kernels is None:
                try:
                    _kernels = _compile()
                except Exception:   # a broken numba installation: NumPy's functions
                    _kernels = {}
    return _kernels


def exact() -> bool:
    """Whether values come from the C library (TensorFlow's bits) rather than NumPy."""
    return bool(_loops())


def _log(x: np.ndarray, dtype) -> np.ndarray:
    x = np.ascontiguousarray(x, dtype)
    loops = _loops()
    if not loops:
        return np.log(x.astype(np.float64)).astype(dtype)
    out = np.empty_like(x)
    loops["log"](x.reshape(-1), out.reshape(-1))
    return out


def _sincos(x: np.ndarray, dtype) -> tuple[np.ndarray, np.ndarray]:
    x = np.ascontiguousarray(x, dtype)
    loops = _loops()
    if not loops:
        wide = x.astype(np.float64)
        return np.sin(wide).astype(dtype), np.cos(wide).astype(dtype)
    s, c = np.empty_like(x), np.empty_like(x)
    loops["sincos"](x.reshape(-1), s.reshape(-1), c.reshape(-1))
    return s, c


def log32(x):
    """`logf` of each float32 value."""
    return _log(x, np.float32)


def sincos32(x):
    """(`sinf`, `cosf`) of each float32 value."""
    return _sincos(x, np.float32)


def log64(x):
    """`log` of each float64 value."""
    return _log(x, np.float64)


def sincos64(x):
    """(`sin`, `cos`) of each float64 value."""
    return _sincos(x, np.float64)
