"""Shape optimization: computations on shapes that static shapes already answer, as a table of
rules (rewrite_rules.py), every one bit for bit:

    reshape(x, s) -> x                  when s is x's fully known static shape
    shape(x)[i] -> d_i                  when dim i of x is statically known (others may not be)
    prod(shape(x)) -> size(x)

The ops a replacement makes wait for the matched op's control inputs.
"""

from __future__ import annotations

import numpy as np

from .builder import constant_value
from .passes import graph_pass
from .rewrite_rules import DTypeOf, New, Op, Rule, Rules, Var, X, rewrite


def reshapes_to_own_shape(match) -> bool:
    """The target shape is x's static shape, every dim known (and no control edge to move)."""
    x, target = match.bindings["x"], constant_value(match.bindings["shape"])
    if target is None or x.known_shape is None or match.ops[0].control_inputs:
        return False
    return [int(v) for v in np.asarray(target).reshape(-1)] == list(x.known_shape)


def _dim_index(match) -> int | None:
    """The dim a `shape(x)[i]` slice takes, when it takes one statically known dim."""
    attrs = match.ops[0].attrs
    if attrs.get("shrink_axis_mask") != 1 or any(attrs.get(k) for k in ("ellipsis_mask",
                                                                         "new_axis_mask")):
        return None
    begin, dims = constant_value(match.bindings["begin"]), match.bindings["x"].dims
    if begin is None or dims is None:
        return None
    i = int(np.asarray(begin).reshape(-1)[0])
    if not -len(dims) <= i < len(dims) or dims[i] is None:
        return None
    return i


def static_dim_known(match) -> bool:
    return _dim_index(match) is not None


def _static_dim(builder, match, name, source, controls):
    dim = match.bindings["x"].dims[_dim_index(match)]
    return builder.constant(np.asarray(dim, dtype=match.bindings["shape"].dtype.numpy_dtype),
                            name, source, controls)


def product_of_all_dims(match) -> bool:
    """prod over axis 0 of a shape vector, not keeping dims: the number of elements."""
    axes = constant_value(match.bindings["axes"])
    return not match.ops[0].attrs.get("keep_dims") and axes is not None and \
        [int(a) for a in np.asarray(axes).reshape(-1)] in ([0], [-1])


SHAPE = Rules(
    Rule("reshape_to_own_shape", Op("Reshape", X, Var("shape")), X,            # R(x, s) = x
         guard=reshapes_to_own_shape),                                           # if s = shape(x)
    Rule("static_dim",                                                           # shape(x)[i] =
         Op("StridedSlice", Op("Shape", X, bind="shape"), Var("begin"), Var("end"),  # d_i
            Var("strides")),
         _static_dim, guard=static_dim_known),
    Rule("prod_of_shape_to_size",                                                # prod(shape(x))
         Op("Prod", Op("Shape", X), Var("axes"), bind="prod"),                   # = size(x)
         New("Size", X, out_type=DTypeOf("prod")), guard=product_of_all_dims),
)


@graph_pass("shape_optimization")
def shape_optimization(graph, ctx):
    return rewrite(graph, ctx, SHAPE, replacements_wait=True)
