"""`tf.VariableAggregation` and `tf.VariableSynchronization`: how a distribution strategy
combines a Variable's updates from several replicas and when its copies are kept in step.
With one replica (tracegraph's default strategy) they change nothing, but a Variable stores and
reports them, and constructors check them, as TensorFlow's do."""

from __future__ import annotations

import enum

__all__ = ["VariableAggregation", "VariableSynchronization", "validate_aggregation",
           "validate_synchronization"]


class VariableAggregationV2(enum.Enum):
    """How updates from several replicas combine (TF exports this class as
    `tf.VariableAggregation`)."""

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3

    def __hash__(self):
        return hash(self.value)

    def __eq__(self, other):
        return self is other or (isinstance(other, VariableAggregationV2)
                                 and self.value == other.value)


VariableAggregation = VariableAggregationV2


class VariableSynchronization(enum.Enum):
    """When a distributed Variable's copies are brought in step."""

    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


def validate_synchronization(synchronization, name):
    if synchronization is None:
        return VariableSynchronization.AUTO
    if not isinstance(synchronization, VariableSynchronization):
        raise ValueError(f"Invalid variable synchronization mode: {synchronization} for "
                         f"variable: {name}")
    return synchronization


def validate_aggregation(aggregation, name):
    if aggregation is None:
        return VariableAggregation.NONE
    if not isinstance(aggregation, VariableAggregation):
        raise ValueError(f"Invalid variable aggregation mode: {aggregation} for variable: "
                         f"{name}")
    return aggregation
