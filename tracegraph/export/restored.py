"""What a loaded model offers to call: `RestoredFunction` (a loaded `tf.function`, which
dispatches among its saved concrete functions without ever tracing) and `SignatureFunction` (a
serving signature: keyword tensors in, a dict out)."""

from __future__ import annotations

from ..framework.eager import EAGER
from ..framework.tensor import EagerTensor
from ..framework.variables import Variable
from ..nest import flatten
from ..ops.registry import current_context
from ..shapes import TensorSpec, shapes_compatible
from ..trace.concrete import ConcreteFunction
from ..trace.keys import VariableSpec, canonicalize, leaf_spec
from ..trace.signatures import input_signature_canonical

__all__ = ["RestoredFunction", "SignatureFunction", "signature_outputs", "spec_leaves"]


# ---- matching calls against saved signatures -----------------------------------------------
# A saved signature's leaves are TensorSpecs, VariableSpecs and Python values; a call matches
# when its structure is the same, every Python value equal (same type), every tensor of the
# same dtype and a compatible shape, and every Variable likewise.

def _children(value):
    if isinstance(value, dict):
        return [(f"[{k!r}]", value[k]) for k in sorted(value, key=repr)]
    return [(f"[{i}]", v) for i, v in enumerate(value)]


def spec_leaves(canonical) -> dict:
    """path -> leaf of a saved signature (specs are leaves, unlike nest's dataclasses)."""
    out = {}
    stack = [(name, value) for name, value in reversed(canonical)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, (list, tuple, dict)):
            stack.extend((path + k, v) for k, v in reversed(_children(value)))
        else:
            out[path] = value
    return out


def _leaf_accepts(want, got) -> bool:
    if isinstance(want, VariableSpec):
        return isinstance(got, Variable) and got.dtype is want.dtype and \
            shapes_compatible(want.shape, got.handle.shape)
    if isinstance(want, TensorSpec):
        spec = leaf_spec(got) if not isinstance(got, Variable) else None
        return isinstance(spec, TensorSpec) and spec.dtype is want.dtype and \
            shapes_compatible(want.shape._dims, spec.shape._dims)
    if isinstance(got, (Variable, TensorSpec)) or leaf_spec(got) is not None:
        return False
    if type(want) is not type(got):
        return False
    if type(want) is float:
        return want.hex() == got.hex()
    try:
        return bool(want == got)
    except Exception:  # an object whose == does not give a bool
        return False


def _accepts(saved, call) -> bool:
    if len(saved) != len(call):
        return False
    stack = [(w, g) for (wn, w), (gn, g) in zip(saved, call) if wn == gn]
    if len(stack) != len(saved):
        return False
    while stack:
        want, got = stack.pop()
        if isinstance(want, (list, tuple, dict)):
            if type(want) is not type(got) or len(want) != len(got):
                return False
            if isinstance(want, dict) and set(want) != set(got):
                return False
            stack.extend((w, g) for (_, w), (_, g) in zip(_children(want), _children(got)))
        elif not _leaf_accepts(want, got):
            return False
    return True


def _known_dims(canonical) -> int:
    """How specific a signature is: with several matches, the most specific wins."""
    n = 0
    for leaf in spec_leaves(canonical).values():
        dims = leaf.shape._dims if isinstance(leaf, TensorSpec) else \
            leaf.shape if isinstance(leaf, VariableSpec) else None
        if dims is not None:
            n += 1 + sum(1 for s in dims if s is not None)
    return n


# ---- the callables of a loaded model -----------------------------------------------------------

def _describe_call(args, kwargs) -> str:
    lines = [f"  Positional arguments ({len(args)} total):"]
    lines += [f"    * {a!r}" for a in args]
    lines.append(f"  Keyword arguments: {kwargs!r}")
    return "\n".join(lines)


