"""The NumPy numerics of convolution and pooling in any number of spatial dims (1-D to 3-D), on
channels-last arrays `[N, *spatial, C]`; the records (`nn.py`, `convolution.py`, `pooling.py`)
move channels-first data in and out.

One design for every op: the windows of the (padded) input are a read-only strided view
`[N, *out, *kernel, C]` (im2col without a copy). A convolution reshapes that view to rows once
and multiplies by the filter in one BLAS product per group, on the threads the budget gives it
(`thread_budget.matmul`); its input gradient is one product back to the rows and one strided add
per kernel offset; its filter gradient is one product of the rows by the output gradient.
Pooling reduces the view over the kernel axes.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .. import thread_budget
from .geometry import out_size

__all__ = ["to_channels_last", "from_channels_last", "windows", "pad_spatial", "conv",
           "conv_backprop_input", "conv_backprop_filter", "depthwise_conv",
           "depthwise_backprop_input", "depthwise_backprop_filter", "max_pool", "avg_pool",
           "max_pool_argmax", "max_pool_grad", "avg_pool_grad", "lowest"]


def to_channels_last(x, data_format: str):
    """`x` in `data_format` as `[N, *spatial, C]` (a view)."""
    x = np.asarray(x)
    return np.moveaxis(x, 1, -1) if data_format.startswith("NC") else x


def from_channels_last(x, data_format: str):
    """`[N, *spatial, C]` back to `data_format`, contiguous."""
    return np.ascontiguousarray(np.moveaxis(x, -1, 1)) if data_format.startswith("NC") else x


def lowest(dtype):
    """The value padding never wins a max against."""
    dtype = np.dtype(dtype)
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def windows(x, k, s, dilation):
    """The `[N, *out, *k, C]` read-only view of the windows of `x` `[N, *spatial, C]`."""
    spatial = x.shape[1:-1]
    out = tuple(out_size(size, kk, ss, dd, (0, 0))   # a window larger than x is an error
                for size, kk, ss, dd in zip(spatial, k, s, dilation))
    bn, *bs, bc = x.strides
    return as_strided(x, (x.shape[0],) + out + tuple(k) + (x.shape[-1],),
                      (bn,) + tuple(b * ss for b, ss in zip(bs, s)) +
                      tuple(b * dd for b, dd in zip(bs, dilation)) + (bc,), writeable=False)


def pad_spatial(x, pads, value=0):
    """`x` `[N, *spatial, C]` padded in its spatial dims by `pads` ((before, after) per dim) with
    `value` (np.pad costs tens of microseconds even for small arrays; this does not)."""
    if not any(p for pair in pads for p in pair):
        return x
    shape = (x.shape[0],) + tuple(n + a + b for n, (a, b) in zip(x.shape[1:-1], pads)) + \
        (x.shape[-1],)
    out = np.full(shape, value, dtype=x.dtype)
    out[_inner(x.shape, pads)] = x
    return out


def _inner(shape, pads):
    """The slices of a padded array that hold the unpadded one."""
    return (slice(None),) + tuple(slice(a, a + n) for n, (a, _) in zip(shape[1:-1], pads))


def _offset_slices(offset, dilation, stride, out):
    """The slices of a padded input read by kernel offset `offset` at every output position."""
    return (slice(None),) + tuple(slice(i * d, i * d + (o - 1) * s + 1, s)
                                  for i, d, s, o in zip(offset, dilation, stride, out))


def _groups(c, cin, cout):
    groups = c // cin
    return groups, cout // groups


# ---- convolution ---------------------------------------------------------------------------------

def conv(x, w, strides, dilations, pads):
    """Convolution of `x` `[N, *S, C]` by `w` `[*K, Cin, Cout]` (grouped when C is a multiple
    of Cin): `[N, *out, Cout]`."""
    *k, cin, cout = w.shape
    win = windows(pad_spatial(x, pads), k, strides, dilations)
    out_shape = win.shape[:-len(k) - 1]
    rows, depth = math.prod(out_shape), math.prod(k) * cin
    groups, per = _groups(x.shape[-1], cin, cout)
    if groups == 1:
        out = thread_budget.matmul(win.reshape(rows, depth), w.reshape(depth, cout))
    else:   # one BLAS product per group
        out = np.concatenate([thread_budget.matmul(
            win[..., g * cin:(g + 1) * cin].reshape(rows, depth),
            w[..., g * per:(g + 1) * per].reshape(depth, per)) for g in range(groups)], axis=-1)
    return out.reshape(out_shape + (cout,)).astype(w.dtype, copy=False)


def conv_backprop_input(shape, w, g, strides, dilations, pads):
    """The gradient of `conv` w.r.t. its input of `shape` `[N, *S, C]`, from the output's
    gradient `g` `[N, *out, Cout]`: the rows `g @ w^T`, each added back where it was read."""
    *k, cin, cout = w.shape
    n, *spatial, c = shape
    out = g.shape[1:-1]
    rows, depth = math.prod(g.shape[:-1]), math.prod(k) * cin
    groups, per = _groups(c, cin, cout)
    padded = np.zeros((n,) + tuple(s + a + b for s, (a, b) in zip(spatial, pads)) + (c,),
                      dtype=np.result_type(g.dtype, w.dtype))
    for grp in range(groups):
        cols = thread_budget.matmul(g[..., grp * per:(grp + 1) * per].reshape(rows, per),
                                    w[..., grp * per:(grp + 1) * per].reshape(depth, per).T)
        cols = cols.reshape(g.shape[:-1] + (math.prod(k), cin))
        for j, offset in enumerate(itertools.product(*map(range, k))):
            at = _offset_slices(offset, dilations, strides, out) + (
                slice(grp * cin, (grp + 1) * cin),)
            padded[at] += cols[..., j, :]
    return np.ascontiguousarray(padded[_inner(shape, pads)])


def conv_backprop_filter(x, filter_shape, g, strides, dilations, pads):
    """The gradient of `conv` w.r.t. its filter of `filter_shape` `[*K, Cin, Cout]`: the input's
    window rows times the output's gradient."""
    *k, cin, cout = filter_shape
    win = windows(pad_spatial(x, pads), k, strides, dilations)
    win = win[(slice(None),) + tuple(slice(0, o) for o in g.shape[1:-1])]
    rows, depth = math.prod(g.shape[:-1]), math.prod(k) * cin
    groups, per = _groups(x.shape[-1], cin, cout)
    parts = [thread_budget.matmul(win[..., grp * cin:(grp + 1) * cin].reshape(rows, depth).T,
                                  g[..., grp * per:(grp + 1) * per].reshape(rows, per))
             for grp in range(groups)]
    out = parts[0] if groups == 1 else np.concatenate(parts, axis=-1)
    return out.reshape(tuple(filter_shape)).astype(g.dtype, copy=False)


