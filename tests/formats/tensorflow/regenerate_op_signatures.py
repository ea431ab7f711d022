"""Prints the tables of tracegraph/formats/tensorflow/op_signatures.py from TensorFlow's op
registry:

    PYTHONPATH=. /path/to/tf-python tests/formats/tensorflow/regenerate_op_signatures.py
"""

from tensorflow.python.framework import dtypes, op_def_registry

import tracegraph  # noqa: F401  (registers every op)
from tracegraph.ops.registry import all_ops


def regenerate() -> str:
    rows, allowed = [], []
    for tf_type in sorted({op.tf_type for op in all_ops()}):
        op_def = op_def_registry.get(tf_type)
        if op_def is None:
            continue
        outputs = tuple((a.name, a.number_attr or a.type_list_attr) for a in op_def.output_arg)
        attrs = tuple(sorted(a.name for a in op_def.attr))
        required = tuple(sorted(a.name for a in op_def.attr if not a.HasField("default_value")))
        rows.append(f"    {tf_type!r}: ({outputs!r}, {attrs!r}, {required!r}),")
        types = {a.name: " ".join(sorted(dtypes.as_dtype(x).name
                                         for x in a.allowed_values.list.type))
                 for a in op_def.attr if a.type in ("type", "list(type)")
                 and a.HasField("allowed_values")}
        if types:
            allowed.append(f"    {tf_type!r}: {types!r},")
    return "OP_SIGNATURES = {\n" + "\n".join(rows) + "\n}\n\nALLOWED_TYPES = {\n" + \
        "\n".join(allowed) + "\n}"


if __name__ == "__main__":
    print(regenerate())