class RestoredFunction:
    """A loaded `tf.function`: calls dispatch among its saved concrete functions."""

    def __init__(self, name: str, concrete: list, input_signature=None):
        self._name = name
        self.concrete_functions = [cf for cf in concrete]
        self._signatures = [(_known_dims(cf._canonical), cf) for cf in concrete]
        self.input_signature = input_signature
        # (dtype, shape) of each positional eager tensor -> the concrete function a call with
        # them dispatched to: later such calls skip binding and matching (like tf.function's
        # own fast path)
        self._fast: dict = {}

    def _remember_fast(self, args, cf) -> None:
        if len(args) != len(cf._input_paths) or len(self._fast) >= 512:
            return
        params = list(cf._signature.parameters) if cf._signature is not None else []
        if [p for p, _ in cf._input_paths] != params[:len(args)]:
            return
        self._fast[tuple((a._value.dtype, a._value.shape) for a in args)] = cf

    @property
    def name(self) -> str:
        return self._name

    def __call__(self, *args, **kwargs):
        eager = current_context() is EAGER
        if not kwargs and eager:
            key = []
            for a in args:
                if type(a) is not EagerTensor:
                    break
                key.append((a._value.dtype, a._value.shape))
            else:
                cf = self._fast.get(tuple(key))
                if cf is not None:
                    return cf._call_values([a._value for a in args])
        cf, value_canonical = self._match(args, kwargs)
        ctx = current_context()
        if not ctx.executing_eagerly:
            return cf.call_in_graph(value_canonical)
        values = cf.flat_input_values(value_canonical)
        if not kwargs and eager and all(type(a) is EagerTensor for a in args):
            self._remember_fast(args, cf)
        return cf.call_eagerly(values, value_canonical)   # a tape records it, as tf.function

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        if not args and not kwargs and self.input_signature is not None:
            args = self.input_signature
        return self._match(args, kwargs)[0]

    def _match(self, args, kwargs):
        errors = []
        for _, cf in sorted(self._signatures, key=lambda p: -p[0]):
            try:
                canonical = canonicalize(cf._signature, args, kwargs)
                if self.input_signature is not None:
                    key_canonical, values = input_signature_canonical(
                        self._name, canonical, self.input_signature)
                else:
                    key_canonical, values = canonical, canonical
            except (TypeError, ValueError) as e:
                errors.append(str(e))
                continue
            if _accepts(cf._canonical, key_canonical):
                return cf, values
        options = "\n\n".join(
            f"Option {i + 1}:\n{cf.pretty_printed_signature()}"
            for i, (_, cf) in enumerate(self._signatures))
        raise ValueError(
            f"Could not find matching concrete function to call loaded from the SavedModel "
            f"(function '{self._name}'). Got:\n{_describe_call(args, kwargs)}\n\n Expected "
            f"these arguments to match one of the following {len(self._signatures)} "
            f"option(s):\n\n{options}")

    def __repr__(self):
        return f"<RestoredFunction {self._name} with {len(self._signatures)} concrete " \
               "function(s)>"


def signature_outputs(structured) -> list[tuple[str, int]]:
    """(output key, flat output position) of a signature's outputs: a dict's keys, or
    `output_0`, `output_1`, ... for a tensor, list or tuple (TensorFlow's names)."""
    leaves = flatten(structured)
    if isinstance(structured, dict):
        keys = sorted(structured)
        if not all(isinstance(k, str) for k in keys):
            raise ValueError("A signature's output dict must have string keys.")
        return [(k, i) for i, k in enumerate(keys)]
    return [(f"output_{i}", i) for i in range(len(leaves))]


class SignatureFunction:
    """A serving signature: keyword tensors in, a dict of tensors out."""

    def __init__(self, name: str, concrete: ConcreteFunction, input_keys: list,
                 output_keys: list):
        self.name = name
        self.concrete = concrete
        self.input_keys = input_keys        # [(keyword, TensorSpec)] in graph input order
        self.output_keys = output_keys      # [(key, flat output position)]

    @property
    def structured_input_signature(self):
        return (), {k: s for k, s in self.input_keys}

    @property
    def structured_outputs(self):
        leaves = flatten(self.concrete.structured_outputs)
        return {k: TensorSpec(leaves[i].shape, leaves[i].dtype, k) for k, i in self.output_keys}

    def __call__(self, *args, **kwargs):
        if args:
            names = ", ".join(k for k, _ in self.input_keys)
            raise TypeError(f"signature_wrapper(*, {names}) takes 0 positional "
                            f"arguments but {len(args)} were given. Signatures take keyword "
                            "arguments only.")
        expected = [k for k, _ in self.input_keys]
        if sorted(kwargs) != sorted(expected):
            raise TypeError(f"Signature '{self.name}' expects the keyword arguments "
                            f"{expected}, got {sorted(kwargs)}.")
        from ..trace.binding import check_value
        values = [check_value(self.name, k, spec, kwargs[k]) for k, spec in self.input_keys]
        out = self.concrete._call_values(values)
        leaves = flatten(out)
        return {k: leaves[i] for k, i in self.output_keys}

    def __repr__(self):
        return f"<SignatureFunction {self.name}({', '.join(k for k, _ in self.input_keys)})>"
