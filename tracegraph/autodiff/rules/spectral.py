"""Gradient rules of the Fourier transforms. Each is linear: the gradient is the adjoint
transform (FFT <-> N * IFFT); RFFT's adjoint zero-extends the half spectrum and keeps the real
part, IRFFT's doubles the bins RFFT folded away, as TensorFlow's fft_ops gradients do."""

from __future__ import annotations

import numpy as np

from ...library.array import shape
from ...library.math import cast, multiply, real
from ...library.rearrange import pad, slice_
from ...library.reduce import reduce_prod
from ...ops import spectral as S
from ...ops.registry import bind
from ..registry import defgrad
from ..static_shapes import static_shape, static_value

# op record -> (its adjoint's record, number of transformed axes, whether it is an inverse)
_ADJOINT = {S.fft_op: (S.ifft_op, 1, False), S.ifft_op: (S.fft_op, 1, True),
            S.fft2d_op: (S.ifft2d_op, 2, False), S.ifft2d_op: (S.fft2d_op, 2, True),
            S.fft3d_op: (S.ifft3d_op, 3, False), S.ifft3d_op: (S.fft3d_op, 3, True)}
_COMPLEX_FFT = {1: (S.fft_op, S.ifft_op), 2: (S.fft2d_op, S.ifft2d_op),
                3: (S.fft3d_op, S.ifft3d_op)}
_RFFT = {1: S.rfft_op, 2: S.rfft2d_op, 3: S.rfft3d_op}


def _size(g, rank):
    """The number of points transformed (product of the innermost `rank` dims), as g's dtype."""
    dims = static_shape(g)
    if dims is not None and None not in dims[-rank:]:
        return float(np.prod(dims[-rank:]))
    return cast(reduce_prod(shape(g)[-rank:]), g.dtype.real_dtype)


@defgrad("FFT", "IFFT", "FFT2D", "IFFT2D", "FFT3D", "IFFT3D")
def _complex_fft_grad(op, g):                # FFT's adjoint is n * IFFT; IFFT's is FFT / n
    adjoint, rank, inverse = _ADJOINT[op.op_def]
    out = bind(adjoint, (g,), {})
    n = _size(g, rank)
    scale = 1.0 / n if inverse else n
    return multiply(out, cast(np.float64(scale) if isinstance(scale, float) else scale, g.dtype))


def _lengths(op):
    n = static_value(op.inputs[1])
    if n is None:
        raise NotImplementedError(f"the gradient of {op.op_def.tf_type} needs a constant "
                                  "fft_length")
    return [int(v) for v in n.reshape(-1)]


def _fit(x, dims, target):
    """Crops or zero-pads the innermost axes of `x` (sizes `dims`) to `target`."""
    lead = x.shape.rank - len(dims)
    if any(t < m for t, m in zip(target, dims)):
        x = slice_(x, [0] * (lead + len(dims)), [-1] * lead + [min(t, m) for t, m in
                                                                zip(target, dims)])
        dims = [min(t, m) for t, m in zip(target, dims)]
    extra = [t - m for t, m in zip(target, dims)]
    if any(extra):
        x = pad(x, [[0, 0]] * lead + [[0, e] for e in extra])
    return x


def _rfft_grad(rank):
    def rule(op, g):
        n = _lengths(op)
        half = n[-1] // 2 + 1
        full = _fit(g, n[:-1] + [half], n)     # the missing conjugate half counts as zero
        spread = bind(_COMPLEX_FFT[rank][1], (full,), {})
        grad = real(multiply(spread, cast(np.float64(np.prod(n)), g.dtype)))
        x_dims = static_shape(op.inputs[0])
        if x_dims is None or None in x_dims[-rank:]:
            raise NotImplementedError(f"the gradient of {op.op_def.tf_type} needs the input's "
                                      "static shape")
        return _fit(grad, n, list(x_dims[-rank:])), None
    return rule


def _irfft_grad(rank):
    def rule(op, g):
        n = _lengths(op)
        spectrum = bind(_RFFT[rank], (g, np.asarray(n, np.int32)),
                        {"Tcomplex": op.inputs[0].dtype})
        half = n[-1] // 2 + 1
        mask = np.full(half, 2.0)
        mask[0] = 1.0
        if n[-1] % 2 == 0:
            mask[-1] = 1.0
        scaled = multiply(spectrum, cast(mask / float(np.prod(n)), op.inputs[0].dtype))
        y_dims = static_shape(op.inputs[0])
        if y_dims is None or None in y_dims[-rank:]:
            return scaled, None
        return _fit(scaled, n[:-1] + [half], list(y_dims[-rank:])), None
    return rule


@defgrad("RFFT")
def _rfft_1d_grad(op, g):
    return _rfft_grad(1)(op, g)


@defgrad("RFFT2D")
def _rfft_2d_grad(op, g):
    return _rfft_grad(2)(op, g)


@defgrad("RFFT3D")
def _rfft_3d_grad(op, g):
    return _rfft_grad(3)(op, g)


@defgrad("IRFFT")
def _irfft_1d_grad(op, g):
    return _irfft_grad(1)(op, g)


@defgrad("IRFFT2D")
def _irfft_2d_grad(op, g):
    return _irfft_grad(2)(op, g)


@defgrad("IRFFT3D")
def _irfft_3d_grad(op, g):
    return _irfft_grad(3)(op, g)
