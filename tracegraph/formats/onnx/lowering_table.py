"""The ONNX format's per-op table: how each op type lowers to ONNX, keyed by the op's TensorFlow
type (as gradients are), so op records never know the format.

Two kinds of rows:
- `ONNX_OPS`: op types that are exactly one ONNX op on the same inputs, with no attributes. The
  exporter emits the node and, when ONNX's schema does not take an input's dtype, computes in
  float between Casts (`onnx_types.one_to_one`).
- functions registered with `@onnx_lowering("FloorDiv", ...)`: `lower(ctx, *input_names) ->
  output name(s)`, emitting nodes through the `LoweringContext` (`lowering_context.py`). They
  live in one module per op family (`*_lowerings.py`), all imported by this package's
  `__init__`, so the table is complete whenever anything under `formats.onnx` is imported.

An op type in neither is reported by the exporter, before anything is built, with the user line
that created the op.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ONNX_OPS", "onnx_lowering", "lowering_of", "lowered_types", "ONNX_CAST",
           "ONNX_IDENTITY"]

# ONNX op names the exporter itself emits (between lowerings, around sub-graphs)
ONNX_CAST, ONNX_IDENTITY = "Cast", "Identity"

ONNX_OPS = {
    # elementwise, one input
    "Abs": "Abs", "Neg": "Neg", "Sign": "Sign", "Sqrt": "Sqrt", "Exp": "Exp", "Log": "Log",
    "Sin": "Sin", "Cos": "Cos", "Tan": "Tan", "Asin": "Asin", "Acos": "Acos", "Atan": "Atan",
    "Sinh": "Sinh", "Cosh": "Cosh", "Tanh": "Tanh", "Asinh": "Asinh", "Acosh": "Acosh",
    "Atanh": "Atanh", "Floor": "Floor", "Ceil": "Ceil", "Erf": "Erf",
    "Rint": "Round",                                # both round half to even
    "IsNan": "IsNaN", "IsInf": "IsInf", "LogicalNot": "Not",
    # activations
    "Relu": "Relu", "Elu": "Elu", "Selu": "Selu", "Sigmoid": "Sigmoid", "Softplus": "Softplus",
    "Softsign": "Softsign", "Softmax": "Softmax", "LogSoftmax": "LogSoftmax",
    # elementwise, two inputs (ONNX broadcasts as NumPy does)
    "AddV2": "Add", "Sub": "Sub", "Mul": "Mul", "RealDiv": "Div", "Pow": "Pow",
    "Maximum": "Max", "Minimum": "Min", "Equal": "Equal", "Less": "Less",
    "LessEqual": "LessOrEqual", "Greater": "Greater", "GreaterEqual": "GreaterOrEqual",
    "LogicalAnd": "And", "LogicalOr": "Or",
    "SelectV2": "Where",                            # where(cond, x, y)
    "AddN": "Sum",                                  # variadic sum
    # values passed through: a variable's read is the initializer holding its value
    "Identity": "Identity", "StopGradient": "Identity", "EnsureShape": "Identity",
    "ReadVariableOp": "Identity",
    # others
    "MatrixDeterminant": "Det", "Range": "Range",
}

_LOWERINGS: dict[str, Callable] = {}


def onnx_lowering(*tf_types: str):
    """Registers `lower(ctx, *input_names)` as the ONNX lowering of each op type named."""
    def register(lower: Callable) -> Callable:
        for tf_type in tf_types:
            if tf_type in _LOWERINGS or tf_type in ONNX_OPS:
                raise KeyError(f"{tf_type} already has an ONNX lowering")
            _LOWERINGS[tf_type] = lower
        return lower
    return register


def lowering_of(op_def):
    """The lowering of an op: an ONNX op name (an `ONNX_OPS` row), a function, or None."""
    return ONNX_OPS.get(op_def.tf_type) or _LOWERINGS.get(op_def.tf_type)


def lowered_types() -> set[str]:
    """Every op type with a row in the table."""
    return set(ONNX_OPS) | set(_LOWERINGS)
