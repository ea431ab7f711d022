"""Op records of datasets: `defdataset` makes one per source or transformation.

Every dataset op outputs a `variant` scalar whose value is a runtime node (`runtime.Node`);
its kernel is the node's constructor, called with the op's inputs and attrs (`element_spec`,
the output's element spec, among them). The records carry `opaque_output` (a node is never
computed at trace time or folded into a constant). Transformations whose behaviour is random
(shuffle) or calls Python (from_generator) are stateful, so graphs never merge or hoist them.
"""

from __future__ import annotations

from .. import dtypes as d
from ..ops.registry import ALL_TYPES, REQUIRED, TypeAttr, defop
from ..shapes import TensorType

__all__ = ["defdataset", "VARIANT", "ANY_COMPONENT"]

VARIANT = TensorType(d.variant, ())
# The dtypes a component list (`components: list(Toutput_types)`) may hold.
ANY_COMPONENT = TypeAttr(ALL_TYPES | {d.variant})


def _infer_dataset(*inputs, **attrs):
    return VARIANT


def defdataset(name: str, tf_type: str, *, inputs=(), attrs=None, node, stateful=False,
               flags=(), doc=None):
    """Registers the op record of a dataset whose runtime value is a `node(...)`."""
    all_attrs = {"element_spec": REQUIRED}
    all_attrs.update(attrs or {})

    def kernel(*args, **kwargs):
        return node(*args, **kwargs)

    kernel.__name__ = f"kernel_{name}"
    return defop(name, tf_type, inputs=inputs, attrs=all_attrs, infer=_infer_dataset,
                 kernel=kernel, stateful=stateful, flags={"opaque_output", *flags},
                 doc=doc or node.__doc__)
