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

_ADJOINT = {"FFT": (S.ifft_op, 1), "IFFT": (S.fft_op, 1), "FFT2D": (S.ifft2d_op, 2),
            "IFFT2D": (S.fft2d_op, 2), "FFT3D": (S.ifft3d_op, 3), "IFFT3D": (S.fft3d_op, 3)}
_COMPLEX_FFT = {1: (S.fft_op, S.ifft_op), 2: (S.fft2d_op, S.ifft2d_op),
                3: (S.fft3d_op, S.ifft3d_op)}
_RFFT = {1: S.rfft_op, 2: S.rfft2d_op, 3: S.rfft3d_op}


def _size(g, rank):
    """The number of points transformed (product of the innermost `rank` dims), as g's dtype."""
    dims = static_shape(g)
    if dims is not None and None not in dims[-rank:]:
        return float(np.prod(dims[-rank:]))
    return cast(reduce_prod(shape(g)[-rank:]), g.dtype.real_dtype)


def _complex_fft_grad(op, g):
    adjoint, rank = _ADJOINT[op.op_def.tf_type]
    out = bind(adjoint, (g,), {})
    n = _size(g, rank)
    inverse = op.op_def.tf_type.startswith("I")   # IFFT = conj(FFT) / n: adjoint FFT / n
    return multiply(out, cast(1.0 / n if inverse else n, g.dtype))


for _type in _ADJOINT:
    defgrad(_type)(_complex_fft_grad)


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
        grad = real(multiply(spread, cast(float(np.prod(n)), g.dtype)))
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


for _rank, (_r, _i) in {1: ("RFFT", "IRFFT"), 2: ("RFFT2D", "IRFFT2D"),
                        3: ("RFFT3D", "IRFFT3D")}.items():
    defgrad(_r)(_rfft_grad(_rank))
    defgrad(_i)(_irfft_grad(_rank))
