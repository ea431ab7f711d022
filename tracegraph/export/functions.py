"""Concrete functions as JSON, and the callables a loaded model offers.

A saved concrete function is its graph (an index in the graph table) plus what calling needs:
the Python parameters (names, kinds, Python defaults), the canonical arguments it was traced
with (tensor specs and Python values), which graph input each argument leaf feeds, and the
structure of its outputs. `RestoredFunction` dispatches a call among the concrete functions of
one saved `tf.function`, like the original's trace cache, without ever tracing.
"""

from __future__ import annotations

import inspect

from ..execute.compile import EXECUTORS  # what a saved function may ask to run on
from ..framework.eager import EAGER
from ..framework.tensor import EagerTensor
from ..framework.variables import Variable
from ..graph.tensor import SymbolicTensor
from ..nest import flatten, is_nested
from ..ops.registry import current_context
from ..shapes import TensorSpec, shapes_compatible
from ..trace import function as function_module
from ..trace.concrete import ConcreteFunction
from ..trace.keys import VariableSpec, canonicalize, leaf_spec
from ..trace.signatures import input_signature_canonical
from .graph_codec import safe_name
from .values import MAX_DEPTH, Decoder, Encoder, UnsaveableError

try:  # gradients through loaded functions, once GradientTape exists (issue 9)
    from ..framework.tape import active_tapes
except ImportError:  # pragma: no cover - before automatic differentiation lands
    active_tapes = None


__all__ = ["encode_concrete", "decode_concrete", "RestoredFunction", "SignatureFunction",
           "signature_outputs"]

_KINDS = {k.name: k for k in (inspect.Parameter.POSITIONAL_ONLY,
                              inspect.Parameter.POSITIONAL_OR_KEYWORD,
                              inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.KEYWORD_ONLY,
                              inspect.Parameter.VAR_KEYWORD)}


# ---- encoding ----------------------------------------------------------------------------------

def _structure(enc: Encoder, value, outputs: dict, depth=0):
    """A structure whose leaves may be graph outputs ({"output": i})."""
    if isinstance(value, SymbolicTensor):
        return {"output": outputs[id(value)]}
    if depth > MAX_DEPTH:
        raise UnsaveableError("structures nested too deeply cannot be saved")
    if type(value) in (list, tuple) and any(isinstance(v, SymbolicTensor) or is_nested(v)
                                            for v in value):
        return {type(value).__name__: [_structure(enc, v, outputs, depth + 1) for v in value]}
    if type(value) is dict:
        return {"dict": [[enc.value(k), _structure(enc, v, outputs, depth + 1)]
                         for k, v in value.items()]}
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return {"namedtuple": {"name": type(value).__name__,
                               "fields": list(type(value)._fields),
                               "values": [_structure(enc, v, outputs, depth + 1)
                                          for v in value]}}
    return enc.value(value)


def _parameters(enc: Encoder, signature) -> list | None:
    if signature is None:
        return None
    params = []
    for p in signature.parameters.values():
        entry = {"name": p.name, "kind": p.kind.name}
        if p.default is not inspect.Parameter.empty:
            try:
                entry["default"] = enc.value(p.default)
            except UnsaveableError:
                pass  # a default that cannot be saved must be passed explicitly
        params.append(entry)
    return params


def encode_concrete(cf: ConcreteFunction, enc: Encoder, graph_index: dict,
                    input_signature=None) -> dict:
    outputs = {id(t): i for i, t in enumerate(cf.graph.outputs)}
    try:
        canonical = [[name, enc.value(value)] for name, value in cf._canonical]
        structured = _structure(enc, cf.structured_outputs, outputs)
        paths = [[path, enc.value(spec)] for path, spec in cf._input_paths]
        sig = None if input_signature is None else enc.value(tuple(input_signature))
    except UnsaveableError as e:
        raise ValueError(f"Cannot save concrete function '{cf.name}' "
                         f"{cf.pretty_printed_signature().splitlines()[0]}: {e}. Saved "
                         "functions take tensors and Python scalars, strings or None.") from None
    return {"name": cf.name, "graph": graph_index[id(cf.graph)],
            "parameters": _parameters(enc, cf._signature), "canonical": canonical,
            "input_paths": paths, "structured_outputs": structured,
            "input_signature": sig, "executor": cf.executor}


# ---- decoding ----------------------------------------------------------------------------------

def _decode_signature(dec: Decoder, v, field: str):
    if v is None:
        return None
    params = []
    for i, p in enumerate(dec.list(v, field, 1000)):
        where = f"{field}[{i}]"
        dec.obj(p, where, ("name", "kind"), ("default",))
        name = dec.str(p["name"], f"{where}.name")
        kind = _KINDS.get(p["kind"]) if isinstance(p["kind"], str) else None
        if not name.isidentifier() or kind is None:
            dec.fail(where, "bad parameter name or kind")
        default = dec.value(p["default"], f"{where}.default") if "default" in p else \
            inspect.Parameter.empty
        try:
            params.append(inspect.Parameter(name, kind, default=default))
        except (ValueError, TypeError) as e:
            dec.fail(where, str(e))
    try:
        return inspect.Signature(params)
    except (ValueError, TypeError) as e:
        dec.fail(field, f"not a valid parameter list: {e}")


