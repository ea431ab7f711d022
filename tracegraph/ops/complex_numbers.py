"""Complex: a complex tensor from its real and imaginary parts (`tf.complex`). Real, Imag,
Conj and ComplexAbs live with the other elementwise math in `math.py`."""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..shapes import TensorType, broadcast_shapes
from .infer import runtime as _runtime
from .registry import PURE, TypeAttr, defop

_COMPLEX_OF = {d.float32: d.complex64, d.float64: d.complex128}


def infer_complex(real, imag, Tout=d.complex64):  # noqa: N803
    return TensorType(Tout, broadcast_shapes(real.shape, imag.shape))


def kernel_complex(real, imag, Tout=d.complex64):  # noqa: N803
    _runtime(broadcast_shapes, np.shape(real), np.shape(imag))
    out = np.empty(np.broadcast_shapes(np.shape(real), np.shape(imag)), Tout.as_numpy_dtype)
    out.real, out.imag = real, imag
    return out


complex_op = defop("complex", "Complex", inputs=("real: T", "imag: T"),
                   attrs={"T": TypeAttr({d.float32, d.float64}, d.float32),
                          "Tout": d.complex64},
                   infer=infer_complex, kernel=kernel_complex, flags=PURE | {"elementwise"})

COMPLEX_OF = _COMPLEX_OF
