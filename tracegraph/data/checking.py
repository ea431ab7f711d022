"""Transformations that check rather than change: `ignore_errors` (drops elements whose
computation failed) and `assert_cardinality`."""

from __future__ import annotations

from ..errors import FailedPreconditionError
from .dataset import DatasetV2, as_int64
from .records import defdataset
from .runtime import INFINITE, UNKNOWN, Node

__all__ = ["_IgnoreErrorsDataset", "_AssertCardinalityDataset"]


# ---- ignore_errors ------------------------------------------------------------------------------

class IgnoreErrorsNode(Node):
    """Drops elements whose computation failed (its input stages skip them: map, filter and
    generators check `ctx.ignore_errors`)."""

    def __init__(self, input_dataset, element_spec, log_warning=False):
        super().__init__(element_spec, [input_dataset])
        self.input, self.log_warning = input_dataset, log_warning
        self.cardinality = UNKNOWN

    def describe(self):
        return "IgnoreErrorsDataset"

    def elements(self, ctx):
        yield from self.input.rows(ctx.child(ignore_errors=True))


ignore_errors_dataset_op = defdataset("ignore_errors_dataset", "IgnoreErrorsDataset",
                                      inputs=("input_dataset: variant",),
                                      attrs={"log_warning": False}, node=IgnoreErrorsNode)


class _IgnoreErrorsDataset(DatasetV2):
    def __init__(self, input_dataset, log_warning=False, name=None):
        super().__init__(ignore_errors_dataset_op, (input_dataset._variant,),
                         {"log_warning": bool(log_warning)}, input_dataset.element_spec,
                         [input_dataset], name)


# ---- assert_cardinality -----------------------------------------------------------------------

class AssertCardinalityNode(Node):
    def __init__(self, input_dataset, cardinality, element_spec):
        super().__init__(element_spec, [input_dataset])
        self.input, self.expected = input_dataset, int(cardinality)
        self.cardinality = self.expected

    def describe(self):
        return f"AssertCardinalityDataset({self.expected})"

    def elements(self, ctx):
        count = 0
        for element in self.input.rows(ctx):
            count += 1
            if self.expected != INFINITE and count > self.expected:
                raise FailedPreconditionError(
                    f"Input dataset was expected to contain {_elements(self.expected)} but "
                    f"contained at least {_elements(count)}.")
            yield element
        if count != self.expected:
            expected = "an infinite number of elements" if self.expected == INFINITE else \
                _elements(self.expected)
            raise FailedPreconditionError(f"Input dataset was expected to contain {expected} "
                                          f"but contained only {_elements(count)}.")


def _elements(n: int) -> str:
    return f"{n} element" if n == 1 else f"{n} elements"


assert_cardinality_dataset_op = defdataset(
    "assert_cardinality_dataset", "AssertCardinalityDataset",
    inputs=("input_dataset: variant", "cardinality: int64"), node=AssertCardinalityNode)


class _AssertCardinalityDataset(DatasetV2):
    def __init__(self, input_dataset, expected_cardinality):
        super().__init__(assert_cardinality_dataset_op,
                         (input_dataset._variant, as_int64(expected_cardinality, "cardinality")),
                         {}, input_dataset.element_spec, [input_dataset])