def decode_concrete(dec: Decoder, v, field: str,
                    graphs: list) -> tuple[ConcreteFunction, tuple | None]:
    dec.obj(v, field, ("name", "graph", "parameters", "canonical", "input_paths",
                       "structured_outputs", "input_signature", "executor"))
    executor = v["executor"]
    if executor not in EXECUTORS:
        dec.fail(f"{field}.executor", f"unknown executor {executor!r:.40}")
    forced = getattr(function_module, "FORCE_EXECUTOR", None)  # the test suite's modes
    if executor == "codegen" and forced:
        executor = forced
    name = dec.str(v["name"], f"{field}.name")
    if not safe_name(name):
        dec.fail(f"{field}.name", f"not a valid function name: {name!r:.80}")
    graph = graphs[dec.int(v["graph"], f"{field}.graph", 0, len(graphs))]
    signature = _decode_signature(dec, v["parameters"], f"{field}.parameters")
    canonical = []
    for i, pair in enumerate(dec.list(v["canonical"], f"{field}.canonical", 10_000)):
        if not isinstance(pair, list) or len(pair) != 2:
            dec.fail(f"{field}.canonical[{i}]", "expected [name, value]")
        canonical.append((dec.str(pair[0], f"{field}.canonical[{i}][0]"),
                          dec.value(pair[1], f"{field}.canonical[{i}][1]")))
    paths = []
    for i, pair in enumerate(dec.list(v["input_paths"], f"{field}.input_paths", 100_000)):
        where = f"{field}.input_paths[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            dec.fail(where, "expected [path, spec]")
        spec = dec.value(pair[1], f"{where}[1]")
        if not isinstance(spec, (TensorSpec, VariableSpec)):
            dec.fail(f"{where}[1]", "expected a tensor or variable spec")
        paths.append((dec.str(pair[0], f"{where}[0]"), spec))
    _check_inputs(dec, graph, canonical, paths, field)
    sig = v["input_signature"]
    input_signature = None
    if sig is not None:
        input_signature = dec.value(sig, f"{field}.input_signature")
        if not isinstance(input_signature, tuple) or not all(
                isinstance(s, TensorSpec) for s in flatten(list(input_signature))):
            dec.fail(f"{field}.input_signature", "expected a tuple of TensorSpecs")
    outputs = graph.outputs
    dec.extra = {"output": lambda p, where: outputs[dec.int(p, where, 0, len(outputs))]}
    try:
        structured = dec.value(v["structured_outputs"], f"{field}.structured_outputs")
    finally:
        dec.extra = {}
    leaves = [x for x in flatten(structured) if isinstance(x, SymbolicTensor)]
    if len(leaves) != len(outputs) or any(a is not b for a, b in zip(leaves, outputs)):
        dec.fail(f"{field}.structured_outputs", "must name each graph output once, in order")
    graph.structured_outputs = structured
    graph.structured_input_signature = canonical
    cf = ConcreteFunction(graph, name, canonical, signature, paths, structured, executor)
    return cf, input_signature


def _check_inputs(dec: Decoder, graph, canonical, paths, field: str) -> None:
    if len(paths) != len(graph.inputs):
        dec.fail(f"{field}.input_paths", f"{len(paths)} paths for {len(graph.inputs)} inputs")
    try:
        leaves = spec_leaves(canonical)
    except Exception as e:  # a hostile canonical structure
        dec.fail(f"{field}.canonical", f"bad structure ({e})")
    for i, ((path, spec), t) in enumerate(zip(paths, graph.inputs)):
        where = f"{field}.input_paths[{i}]"
        leaf = leaves.get(path)
        same = type(leaf) is type(spec) and leaf.dtype is spec.dtype and (
            leaf.shape._dims == spec.shape._dims if isinstance(spec, TensorSpec)
            else leaf.shape == spec.shape)
        if not same:
            dec.fail(where, f"path {path!r:.80} is not a tensor argument of the function")
        if isinstance(spec, VariableSpec):
            ok = t.dtype.name == "resource"
        else:
            ok = t.dtype is spec.dtype and t.tensor_type.shape == spec.shape._dims
        if not ok:
            dec.fail(where, "spec does not match the graph input")


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
        if not eager and active_tapes is not None and active_tapes():
            from ..trace.taped_call import call_recorded
            # one tape entry, as for tf.function
            return call_recorded(cf, values, value_canonical, function_module.Function)
        if not kwargs and eager and all(type(a) is EagerTensor for a in args):
            self._remember_fast(args, cf)
        return cf._call_values(values)

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
        from ..trace.concrete import _check_value
        values = [_check_value(self.name, k, spec, kwargs[k]) for k, spec in self.input_keys]
        out = self.concrete._call_values(values)
        leaves = flatten(out)
        return {k: leaves[i] for k, i in self.output_keys}

    def __repr__(self):
        return f"<SignatureFunction {self.name}({', '.join(k for k, _ in self.input_keys)})>"
