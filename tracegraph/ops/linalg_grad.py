"""Gradient rules of the linear algebra records (matmul with transposes, batch matmul with
adjoints and broadcasting, inverse, determinant, solve, diagonals, band part, cross,
einsum)."""

from __future__ import annotations

import numpy as np

from . import gradutil as G
from .linalg import (
    band_part_op,
    batch_matmul_op,
    cholesky_op,
    cross_op,
    det_op,
    einsum_op,
    inverse_op,
    matmul_op,
    matrix_diag_op,
    matrix_diag_part_op,
    solve_op,
)
from .registry import bind, defgrad


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


@defgrad(cholesky_op)
def _cholesky_grad(op, g):
    """Symmetric in the input (the kernel reads one triangle), as TensorFlow's."""
    lower = op.outputs[0]
    inv = bind(inverse_op, (lower,))
    middle = _mm(lower, g, adj_a=True)
    middle = G.op("subtract", middle, G.op("multiply", 0.5, bind(matrix_diag_op, (
        bind(matrix_diag_part_op, (middle,)),))))
    middle = bind(band_part_op, (middle, np.int64(-1), np.int64(0)))
    grad = _mm(_mm(inv, middle, adj_a=True), inv)
    grad = G.op("add", grad, G.op("conj", G.op("transpose", grad, _last_two_swapped(grad))))
    return G.op("multiply", grad, 0.5)
