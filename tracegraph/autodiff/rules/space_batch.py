"""Gradient rules of SpaceToBatchND and BatchToSpaceND, SpaceToDepth and DepthToSpace: each
is the other's adjoint."""

from __future__ import annotations

from ...ops.space_batch import (
    batch_to_space_nd_op,
    depth_to_space_op,
    space_to_batch_nd_op,
    space_to_depth_op,
)
from ..registry import defgrad


@defgrad("SpaceToBatchND")
def _space_to_batch_grad(op, g):             # the blocks back to space, padding cropped
    _, block, paddings = op.inputs
    return batch_to_space_nd_op(g, block, paddings), None, None


@defgrad("BatchToSpaceND")
def _batch_to_space_grad(op, g):             # space back to blocks, the crops padded
    _, block, crops = op.inputs
    return space_to_batch_nd_op(g, block, crops), None, None


@defgrad("SpaceToDepth")
def _space_to_depth_grad(op, g):             # the channels back to blocks of the image
    attrs = {k: op.attrs[k] for k in ("block_size", "data_format")}
    return depth_to_space_op(g, **attrs)


@defgrad("DepthToSpace")
def _depth_to_space_grad(op, g):             # the blocks back to channels
    attrs = {k: op.attrs[k] for k in ("block_size", "data_format")}
    return space_to_depth_op(g, **attrs)
