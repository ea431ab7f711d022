"""`ConcreteFunction`: one traced graph of a Function, for one input signature.

Calling it feeds the arguments' values to the compiled graph and wraps the results as eager
tensors in the traced output structure. The graph is compiled on the first call (after the
optimizer has produced its own copy); the traced graph stays as traced.
"""

from __future__ import annotations

import inspect

import numpy as np

from .. import config
from .. import dtypes as d
from ..framework.eager import wrap
from ..framework.tensor import EagerTensor, Tensor
from ..framework.variables import ResourceHandle, Variable
from ..graph.graph import FuncGraph
from ..graph.tensor import SymbolicTensor
from ..nest import flatten, pack_sequence_as
from ..shapes import TensorSpec, format_shape, shapes_compatible
from .keys import VariableSpec, canonicalize, describe_leaf

__all__ = ["ConcreteFunction", "set_runner"]

# How a ConcreteFunction gets runnable code: installed by the execute layer (it optimizes a copy
# of the graph and compiles it), so this layer never imports the layers below it.
_RUNNER = None


def set_runner(runner) -> None:
    """`runner(concrete) -> (compiled callable, graph that runs, optimizer report)`."""
    global _RUNNER
    _RUNNER = runner

_NDARRAY = np.ndarray


class ConcreteFunction:
    """A traced graph with its input signature and output structure."""

    def __init__(self, graph: FuncGraph, name: str, canonical: list, signature,
                 input_paths: list, structured_outputs, executor: str = "codegen"):
        self.graph = graph
        self.name = name
        self._canonical = canonical          # [(param, value or spec)] as traced
        self._signature = signature          # inspect.Signature of the Python function
        self._input_paths = input_paths      # [(path, spec)] for graph.inputs, in order
        self.structured_outputs = structured_outputs
        self.executor = executor
        self._compiled = None
        self._prepared_graph = None
        self._by_options: dict = {}   # optimizer options key -> (compiled, graph, report)
        self._options_version = -1
        self.optimizer_report = None
        self.last_used = 0  # the owning Function's call count at the last call (for its LRU)
        leaves = flatten(structured_outputs)
        self._out_leaves = leaves
        self._out_positions = [i for i, v in enumerate(leaves) if isinstance(v, SymbolicTensor)]
        self._single = (len(leaves) == 1 and self._out_positions == [0]
                        and isinstance(structured_outputs, SymbolicTensor))

    # --- inspection ------------------------------------------------------------------------------
    @property
    def inputs(self) -> list:
        return list(self.graph.inputs) + self.graph.capture_placeholders

    @property
    def outputs(self) -> list:
        return list(self.graph.outputs)

    @property
    def captured_inputs(self) -> list:
        return [v for v in self.graph.external_captures]

    @property
    def variables(self) -> list:
        return [v for v in self.graph.external_captures if isinstance(v, ResourceHandle)]

    @property
    def structured_input_signature(self):
        args, kwargs = [], {}
        params = self._signature.parameters if self._signature is not None else {}
        for name, value in self._canonical:
            param = params.get(name)
            if param is not None and param.kind is inspect.Parameter.KEYWORD_ONLY:
                kwargs[name] = value
            else:
                args.append(value)
        return tuple(args), kwargs

    @property
    def function_name(self) -> str:
        return self.name

    @property
    def run_graph(self):
        """The graph that actually runs (the optimizer's output; the traced graph if none)."""
        self._prepare()
        return self._prepared_graph

    @property
    def generated_code(self) -> str | None:
        """The Python source the code generator emitted for this function."""
        self._prepare()
        return getattr(self._compiled, "source", None)

    # --- calling ---------------------------------------------------------------------------------
    def _prepare(self):
        if self._compiled is None or self._options_version != config.optimizer_version:
            if _RUNNER is None:
                raise RuntimeError("no executor is installed: import tracegraph to run graphs")
            self._options_version = config.optimizer_version
            key = config.optimizer_key
            prepared = self._by_options.get(key)
            if prepared is None:
                prepared = self._by_options[key] = _RUNNER(self)
            self._compiled, self._prepared_graph, self.optimizer_report = prepared
        return self._compiled

    @property
    def optimized_graph(self):
        """The graph that runs: the optimizer's output for the current options."""
        return self.run_graph

    def reset_compiled(self) -> None:
        """Drops the compiled code (the next call optimizes and compiles again)."""
        self._compiled = None
        self._prepared_graph = None
        self._by_options.clear()

    def _call_values(self, values):
        """Runs on raw input values (arrays, handles) and returns the structured outputs."""
        compiled = self._compiled
        if compiled is None or self._options_version != config.optimizer_version:
            compiled = self._prepare()
        out = compiled(*values)
        if self._single:
            v = out[0]
            if type(v) is _NDARRAY or isinstance(v, np.generic):
                t = object.__new__(EagerTensor)
                t._value = v
                return t
            return wrap(v)
        leaves = list(self._out_leaves)
        for pos, v in zip(self._out_positions, out):
            leaves[pos] = wrap(v)
        return pack_sequence_as(self.structured_outputs, leaves)

    def __call__(self, *args, **kwargs):
        """Calls with the traced signature's arguments (Python values may be left out)."""
        try:
            canonical = canonicalize(self._signature, args, kwargs)
            values = self.flat_input_values(canonical)
        except TypeError:
            names = [p for p, _ in self._input_paths]
            if len(args) > len(names):
                raise
            bound = dict(zip(names, args))
            bound.update(kwargs)
            values = [_check_value(self.name, p, spec, bound[p]) if p in bound else
                      _missing(self.name, p, spec) for p, spec in self._input_paths]
        return self._call_values(values)

    def flat_input_values(self, canonical) -> list:
        """The raw values fed to the graph's inputs, from canonical arguments."""
        by_path = _leaves_by_path(canonical)
        return [_check_value(self.name, path, spec, by_path[path]) if path in by_path else
                _missing(self.name, path, spec) for path, spec in self._input_paths]

    def call_in_graph(self, canonical):
        """Records a call of this function in the graph being built; returns its outputs."""
        from ..ops.functional import partitioned_call_op, stateful_partitioned_call_op
        from ..ops.registry import bind, current_context
        from .control_flow import _has_stateful
        ctx = current_context()
        by_path = _leaves_by_path(canonical)
        args = []
        for path, spec in self._input_paths:
            value = by_path[path]
            args.append(value.handle if isinstance(spec, VariableSpec) else value)
        args += [ctx._to_graph_tensor(v, None, f"{self.name}/capture")
                 for v in self.graph.external_captures]
        op = stateful_partitioned_call_op if _has_stateful(self.graph) else partitioned_call_op
        outs = bind(op, (args,), {"f": self.graph, "Tout": tuple(t.dtype for t in
                                                                  self.graph.outputs)},
                    self.name)
        outs = outs if isinstance(outs, list) else []
        leaves = list(self._out_leaves)
        for pos, v in zip(self._out_positions, outs):
            leaves[pos] = v
        return pack_sequence_as(self.structured_outputs, leaves)

    # --- printing --------------------------------------------------------------------------------
    def pretty_printed_signature(self, verbose: bool = True) -> str:
        tensor_params, python_params = [], []
        for name, value in self._canonical:
            if any(isinstance(v, (TensorSpec, VariableSpec)) for v in flatten(value)):
                tensor_params.append((name, value))
            else:
                python_params.append((name, value))
        header = ", ".join([n for n, _ in tensor_params] + [f"{n}={v!r}" for n, v in
                                                              python_params])
        lines = [f"{self.name}({header})"]
        if tensor_params:
            lines.append("  Args:")
            lines += [f"    {n}: {_describe_structure(v)}" for n, v in tensor_params]
        lines.append("  Returns:")
        lines.append(f"    {_describe_structure(self.structured_outputs)}")
        return "\n".join(lines)

    def __repr__(self):
        return f"<ConcreteFunction {self.pretty_printed_signature().splitlines()[0]}>"


