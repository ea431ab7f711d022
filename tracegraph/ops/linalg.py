"""Matrix ops: matmul (MatMul / BatchMatMulV2), eye, diagonals, band part, determinant,
inverse, Cholesky, QR, SVD, solve, einsum, cross; and `tf.linalg` helpers built from them.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..shapes import TensorType, broadcast_shapes, format_dims
from . import gradutil as G
from .registry import (
    COMPLEX,
    FLOAT,
    INDEX,
    NO_ATTRS,
    NUMBER,
    REQUIRED,
    TypeAttr,
    bind,
    convert_to_tensor,
    defgrad,
    defop,
)

# MatMul's dtypes in TensorFlow: no int8 or int16.
_MM_TYPES = NUMBER - {d.int8, d.int16}
_FLOATC = {"T": TypeAttr(FLOAT | COMPLEX)}
_PURE = {"pure"}


# ---- matmul --------------------------------------------------------------------------------------

def _matmul_shape(a, b, ta, tb, rank2: bool):
    if a is None or b is None:
        return None
    for i, s in enumerate((a, b)):
        if len(s) < 2:
            raise ValueError(f"In[{i}] ndims must be >= 2")
        if rank2 and len(s) != 2:
            raise ValueError(f"In[{i}] is not a matrix. Instead it has shape {format_dims(s)}")
    m, k1 = (a[-1], a[-2]) if ta else (a[-2], a[-1])
    k2, n = (b[-1], b[-2]) if tb else (b[-2], b[-1])
    if k1 is not None and k2 is not None and k1 != k2:
        raise ValueError(f"Matrix size-incompatible: In[0]: {format_dims(a)}, In[1]: "
                         f"{format_dims(b)}")
    try:
        batch = broadcast_shapes(a[:-2], b[:-2])
    except ValueError:
        raise ValueError(f"In[0] and In[1] must have compatible batch dimensions: "
                         f"{format_dims(a)} vs. {format_dims(b)}") from None
    return batch + (m, n)


def infer_matmul(a, b, transpose_a=False, transpose_b=False):
    return TensorType(a.dtype, _matmul_shape(a.shape, b.shape, transpose_a, transpose_b, True))


def kernel_matmul(a, b, transpose_a=False, transpose_b=False):
    if np.ndim(a) != 2 or np.ndim(b) != 2:
        raise ValueError("MatMul takes matrices")  # explained by infer_matmul
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


def _matmul_expr(attrs):
    if attrs.get("transpose_a") or attrs.get("transpose_b") or attrs.get("adj_x") or \
            attrs.get("adj_y"):
        return None
    return "{0} @ {1}"


matmul_op = defop("matmul", "MatMul", inputs=("a: T", "b: T"),
                  attrs={"T": TypeAttr(_MM_TYPES), "transpose_a": False, "transpose_b": False},
                  infer=infer_matmul, kernel=kernel_matmul, expr=_matmul_expr,
                  flags=_PURE | {"fresh_output"},
                  onnx="MatMul")


@defgrad(matmul_op)
def _matmul_grad(op, g):
    a, b = op.inputs
    ta, tb = op.attrs["transpose_a"], op.attrs["transpose_b"]

    def mm(i, x, y, tx, ty):
        if not G.needed(op, i):
            return None
        return bind(matmul_op, (x, y), {"transpose_a": tx, "transpose_b": ty})
    if not ta and not tb:
        return mm(0, g, b, False, True), mm(1, a, g, True, False)
    if not ta and tb:
        return mm(0, g, b, False, False), mm(1, g, a, True, False)
    if ta and not tb:
        return mm(0, b, g, False, True), mm(1, a, g, False, False)
    return mm(0, b, g, True, True), mm(1, g, a, True, True)


def infer_batch_matmul(x, y, adj_x=False, adj_y=False):
    return TensorType(x.dtype, _matmul_shape(x.shape, y.shape, adj_x, adj_y, False))


def kernel_batch_matmul(x, y, adj_x=False, adj_y=False):
    if np.ndim(x) < 2 or np.ndim(y) < 2:
        raise ValueError("BatchMatMulV2 takes matrices")  # explained by infer_batch_matmul
    if adj_x:
        x = np.conj(np.swapaxes(x, -1, -2))
    if adj_y:
        y = np.conj(np.swapaxes(y, -1, -2))
    return np.matmul(x, y)


batch_matmul_op = defop("batch_matmul", "BatchMatMulV2", inputs=("x: T", "y: T"),
                        attrs={"T": TypeAttr(_MM_TYPES), "adj_x": False, "adj_y": False},
                        infer=infer_batch_matmul, kernel=kernel_batch_matmul, expr=_matmul_expr,
                        flags=_PURE | {"fresh_output"}, onnx="MatMul")


@defgrad(batch_matmul_op)
def _batch_matmul_grad(op, g):
    x, y = op.inputs
    ax, ay = op.attrs["adj_x"], op.attrs["adj_y"]

    def mm(p, q, tp, tq):
        return bind(batch_matmul_op, (p, q), {"adj_x": tp, "adj_y": tq})
    if not ax and not ay:
        gx, gy = mm(g, y, False, True), mm(x, g, True, False)
    elif not ax and ay:
        gx, gy = mm(g, y, False, False), mm(g, x, True, False)
    elif ax and not ay:
        gx, gy = mm(y, g, False, True), mm(x, g, False, False)
    else:
        gx, gy = mm(y, g, True, True), mm(g, x, True, True)
    return G.unbroadcast(gx, x), G.unbroadcast(gy, y)

# ---- eye, diagonals, band part -------------------------------------------------------------------


def infer_eye(num_rows=REQUIRED, num_columns=None, batch_shape=(), dtype=d.float32):
    cols = num_rows if num_columns is None else num_columns
    return TensorType(dtype, tuple(batch_shape) + (num_rows, cols))


def kernel_eye(num_rows=REQUIRED, num_columns=None, batch_shape=(), dtype=d.float32):
    m = np.eye(num_rows, num_rows if num_columns is None else num_columns,
               dtype=dtype.as_numpy_dtype)
    return np.broadcast_to(m, tuple(batch_shape) + m.shape).copy() if batch_shape else m


eye_op = defop("eye", "Eye", attrs={"num_rows": REQUIRED, "num_columns": None,
                                    "batch_shape": (), "dtype": d.float32},
               infer=infer_eye, kernel=kernel_eye, flags=_PURE | {"constant_like"},
               onnx="EyeLike")


def infer_matrix_diag(diagonal):
    s = diagonal.shape
    return TensorType(diagonal.dtype, None if s is None else s + (s[-1],))


def kernel_matrix_diag(diagonal):
    x = np.asarray(diagonal)
    n = x.shape[-1]
    out = np.zeros(x.shape + (n,), dtype=x.dtype)
    idx = np.arange(n)
    out[..., idx, idx] = x
    return out


def infer_matrix_diag_part(input):  # noqa: A002
    s = input.shape
    if s is None:
        return TensorType(input.dtype, None)
    m, n = s[-2], s[-1]
    k = None if m is None or n is None else min(m, n)
    return TensorType(input.dtype, s[:-2] + (k,))


def kernel_matrix_diag_part(input):  # noqa: A002
    return np.diagonal(input, axis1=-2, axis2=-1).copy()


def kernel_band_part(input, num_lower, num_upper):  # noqa: A002
    x = np.asarray(input)
    m, n = x.shape[-2:]
    rows = np.arange(m)[:, None]
    cols = np.arange(n)[None, :]
    lo, up = int(num_lower), int(num_upper)
    keep = ((lo < 0) | (rows - cols <= lo)) & ((up < 0) | (cols - rows <= up))
    return np.where(keep, x, np.zeros((), x.dtype))


_T_ALL = {"T": TypeAttr(NUMBER | {d.bool})}
matrix_diag_op = defop("matrix_diag", "MatrixDiag", inputs=("diagonal: T",), attrs=_T_ALL,
                       infer=infer_matrix_diag, kernel=kernel_matrix_diag, flags=_PURE)
matrix_diag_part_op = defop("matrix_diag_part", "MatrixDiagPart", inputs=("input: T",),
                            attrs=_T_ALL, infer=infer_matrix_diag_part,
                            kernel=kernel_matrix_diag_part, flags=_PURE)
band_part_op = defop("band_part", "MatrixBandPart",
                     inputs=("input: T", "num_lower: Tindex", "num_upper: Tindex"),
                     attrs={**_T_ALL, "Tindex": TypeAttr(INDEX, d.int64)},
                     infer=lambda input, num_lower, num_upper: TensorType(input.dtype,  # noqa: A006
                                                                          input.shape),
                     kernel=kernel_band_part, flags=_PURE)

# ---- decompositions and solves -------------------------------------------------------------------


def _square(t: TensorType, op: str):
    s = t.shape
    if s is not None:
        if len(s) < 2:
            raise ValueError(f"Input tensor 0 must have rank >= 2, got {len(s)}")
        if s[-1] is not None and s[-2] is not None and s[-1] != s[-2]:
            raise ValueError("Input matrix must be square.")
    return s


def kernel_det(input):  # noqa: A002
    _check_square(np.asarray(input))
    return np.linalg.det(input).astype(np.asarray(input).dtype)


def _check_square(x: np.ndarray) -> None:
    try:
        _square(TensorType(d.float32, x.shape), "")
    except ValueError as e:
        raise InvalidArgumentError(str(e)) from None


def kernel_inverse(input, adjoint=False):  # noqa: A002
    x = np.asarray(input)
    _check_square(x)
    if adjoint:
        x = np.conj(np.swapaxes(x, -1, -2))
    try:
        return np.linalg.inv(x).astype(x.dtype)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError("Input is not invertible.") from None


def kernel_cholesky(input):  # noqa: A002
    _check_square(np.asarray(input))
    try:
        return np.linalg.cholesky(input).astype(np.asarray(input).dtype)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError("Cholesky decomposition was not successful. The input might "
                                   "not be valid.") from None


def kernel_solve(matrix, rhs, adjoint=False):
    a = np.asarray(matrix)
    try:
        _check_solve(a.shape, np.shape(rhs))
    except ValueError as e:
        raise InvalidArgumentError(str(e)) from None
    if adjoint:
        a = np.conj(np.swapaxes(a, -1, -2))
    try:
        return np.linalg.solve(a, rhs).astype(a.dtype)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError("Input matrix is not invertible.") from None


def infer_qr(input, full_matrices=False):  # noqa: A002
    s = input.shape
    if s is None:
        return (TensorType(input.dtype, None), TensorType(input.dtype, None))
    m, n = s[-2], s[-1]
    k = None if m is None or n is None else min(m, n)
    qc, rr = (m, m) if full_matrices else (k, k)
    return (TensorType(input.dtype, s[:-2] + (m, qc)), TensorType(input.dtype, s[:-2] + (rr, n)))


def kernel_qr(input, full_matrices=False):  # noqa: A002
    x = np.asarray(input)
    q, r = np.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return [q.astype(x.dtype), r.astype(x.dtype)]


def infer_svd(input, compute_uv=True, full_matrices=False):  # noqa: A002
    s = input.shape
    if s is None:
        return tuple(TensorType(input.dtype, None) for _ in range(3))
    m, n = s[-2], s[-1]
    k = None if m is None or n is None else min(m, n)
    b = s[:-2]
    sv = TensorType(input.dtype.real_dtype, b + (k,))
    if not compute_uv:
        return (sv, TensorType(input.dtype, (0,)), TensorType(input.dtype, (0,)))
    u = b + ((m, m) if full_matrices else (m, k))
    v = b + ((n, n) if full_matrices else (n, k))
    return (sv, TensorType(input.dtype, u), TensorType(input.dtype, v))


def kernel_svd(input, compute_uv=True, full_matrices=False):  # noqa: A002
    x = np.asarray(input)
    if not compute_uv:
        sv = np.linalg.svd(x, compute_uv=False)
        return [sv.astype(x.real.dtype), np.zeros((0,), x.dtype), np.zeros((0,), x.dtype)]
    u, sv, vh = np.linalg.svd(x, full_matrices=full_matrices)
    v = np.conj(np.swapaxes(vh, -1, -2))
    return [sv.astype(x.real.dtype), u.astype(x.dtype), v.astype(x.dtype)]


def infer_det(input):  # noqa: A002
    shape = _square(input, "det")
    return TensorType(input.dtype, None if shape is None else shape[:-2])


det_op = defop("det", "MatrixDeterminant", inputs=("input: T",), attrs=_FLOATC,
               infer=infer_det, kernel=kernel_det, flags=_PURE, onnx="Det")
inverse_op = defop("inverse", "MatrixInverse", inputs=("input: T",),
                   attrs={**_FLOATC, "adjoint": False},
                   infer=lambda input, adjoint=False: TensorType(input.dtype,  # noqa: A006
                                                                 _square(input, "inv")),
                   kernel=kernel_inverse, flags=_PURE)
cholesky_op = defop("cholesky", "Cholesky", inputs=("input: T",), attrs=_FLOATC,
                    infer=lambda x: TensorType(x.dtype, _square(x, "cholesky")),
                    kernel=kernel_cholesky, flags=_PURE)
def _check_solve(matrix, rhs):
    _square(TensorType(d.float32, matrix), "solve")
    if matrix is None or rhs is None:
        return
    if len(rhs) != len(matrix):
        raise ValueError("All input tensors must have the same rank.")
    if None not in (matrix[-2], rhs[-2]) and matrix[-2] != rhs[-2]:
        raise ValueError("Input matrix and rhs are incompatible.")


def infer_solve(matrix, rhs, adjoint=False):
    _check_solve(matrix.shape, rhs.shape)
    return TensorType(rhs.dtype, rhs.shape)


solve_op = defop("solve", "MatrixSolve", inputs=("matrix: T", "rhs: T"),
                 attrs={**_FLOATC, "adjoint": False}, infer=infer_solve,
                 kernel=kernel_solve, flags=_PURE)
qr_op = defop("qr", "Qr", inputs=("input: T",), attrs={**_FLOATC, "full_matrices": False},
              infer=infer_qr, kernel=kernel_qr, num_outputs=2, flags=_PURE)
svd_op = defop("svd", "Svd", inputs=("input: T",),
               attrs={**_FLOATC, "compute_uv": True, "full_matrices": False},
               infer=infer_svd, kernel=kernel_svd, num_outputs=3, flags=_PURE)

# ---- einsum, cross -------------------------------------------------------------------------------


def _split_term(term: str, shape: tuple, index: int):
    """Letter -> dim for one einsum operand, and the dims its `...` covers."""
    if "..." in term:
        before = term.index("...")
        after = len(term) - before - 3
        letters = term.replace("...", "")
        dims = shape[:before] + shape[len(shape) - after:]
        return dict(zip(letters, dims)), shape[before:len(shape) - after]
    if len(term) != len(shape):
        raise ValueError(f"Expected input {index} to have rank {len(term)} but got: "
                         f"{len(shape)}")
    return dict(zip(term, shape)), ()


def infer_einsum(inputs, equation=REQUIRED):
    lhs, arrow, rhs = equation.replace(" ", "").partition("->")
    terms = lhs.split(",")
    if len(terms) != len(inputs):
        raise ValueError(f"einsum: expected {len(terms)} inputs for '{equation}', got "
                         f"{len(inputs)}")
    if any(t.shape is None for t in inputs):
        return TensorType(inputs[0].dtype, None)
    sizes: dict = {}
    ellipsis: tuple | None = ()
    for index, (term, t) in enumerate(zip(terms, inputs)):
        letters, ell = _split_term(term, t.shape, index)
        ellipsis = broadcast_shapes(ellipsis, ell)
        for ch, dim in letters.items():
            old = sizes.get(ch, 1)
            if old not in (1, None) and dim not in (1, None) and old != dim:
                axis = term.replace("...", "").index(ch)
                raise ValueError(f"Expected dimension {old} at axis {axis} of the input shaped "
                                 f"{format_dims(t.shape)} but got dimension {dim}")
            sizes[ch] = None if dim is None or old is None else max(old, dim)
    if not arrow:
        once = [c for c in sorted(sizes) if lhs.count(c) == 1]
        rhs = ("..." if "..." in lhs else "") + "".join(once)
    out: list = []
    for part in rhs.split("..."):
        out.extend(sizes[c] for c in part)
        out.append("...")
    out.pop()
    shape = []
    for item in out:
        shape.extend(ellipsis if item == "..." else (item,))
    return TensorType(inputs[0].dtype, tuple(shape))


def kernel_einsum(inputs, equation=REQUIRED):
    try:
        return np.asarray(np.einsum(equation, *inputs))
    except ValueError:
        infer_einsum([TensorType(d.float32, np.shape(x)) for x in inputs], equation)
        raise


einsum_op = defop("einsum", "Einsum", inputs=("inputs: N * T",),
                  attrs={"T": TypeAttr(NUMBER), "equation": REQUIRED}, infer=infer_einsum,
                  kernel=kernel_einsum, flags=_PURE, onnx="Einsum")


def kernel_cross(a, b):
    return np.cross(a, b)


cross_op = defop("cross", "Cross", inputs=("a: T", "b: T"),
                 attrs={"T": TypeAttr(NUMBER - COMPLEX)},
                 infer=lambda a, b: TensorType(a.dtype, broadcast_shapes(a.shape, b.shape)),
                 kernel=kernel_cross, flags=_PURE)

# ---- gradient rules of the records above (matmul's are next to its records) -----------------


def _mm(a, b, adj_a=False, adj_b=False):
    return bind(batch_matmul_op, (a, b), {"adj_x": adj_a, "adj_y": adj_b})


@defgrad(inverse_op)
def _inverse_grad(op, g):
    ainv = op.outputs[0]
    if op.attrs.get("adjoint"):
        return G.op("negative", _mm(ainv, _mm(g, ainv, adj_a=True), adj_b=False))
    return G.op("negative", _mm(ainv, _mm(g, ainv, adj_b=True), adj_a=True))


@defgrad(det_op)
def _det_grad(op, g):
    a, det = op.inputs[0], op.outputs[0]
    scale = G.op("expand_dims", G.op("expand_dims", G.op("multiply", g, det), -1), -1)
    inv_t = G.op("conj", G.op("transpose", bind(inverse_op, (a,)), _last_two_swapped(a)))
    return G.op("multiply", scale, inv_t)


def _last_two_swapped(x):
    rank = x.shape.rank
    perm = list(range(rank))
    perm[-2], perm[-1] = perm[-1], perm[-2]
    return np.asarray(perm, np.int32)


@defgrad(solve_op)
def _solve_grad(op, g):
    a, c = op.inputs[0], op.outputs[0]
    adjoint = op.attrs.get("adjoint", False)
    grad_b = bind(solve_op, (a, g), {"adjoint": not adjoint})
    grad_a = G.op("negative", _mm(c, grad_b, adj_b=True) if adjoint else
                  _mm(grad_b, c, adj_b=True))
    return grad_a, grad_b


@defgrad(matrix_diag_op)
def _matrix_diag_grad(op, g):
    return bind(matrix_diag_part_op, (g,))


@defgrad(matrix_diag_part_op)
def _matrix_diag_part_grad(op, g):
    x = op.inputs[0]
    shape = G.static_shape(x)
    if shape is None:
        raise NotImplementedError("the gradient of diag_part needs a static shape")
    square = bind(matrix_diag_op, (g,))
    k = min(shape[-2:])
    if shape[-1] == shape[-2]:
        return square
    pads = [[0, 0]] * (len(shape) - 2) + [[0, shape[-2] - k], [0, shape[-1] - k]]
    return G.op("pad", square, np.asarray(pads, np.int32), 0)


@defgrad(band_part_op)
def _band_part_grad(op, g):
    return bind(band_part_op, (g, op.inputs[1], op.inputs[2])), None, None


@defgrad(cross_op)
def _cross_grad(op, g):
    a, b = op.inputs
    return (G.unbroadcast(bind(cross_op, (b, g)), a), G.unbroadcast(bind(cross_op, (g, a)), b))


def _einsum_terms(equation: str, ranks: list[int]):
    """Operand and output subscripts with `...` spelled as capital letters."""
    lhs, _, rhs = equation.replace(" ", "").partition("->")
    terms = lhs.split(",")
    spare = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in equation]
    widest = max((r - len(t.replace("...", "")) for t, r in zip(terms, ranks) if "..." in t),
                 default=0)
    fill = "".join(spare[:widest])
    out = []
    for t, r in zip(terms, ranks):
        n = r - len(t.replace("...", ""))
        out.append(t.replace("...", fill[widest - n:] if n else ""))
    if "->" not in equation:
        letters = "".join(out)
        rhs = fill + "".join(sorted(c for c in set(letters) if letters.count(c) == 1 and
                                    c.islower()))
    else:
        rhs = rhs.replace("...", fill)
    return out, rhs


@defgrad(einsum_op)
def _einsum_grad(op, g):
    xs = list(op.inputs)
    terms, rhs = _einsum_terms(op.attrs["equation"], [x.shape.rank for x in xs])
    grads = []
    for i, (x, term) in enumerate(zip(xs, terms)):
        if len(set(term)) != len(term):
            raise NotImplementedError("the gradient of einsum with a repeated subscript in "
                                      "one operand")
        others = [t for j, t in enumerate(terms) if j != i]
        known = set(rhs).union(*others) if others else set(rhs)
        kept = "".join(c for c in term if c in known)
        equation = ",".join([rhs] + others) + "->" + kept
        part = bind(einsum_op, ([g] + [xs[j] for j in range(len(xs)) if j != i],),
                    {"equation": equation})
        if kept != term:
            dims = G.dims(x)
            part = G.reshape(part, G.as_shape([n if c in known else 1
                                               for c, n in zip(term, dims)]))
            part = G.op("broadcast_to", part, G.as_shape(dims))
        grads.append(G.unbroadcast(part, x))
    return grads


# ---- public functions ---------------------------------------------------------------------------


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """`tf.matmul`: MatMul for matrices (rank <= 2), BatchMatMulV2 when either side has batch
    dims. As in TensorFlow, `adjoint` becomes conj + transpose and vice versa."""
    if not (transpose_a or transpose_b or adjoint_a or adjoint_b or output_type) and \
            getattr(a, "ndim", None) == 2 and getattr(b, "ndim", None) == 2 and \
            isinstance(a.dtype, d.DType) and isinstance(b.dtype, d.DType):
        return bind(matmul_op, (a, b), NO_ATTRS, name)  # the common case, kept lean
    from .math import conj
    for side, t, adj in (("a", transpose_a, adjoint_a), ("b", transpose_b, adjoint_b)):
        if t and adj:
            raise ValueError(f"Only one of `transpose_{side}` and `adjoint_{side}` can be True. "
                             f"Received `transpose_{side}`={t}, `adjoint_{side}`={adj}.")
    a = convert_to_tensor(a)
    b = convert_to_tensor(b, dtype_hint=a.dtype)
    ra, rb = a.shape.rank, b.shape.rank
    if ra is None or ra > 2 or rb is None or rb > 2:
        if transpose_a:
            a, adjoint_a = conj(a) if a.dtype.is_complex else a, True
        if transpose_b:
            b, adjoint_b = conj(b) if b.dtype.is_complex else b, True
        return bind(batch_matmul_op, (a, b), {"adj_x": bool(adjoint_a),
                                              "adj_y": bool(adjoint_b)}, name)
    if adjoint_a:
        a, transpose_a = conj(a) if a.dtype.is_complex else a, True
    if adjoint_b:
        b, transpose_b = conj(b) if b.dtype.is_complex else b, True
    attrs = {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b)}
    return bind(matmul_op, (a, b), attrs, name)


def _swap_last(x, transpose):
    rank = x.shape.rank
    if rank is None or rank < 2:
        raise ValueError(f"In[0] ndims must be >= 2: {x.shape}")
    perm = list(range(rank))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return transpose(x, perm)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=d.float32, name=None):
    return bind(eye_op, (), {"num_rows": int(num_rows),
                             "num_columns": None if num_columns is None else int(num_columns),
                             "batch_shape": tuple(int(b) for b in (batch_shape or ())),
                             "dtype": d.as_dtype(dtype)}, name)


def diag(diagonal, name="diag", **_):
    return bind(matrix_diag_op, (diagonal,), NO_ATTRS, name)


def diag_part(input, name="diag_part", **_):  # noqa: A002
    return bind(matrix_diag_part_op, (input,), NO_ATTRS, name)


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002
    return bind(band_part_op, (input, num_lower, num_upper), NO_ATTRS, name)


def det(input, name=None):  # noqa: A002
    return bind(det_op, (input,), NO_ATTRS, name)


def inv(input, adjoint=False, name=None):  # noqa: A002
    return bind(inverse_op, (input,), {"adjoint": bool(adjoint)}, name)


def cholesky(input, name=None):  # noqa: A002
    return bind(cholesky_op, (input,), NO_ATTRS, name)


def solve(matrix, rhs, adjoint=False, name=None):
    return bind(solve_op, (matrix, rhs), {"adjoint": bool(adjoint)}, name)


def qr(input, full_matrices=False, name=None):  # noqa: A002
    q, r = bind(qr_op, (input,), {"full_matrices": bool(full_matrices)}, name)
    return _Named(("q", "r"), (q, r))


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    s, u, v = bind(svd_op, (tensor,), {"compute_uv": bool(compute_uv),
                                      "full_matrices": bool(full_matrices)}, name)
    return (s, u, v) if compute_uv else s


def einsum(equation, *inputs, **kwargs):
    expected = equation.partition("->")[0].count(",") + 1
    if len(inputs) != expected:
        raise ValueError(f'Got {len(inputs)} inputs for equation "{equation}", expecting '
                         f"{expected}")
    return bind(einsum_op, (list(inputs),), {"equation": equation.replace(" ", "")},
                kwargs.get("name"))


def cross(a, b, name=None):
    return bind(cross_op, (a, b), NO_ATTRS, name)


def trace(x, name=None):
    from .reduce import reduce_sum
    return reduce_sum(diag_part(x), axis=-1, name=name)


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    from .array import transpose
    out = _swap_last(convert_to_tensor(a), transpose)
    if conjugate and out.dtype.is_complex:
        from .math import conj
        out = conj(out)
    return out


def matvec(a, b, transpose_a=False, adjoint_a=False, name=None):
    from .array import expand_dims, squeeze
    return squeeze(matmul(a, expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a),
                   axis=-1, name=name)


def tensordot(a, b, axes, name=None):
    """Contraction over `axes` (an int or a pair of axis lists), via einsum."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    ra, rb = a.shape.rank, b.shape.rank
    if ra is None or rb is None:
        raise ValueError("tensordot needs tensors of known rank")
    if isinstance(axes, int):
        ax_a, ax_b = list(range(ra - axes, ra)), list(range(axes))
    else:
        ax_a, ax_b = ([axes[0]] if isinstance(axes[0], int) else list(axes[0]),
                      [axes[1]] if isinstance(axes[1], int) else list(axes[1]))
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    la = [next(letters) for _ in range(ra)]
    lb = [next(letters) for _ in range(rb)]
    for i, j in zip(ax_a, ax_b):
        lb[j % rb] = la[i % ra]
    out = [c for i, c in enumerate(la) if i % ra not in [x % ra for x in ax_a]]
    out += [c for j, c in enumerate(lb) if j % rb not in [x % rb for x in ax_b]]
    return einsum(f"{''.join(la)},{''.join(lb)}->{''.join(out)}", a, b, name=name)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """`tf.norm`: vector p-norms (p > 0, inf) and matrix norms ('fro', 1, 2, inf) over a pair
    of axes, computed as TensorFlow does (the euclidean norm of complex input stays complex)."""
    from .array import squeeze
    from .math import abs as abs_
    from .math import conj, multiply, pow, sqrt  # noqa: A004
    from .reduce import reduce_max, reduce_sum
    x = convert_to_tensor(tensor)
    keep = bool(keepdims)
    is_matrix = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix:
        if ord not in ("euclidean", "fro", 1, 2, np.inf):
            raise ValueError(f"'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, "
                             f"2, inf], got {ord}")
        rank = x.shape.rank
        if rank is None:
            raise ValueError("tf.norm over a pair of axes needs a tensor of known rank")
        if axis[0] % rank == axis[1] % rank:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, "
                             f"got {axis}")
        axis = [a % rank for a in axis]
        if ord in (2, 2.0):
            return _matrix_2_norm(x, axis, rank, keep, name)
    else:
        if not (axis is None or isinstance(axis, (int, np.integer))):
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, "
                             f"got {axis}")
        numeric = isinstance(ord, (int, float, np.number)) and not isinstance(ord, bool)
        if ord != "euclidean" and not (numeric and ord > 0):
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    if ord in ("euclidean", "fro", 2, 2.0):
        result = sqrt(reduce_sum(multiply(x, conj(x)) if x.dtype.is_complex else multiply(x, x),
                                 axis, keepdims=True))
    else:
        result = abs_(x)
        if ord == 1:
            result = reduce_sum(result, None if axis is None else
                                (axis[0] if is_matrix else axis), keepdims=True)
            if is_matrix:
                result = reduce_max(result, axis[-1], keepdims=True)
        elif ord == np.inf:
            if is_matrix:
                result = reduce_sum(result, axis[1], keepdims=True)
            result = reduce_max(result, None if axis is None else
                                (axis[0] if is_matrix else axis), keepdims=True)
        else:  # a general p-norm
            p = convert_to_tensor(ord, dtype=result.dtype)
            result = pow(reduce_sum(pow(result, p), axis, keepdims=True), 1.0 / p)
    if keep:
        return result
    return squeeze(result, axis, name=name) if axis is not None else \
        squeeze(result, name=name)


def _matrix_2_norm(x, axis, rank, keep, name):
    """The largest singular value of the matrices spanned by `axis`."""
    from .array import expand_dims, transpose
    from .reduce import reduce_max
    rest = [i for i in range(rank) if i not in axis]
    permed = transpose(x, rest + list(axis))
    s = reduce_max(svd(permed, compute_uv=False), axis=-1)
    if not keep:
        return s if name is None else transpose(s, list(range(len(rest))), name=name)
    for a in sorted(axis):
        s = expand_dims(s, a)
    return s


class _Named(tuple):
    """A tuple with field names, like TensorFlow's namedtuple results (`Qr(q=..., r=...)`)."""

    def __new__(cls, names, values):
        obj = super().__new__(cls, values)
        obj._names = names
        return obj

    def __getattr__(self, key):
        names = object.__getattribute__(self, "_names")
        if key in names:
            return self[names.index(key)]
        raise AttributeError(key)