# ---- depthwise convolution: each input channel by its own M filters ------------------------------

def depthwise_conv(x, w, strides, dilations, pads):
    """`x` `[N, *S, C]` by `w` `[*K, C, M]`: `[N, *out, C * M]`, channel c*M + m from input
    channel c by filter m (one multiply-add per kernel offset)."""
    *k, c, m = w.shape
    xp = pad_spatial(x, pads)
    out_dims = windows(xp, k, strides, dilations).shape[1:1 + len(k)]
    acc = np.zeros((x.shape[0],) + out_dims + (c, m), dtype=np.result_type(x.dtype, w.dtype))
    for offset in itertools.product(*map(range, k)):
        part = xp[_offset_slices(offset, dilations, strides, out_dims)]
        acc += part[..., None] * w[offset]
    return acc.reshape(acc.shape[:-2] + (c * m,)).astype(w.dtype, copy=False)


def depthwise_backprop_input(shape, w, g, strides, dilations, pads):
    *k, c, m = w.shape
    n, *spatial = shape[:-1]
    out = g.shape[1:-1]
    g = g.reshape(g.shape[:-1] + (c, m))
    padded = np.zeros((n,) + tuple(s + a + b for s, (a, b) in zip(spatial, pads)) + (c,),
                      dtype=g.dtype)
    for offset in itertools.product(*map(range, k)):
        padded[_offset_slices(offset, dilations, strides, out)] += (g * w[offset]).sum(-1)
    return np.ascontiguousarray(padded[_inner(shape, pads)])


