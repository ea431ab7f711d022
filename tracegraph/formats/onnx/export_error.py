"""The one error ONNX export raises, `ONNXExportError`: every problem names the op (its name and
TensorFlow type) and the user line that created it."""

from __future__ import annotations

__all__ = ["ONNXExportError", "op_problem", "lowering_failure"]

NO_LOWERING_ADVICE = ("Export a function without these ops, or add the op type's row to the "
                      "ONNX lowering table (tracegraph/formats/onnx/lowering_table.py).")
LOWERING_ADVICE = ("The op's ONNX lowering does not cover this use of it: compute the value "
                   "another way on that line, or extend the lowering "
                   "(tracegraph/formats/onnx/*_lowerings.py).")


class ONNXExportError(ValueError):
    """The function cannot be exported to ONNX; `problems` lists every reason, one line each,
    naming the op and the user line that created it. A ValueError, as TensorFlow's export
    errors are."""

    def __init__(self, problems: list[str], advice: str = NO_LOWERING_ADVICE):
        self.problems = list(problems)
        self.advice = advice
        super().__init__("The function cannot be exported to ONNX:\n  "
                         + "\n  ".join(self.problems) + ("\n" + advice if advice else ""))

    def __reduce__(self):
        return type(self), (self.problems, self.advice)


def op_problem(op, problem: str) -> str:
    """`name (Type): problem (created at file.py:12)`."""
    where = f" (created at {op.source})" if getattr(op, "source", None) else ""
    return f"{op.name} ({op.type}): {problem}{where}"


def lowering_failure(op, problem: str) -> ONNXExportError:
    """The error of a lowering that cannot express this use of `op`."""
    return ONNXExportError([op_problem(op, problem)], LOWERING_ADVICE)
