"""Data-format geometry shared by the nn records and their gradients' backprop records: which
entries of a per-dimension vector are spatial (1-D to 3-D: NWC, NHWC, NDHWC and their NC...
forms), padding amounts, output sizes, groups, the bias axis."""

from __future__ import annotations

__all__ = ["channels_first", "spatial", "padding_amounts", "out_size", "explicit_pairs",
           "check_groups", "bias_axis"]


def bias_axis(rank: int, data_format: str) -> int:
    return 1 if data_format.startswith("NC") and rank > 2 else rank - 1


def channels_first(data_format: str) -> bool:
    return data_format.startswith("NC")


def spatial(values, data_format):
    """The spatial entries of a per-dimension vector given in the data format's order ((h, w)
    of a 4-vector)."""
    values = tuple(values)
    return values[2:] if channels_first(data_format) else values[1:-1]


def padding_amounts(size, k, stride, dilation, padding, explicit):
    eff = (k - 1) * dilation + 1
    if padding == "VALID":
        return 0, 0
    if padding == "EXPLICIT":
        return explicit
    out = -(-size // stride)
    total = max((out - 1) * stride + eff - size, 0)
    return total // 2, total - total // 2


def out_size(size, k, stride, dilation, pads):
    if size is None:
        return None
    eff = (k - 1) * dilation + 1
    n = size + pads[0] + pads[1] - eff
    if n < 0:
        raise ValueError(f"Computed output size would be negative: {n // stride + 1} [input_size:"
                         f" {size}, effective_filter_size: {eff}, stride: {stride}]")
    return n // stride + 1


def explicit_pairs(explicit_paddings, data_format):
    """(before, after) per spatial dim of TensorFlow's flat `explicit_paddings` (two per dim)."""
    if not explicit_paddings:
        return ((0, 0),) * (len(data_format) - 2)
    p = [int(v) for v in explicit_paddings]
    pairs = [(p[i], p[i + 1]) for i in range(0, len(p), 2)]
    return spatial(pairs, data_format)


def check_groups(c, cin, cout) -> int | None:
    """Grouped convolution: the input depth is a multiple of the filter depth, and the number of
    groups divides the output depth. Returns the number of groups (None: unknown)."""
    if c is None or cin is None:
        return None
    if cin == 0 or c % cin:
        raise ValueError(f"input depth must be evenly divisible by filter depth: {c} vs {cin}")
    groups = c // cin
    if cout is not None and cout % groups:
        raise ValueError(f"output depth must be evenly divisible by number of groups: {cout} vs "
                         f"{groups}")
    return groups
