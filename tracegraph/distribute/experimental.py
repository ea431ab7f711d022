"""`tf.distribute.experimental`: the value context of
`Strategy.experimental_distribute_values_from_function`."""

from .one_machine import ValueContext

__all__ = ["ValueContext"]
