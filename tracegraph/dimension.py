"""`tf.compat.v1.Dimension`: TF1's type for one dimension of a shape (a plain value, layer 1;
TF2's shapes hold ints, and `TensorShape` accepts these too)."""

from __future__ import annotations

__all__ = ["Dimension"]


class Dimension:
    """`tf.compat.v1.Dimension`: one dimension, known (`value` an int >= 0) or not (None).
    TF2's shapes hold plain ints; this is TF1's type, which some code still checks for.
    Arithmetic with an unknown dimension is unknown, and so is `==` (None)."""

    __slots__ = ("_value",)

    def __init__(self, value):
        if isinstance(value, Dimension):
            value = value.value
        if value is not None:
            if isinstance(value, (bool, float, str, bytes)) or not hasattr(value, "__index__"):
                raise TypeError(f"Dimension value must be integer or None or have an __index__ "
                                f"method, got value '{value!r}' with type '{type(value)}'")
            value = value.__index__()
            if value < 0:
                raise ValueError(f"Dimension {value} must be >= 0")
        self._value = value

    @property
    def value(self):
        return self._value

    def __repr__(self):
        return f"Dimension({self._value})"

    def __str__(self):
        return "?" if self._value is None else str(self._value)

    def __int__(self):
        return self._value

    def __index__(self):
        return self._value

    __hash__ = None

    def _other(self, other):
        return other if isinstance(other, Dimension) else Dimension(other)

    def __eq__(self, other):
        try:
            other = self._other(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other._value is None:
            return None
        return self._value == other._value

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is None or eq is NotImplemented else not eq

    def __lt__(self, other):
        other = self._other(other)
        return None if None in (self._value, other._value) else self._value < other._value

    def _arith(self, other, fn):
        other = self._other(other)
        if self._value is None or other._value is None:
            return Dimension(None)
        return Dimension(fn(self._value, other._value))

    def __add__(self, other):
        return self._arith(other, lambda a, b: a + b)

    __radd__ = __add__

    def __sub__(self, other):
        return self._arith(other, lambda a, b: a - b)

    def __mul__(self, other):
        return self._arith(other, lambda a, b: a * b)

    __rmul__ = __mul__

    def __floordiv__(self, other):
        return self._arith(other, lambda a, b: a // b)

    def __mod__(self, other):
        return self._arith(other, lambda a, b: a % b)

    def is_compatible_with(self, other) -> bool:
        other = self._other(other)
        return self._value is None or other._value is None or self._value == other._value

    def merge_with(self, other) -> Dimension:
        other = self._other(other)
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {other} are not compatible")
        return Dimension(self._value if self._value is not None else other._value)
