"""Fourier transforms over the innermost 1, 2 or 3 axes: FFT/IFFT (complex to complex),
RFFT (real to the non-negative frequencies) and IRFFT (back), as TensorFlow's spectral ops:
`fft_length` crops or zero-pads the input along the transformed axes (the last one to
fft_length // 2 + 1 for IRFFT); results keep the input's precision (complex64 <-> float32).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..shapes import TensorType, format_dims
from . import infer as I
from .infer import runtime as _runtime
from .registry import COMPLEX, PURE, TypeAttr, defop

_REAL_OF = {d.complex64: d.float32, d.complex128: d.float64}
_COMPLEX_OF = {d.float32: d.complex64, d.float64: d.complex128}


def _check_rank(shape: tuple, rank: int) -> None:
    if len(shape) < rank:
        raise ValueError(f"Shape must be at least rank {rank} but is rank {len(shape)}")


def _fft_record(name: str, tf_type: str, rank: int, inverse: bool):
    transform = np.fft.ifftn if inverse else np.fft.fftn

    def infer(input):  # noqa: A002
        if input.shape is not None:
            _check_rank(input.shape, rank)
        return TensorType(input.dtype, input.shape)

    def kernel(input):  # noqa: A002
        x = np.asarray(input)
        _runtime(_check_rank, x.shape, rank)
        if x.size == 0:
            return x.copy()
        return transform(x, axes=tuple(range(-rank, 0))).astype(x.dtype)

    return defop(name, tf_type, inputs=("input: Tcomplex",),
                 attrs={"Tcomplex": TypeAttr(COMPLEX, d.complex64)}, infer=infer,
                 kernel=kernel, flags=PURE)


fft_op = _fft_record("fft", "FFT", 1, False)
ifft_op = _fft_record("ifft", "IFFT", 1, True)
fft2d_op = _fft_record("fft2d", "FFT2D", 2, False)
ifft2d_op = _fft_record("ifft2d", "IFFT2D", 2, True)
fft3d_op = _fft_record("fft3d", "FFT3D", 3, False)
ifft3d_op = _fft_record("ifft3d", "IFFT3D", 3, True)


def _check_length(shape: tuple, rank: int, length) -> None:
    _check_rank(shape, rank)
    if length is not None:
        if len(length) != rank:
            raise ValueError(f"fft_length must have {rank} element(s), got "
                             f"{format_dims(tuple(length))}")
        if min(length, default=0) < 0:
            raise ValueError(f"fft_length must be non-negative, got {list(length)}")


def _rfft_record(name: str, tf_type: str, rank: int):
    def infer(input, fft_length, Tcomplex=d.complex64):  # noqa: A002, N803
        n = I.known_ints(fft_length)
        if input.shape is None:
            return TensorType(Tcomplex, None)
        _check_length(input.shape, rank, n)
        dims = (None,) * rank if n is None else tuple(n[:-1]) + (n[-1] // 2 + 1,)
        return TensorType(Tcomplex, input.shape[:-rank] + dims)

    def kernel(input, fft_length, Tcomplex=d.complex64):  # noqa: A002, N803
        x, n = np.asarray(input), I.ints(fft_length)
        _runtime(_check_length, x.shape, rank, n)
        out_shape = x.shape[:-rank] + tuple(n[:-1]) + (n[-1] // 2 + 1,)
        if x.size == 0 or 0 in n:
            return np.zeros(out_shape, Tcomplex.as_numpy_dtype)
        out = np.fft.rfftn(x, s=n, axes=tuple(range(-rank, 0)))
        return out.astype(Tcomplex.as_numpy_dtype)

    return defop(name, tf_type, inputs=("input: Treal", "fft_length: int32"),
                 attrs={"Treal": TypeAttr({d.float32, d.float64}, d.float32),
                        "Tcomplex": d.complex64},
                 infer=infer, kernel=kernel, flags=PURE)


def _irfft_record(name: str, tf_type: str, rank: int):
    def infer(input, fft_length, Treal=d.float32):  # noqa: A002, N803
        n = I.known_ints(fft_length)
        if input.shape is None:
            return TensorType(Treal, None)
        _check_length(input.shape, rank, n)
        dims = (None,) * rank if n is None else tuple(n)
        return TensorType(Treal, input.shape[:-rank] + dims)

    def kernel(input, fft_length, Treal=d.float32):  # noqa: A002, N803
        x, n = np.asarray(input), I.ints(fft_length)
        _runtime(_check_length, x.shape, rank, n)
        out_shape = x.shape[:-rank] + tuple(n)
        if x.size == 0 or 0 in n:
            return np.zeros(out_shape, Treal.as_numpy_dtype)
        out = np.fft.irfftn(x, s=n, axes=tuple(range(-rank, 0)))
        return out.astype(Treal.as_numpy_dtype)

    return defop(name, tf_type, inputs=("input: Tcomplex", "fft_length: int32"),
                 attrs={"Treal": d.float32,
                        "Tcomplex": TypeAttr(COMPLEX, d.complex64)},
                 infer=infer, kernel=kernel, flags=PURE)


rfft_op = _rfft_record("rfft", "RFFT", 1)
irfft_op = _irfft_record("irfft", "IRFFT", 1)
rfft2d_op = _rfft_record("rfft2d", "RFFT2D", 2)
irfft2d_op = _irfft_record("irfft2d", "IRFFT2D", 2)
rfft3d_op = _rfft_record("rfft3d", "RFFT3D", 3)
irfft3d_op = _irfft_record("irfft3d", "IRFFT3D", 3)

COMPLEX_OF = _COMPLEX_OF
REAL_OF = _REAL_OF