def depthwise_backprop_filter(x, filter_shape, g, strides, dilations, pads):
    *k, c, m = filter_shape
    xp = pad_spatial(x, pads)
    out = g.shape[1:-1]
    rows = math.prod(g.shape[:-1])
    g = g.reshape(rows, c, m)
    dw = np.zeros(tuple(filter_shape), dtype=g.dtype)
    for offset in itertools.product(*map(range, k)):
        part = xp[_offset_slices(offset, dilations, strides, out)].reshape(rows, c)
        dw[offset] = np.einsum("rc,rcm->cm", part, g)
    return dw


# ---- pooling -------------------------------------------------------------------------------------

def _kernel_axes(k):
    return tuple(range(1 + len(k), 1 + 2 * len(k)))


def max_pool(x, k, s, pads):
    """Max over each window; padding never wins."""
    win = windows(pad_spatial(x, pads, lowest(x.dtype)), k, s, (1,) * len(k))
    return win.max(axis=_kernel_axes(k))


def _counts(spatial, k, s, pads, dtype):
    """How many real (unpadded) inputs each output window holds: `[*out]`."""
    ones = pad_spatial(np.ones((1,) + tuple(spatial) + (1,), dtype), pads)
    return windows(ones, k, s, (1,) * len(k)).sum(axis=_kernel_axes(k))[0, ..., 0]


def avg_pool(x, k, s, pads):
    """Mean over each window, padding not counted."""
    win = windows(pad_spatial(x, pads), k, s, (1,) * len(k))
    total = win.sum(axis=_kernel_axes(k))
    if not any(p for pair in pads for p in pair):   # every window is whole
        return (total / math.prod(k)).astype(x.dtype)
    return (total / _counts(x.shape[1:-1], k, s, pads, x.dtype)[None, ..., None]).astype(x.dtype)


def max_pool_argmax(x, k, s, pads):
    """The flat index into the padded input of each window's first largest value:
    `[N, *out, C]` (row-major over the padded `[N, *spatial, C]`)."""
    xp = pad_spatial(x, pads, lowest(x.dtype))
    win = windows(xp, k, s, (1,) * len(k))
    nk = len(k)
    # window entries last: [N, *out, C, *k] -> [N, *out, C, prod(k)]
    order = tuple(range(1 + nk)) + (1 + 2 * nk,) + _kernel_axes(k)
    first = win.transpose(order).reshape(win.shape[:1 + nk] + (x.shape[-1], -1)).argmax(-1)
    offsets = np.unravel_index(first, tuple(k))
    n, *out, c = first.shape
    grids = np.meshgrid(*(np.arange(v) for v in [n] + out + [c]), indexing="ij", sparse=True)
    position = [grids[0]] + [grids[1 + i] * s[i] + offsets[i] for i in range(nk)] + [grids[-1]]
    return np.ravel_multi_index(position, xp.shape), xp.shape


def max_pool_grad(x, g, k, s, pads):
    """Each window's gradient to its (first) largest input."""
    flat, padded_shape = max_pool_argmax(x, k, s, pads)
    total = np.bincount(flat.reshape(-1), weights=g.reshape(-1),
                        minlength=math.prod(padded_shape))
    return np.ascontiguousarray(total.reshape(padded_shape)[_inner(x.shape, pads)]
                                .astype(g.dtype))


def avg_pool_grad(shape, g, k, s, pads):
    """Each window's gradient shared by the inputs it averaged (padding not counted)."""
    share = g / _counts(shape[1:-1], k, s, pads, g.dtype)[None, ..., None]
    out = g.shape[1:-1]
    padded = np.zeros((shape[0],) + tuple(n + a + b for n, (a, b) in zip(shape[1:-1], pads)) +
                      (shape[-1],), dtype=g.dtype)
    for offset in itertools.product(*map(range, k)):
        padded[_offset_slices(offset, (1,) * len(k), s, out)] += share
    return np.ascontiguousarray(padded[_inner(shape, pads)].astype(g.dtype))
