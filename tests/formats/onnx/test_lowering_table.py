"""The ONNX format's per-op table: rows keyed by registered op types, one row per type, and every
op record that lowers has its row (op records never name a format)."""

import pytest

import tracegraph  # noqa: F401  (registers every op)
from tracegraph.formats.onnx.lowering_table import (
    ONNX_OPS,
    lowered_types,
    lowering_of,
    onnx_lowering,
)
from tracegraph.ops.registry import all_ops


def test_every_row_names_a_registered_op_type():
    registered = {op.tf_type for op in all_ops()}
    assert sorted(lowered_types() - registered) == []


def test_one_to_one_rows_and_functions_do_not_overlap():
    functions = {t for t in lowered_types() if not isinstance(lowering_of(_Op(t)), str)}
    assert not functions & set(ONNX_OPS)
    assert all(callable(lowering_of(_Op(t))) for t in functions)


def test_a_second_lowering_for_an_op_type_is_refused():
    with pytest.raises(KeyError, match="MatMul already has an ONNX lowering"):
        onnx_lowering("MatMul")(lambda ctx, a, b: None)
    with pytest.raises(KeyError, match="AddV2 already has an ONNX lowering"):
        onnx_lowering("AddV2")(lambda ctx, x, y: None)


def test_op_records_carry_no_format_fields():
    for op in all_ops():
        assert not hasattr(op, "onnx"), op.name


class _Op:
    def __init__(self, tf_type):
        self.tf_type = tf_type