def _leaves_by_path(canonical) -> dict:
    from ..nest import is_nested
    out = {}

    def walk(value, path):
        if is_nested(value):
            if isinstance(value, dict):
                for k in sorted(value, key=repr):
                    walk(value[k], f"{path}[{k!r}]")
            elif isinstance(value, (list, tuple)):
                for i, v in enumerate(value):
                    walk(v, f"{path}[{i}]")
            else:
                import dataclasses
                for f in dataclasses.fields(value):
                    walk(getattr(value, f.name), f"{path}.{f.name}")
        else:
            out[path] = value
    for name, value in canonical:
        walk(value, name)
    return out


def _missing(fn_name: str, path: str, spec):
    raise TypeError(f"{fn_name}: missing argument '{path}' ({spec!r}).")


def _check_value(fn_name: str, path: str, spec, value):
    """The raw value fed for one input, checked against the traced spec."""
    if isinstance(spec, VariableSpec):
        if not isinstance(value, Variable):
            raise TypeError(f"{fn_name}: argument '{path}' must be a tf.Variable ({spec!r}), "
                            f"got {value!r}.")
        return value.handle
    if type(value) is EagerTensor:
        arr = value._value
    elif isinstance(value, Variable):
        arr = value.handle.value
    elif isinstance(value, Tensor):
        raise TypeError(f"{fn_name}: argument '{path}' is a symbolic tensor; call the "
                        "ConcreteFunction eagerly or from inside another tf.function.")
    else:
        from ..ops.convert import to_array
        arr = to_array(value, spec.dtype)
    dtype = d.NUMPY_TO_DTYPE[arr.dtype]
    if dtype is not spec.dtype:
        raise TypeError(f"{fn_name}: argument '{path}' expected {spec!r} but received a tensor "
                        f"with dtype {dtype.name} and shape {format_shape(arr.shape)}.")
    if not shapes_compatible(spec.shape._dims, arr.shape):
        raise ValueError(f"{fn_name}: argument '{path}' expected {spec!r} but received a "
                         f"tensor with shape {format_shape(arr.shape)}.")
    return arr


def _describe_structure(value) -> str:
    if isinstance(value, (SymbolicTensor,)):
        return f"{value.dtype.name} Tensor, shape={format_shape(value._shape)}"
    if isinstance(value, TensorSpec):
        return f"{value.dtype.name} Tensor, shape={format_shape(value.shape._dims)}"
    if isinstance(value, VariableSpec):
        return f"{value.dtype.name} Variable, shape={format_shape(value.shape)}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_describe_structure(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_describe_structure(v) for v in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(_describe_structure(v) for v in value)
        return f"({inner}{',' if len(value) == 1 else ''})"
    return describe_leaf(value)
