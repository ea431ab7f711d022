"""Values as JSON: attr values, Python structures and specs, each a one-key tagged object.

    None -> null            True -> {"bool": true}       3 -> {"int": 3}
    2.5 -> {"float": "0x1.4p+1"} (exact bits)           "a" -> {"str": "a"}
    b"a" -> {"bytes": "YQ=="}                            float32 -> {"dtype": "float32"}
    (1, 2) -> {"tuple": [...]}  [..] -> {"list": [...]}  {"k": v} -> {"dict": [[key, value]]}
    np.array -> {"array": {"dtype", "shape", "data" (base64) | "ref" (name in constants.npz)}}
    a sub-graph -> {"graph": index}   a Variable's handle -> {"variable": object id}

Decoding validates every tag and payload and raises `SavedDataError` naming the field; nesting
is bounded so a hostile file cannot exhaust the stack.
"""

from __future__ import annotations

import base64
import binascii
import collections
import keyword
import math

import numpy as np

from ... import dtypes as d
from ...framework.composite_specs import RaggedTensorSpec, SparseTensorSpec
from ...shapes import TensorSpec
from ...trace.keys import VariableSpec
from ..npz_arrays import _DTYPES, check_meta, storage_dtype
from ..saved_data_error import SavedDataError
from . import extension_codec

__all__ = ["Encoder", "Decoder", "INLINE_LIMIT", "MAX_DEPTH", "UnsaveableError"]

INLINE_LIMIT = 4096   # bytes: larger arrays go to constants.npz
MAX_DEPTH = 64        # nesting of tuples, lists and dicts inside one value
MAX_INLINE_ELEMENTS = 1 << 20


class UnsaveableError(ValueError):
    """A value cannot be written in the saved format (raised at save time)."""


def _is_identifier(name) -> bool:
    return isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name)


class Encoder:
    """Turns values into JSON; large arrays are collected in `self.arrays` (name -> array)."""

    def __init__(self, graph_index=None, variable_id=None):
        self.arrays: dict = {}          # name -> (DType, ndarray)
        self.graph_index = graph_index  # Graph -> int
        self.variable_id = variable_id  # ResourceHandle -> object id

    def array(self, value, dtype=None) -> dict:
        arr = np.asarray(value, dtype=object if dtype is d.string else None)
        if dtype is None:
            dtype = d.NUMPY_TO_DTYPE.get(arr.dtype)
            if dtype is None:
                raise UnsaveableError(f"arrays of NumPy dtype {arr.dtype} cannot be saved")
        meta = {"dtype": dtype.name, "shape": [int(s) for s in arr.shape]}
        if dtype is d.string:
            items = [v if isinstance(v, bytes) else str(v).encode() for v in arr.reshape(-1)]
            size = sum(len(v) for v in items)
            if size <= INLINE_LIMIT:
                meta["strings"] = [base64.b64encode(v).decode("ascii") for v in items]
                return meta
        elif arr.nbytes <= INLINE_LIMIT:
            raw = np.asarray(arr, dtype=storage_dtype(dtype)).tobytes()
            meta["data"] = base64.b64encode(raw).decode("ascii")
            return meta
        name = f"c{len(self.arrays)}"
        self.arrays[name] = (dtype, arr)
        meta["ref"] = name
        return meta

    def value(self, v, depth: int = 0):
        if depth > MAX_DEPTH:
            raise UnsaveableError(f"values nested deeper than {MAX_DEPTH} cannot be saved")
        if v is None:
            return None
        if isinstance(v, (bool, np.bool_)) and not isinstance(v, np.ndarray):
            return {"bool": bool(v)}
        if type(v) is int:
            return {"int": v}
        if type(v) is float:
            return {"float": v.hex()}
        if type(v) is str:
            return {"str": v}
        if type(v) is bytes:
            return {"bytes": base64.b64encode(v).decode("ascii")}
        if isinstance(v, d.DType):
            return {"dtype": v.name}
        if isinstance(v, np.generic):
            return {"scalar": self.array(np.asarray(v))}
        if isinstance(v, np.ndarray):
            return {"array": self.array(v)}
        if isinstance(v, TensorSpec):
            return {"tensor_spec": {"dtype": v.dtype.name, "shape": _shape(v.shape.as_tuple()),
                                    "name": v.name}}
        if isinstance(v, VariableSpec):
            return {"variable_spec": {"dtype": v.dtype.name, "shape": _shape(v.shape)}}
        if isinstance(v, RaggedTensorSpec):
            return {"ragged_spec": {"dtype": v.dtype.name, "shape": _shape(v.shape._dims),
                                    "ragged_rank": v.ragged_rank,
                                    "row_splits_dtype": v.row_splits_dtype.name}}
        if isinstance(v, SparseTensorSpec):
            return {"sparse_spec": {"dtype": v.dtype.name, "shape": _shape(v.shape._dims)}}
        if self.graph_index is not None and id(v) in self.graph_index:
            return {"graph": self.graph_index[id(v)]}
        if self.variable_id is not None and id(v) in self.variable_id:
            return {"variable": self.variable_id[id(v)]}
        if isinstance(v, tuple) and hasattr(type(v), "_fields"):
            return {"namedtuple": {"name": type(v).__name__, "fields": list(type(v)._fields),
                                   "values": [self.value(x, depth + 1) for x in v]}}
        if type(v) is tuple:
            return {"tuple": [self.value(x, depth + 1) for x in v]}
        if type(v) is list:
            return {"list": [self.value(x, depth + 1) for x in v]}
        if type(v) is dict:
            return {"dict": [[self.value(k, depth + 1), self.value(x, depth + 1)]
                             for k, x in v.items()]}
        if extension_codec.is_extension(v):   # extension types' specs, mappings and shapes
            try:
                return extension_codec.encode(self, v, depth)
            except extension_codec.NotSaveableError as e:
                raise UnsaveableError(str(e)) from None
        raise UnsaveableError(f"a value of type {type(v).__name__} ({v!r:.80}) cannot be saved")


def _shape(dims):
    return None if dims is None else [None if s is None else int(s) for s in dims]


class Decoder:
    """Validates and decodes what `Encoder` wrote. `constants` holds the external arrays."""

    def __init__(self, file, constants=None, graphs=None, handles=None, extra=None):
        self.file = file
        self.constants = constants or {}
        self.graphs = graphs if graphs is not None else []
        self.handles = handles or {}    # object id -> ResourceHandle
        self.extra = extra or {}        # tag -> function(payload, field) for callers' leaves

    def fail(self, field: str, problem: str):
        raise SavedDataError(self.file, field, problem)

    # --- plain fields ------------------------------------------------------------------------
    def obj(self, v, field: str, required=(), optional=()) -> dict:
        if not isinstance(v, dict):
            self.fail(field, f"expected an object, got {type(v).__name__}")
        missing = [k for k in required if k not in v]
        if missing:
            self.fail(f"{field}.{missing[0]}", "missing")
        unknown = [k for k in v if k not in required and k not in optional]
        if unknown:
            self.fail(f"{field}.{unknown[0]}", "unknown field")
        return v

    def list(self, v, field: str, limit: int | None = None) -> list:
        if not isinstance(v, list):
            self.fail(field, f"expected a list, got {type(v).__name__}")
        if limit is not None and len(v) > limit:
            self.fail(field, f"{len(v)} entries, at most {limit} allowed")
        return v

    def int(self, v, field: str, lo: int = 0, hi: int | None = None) -> int:
        if type(v) is not int or v < lo or (hi is not None and v >= hi):
            rng = f"[{lo}, {hi})" if hi is not None else f">= {lo}"
            self.fail(field, f"expected an int in {rng}, got {v!r:.60}")
        return v

    def str(self, v, field: str) -> str:
        if not isinstance(v, str):
            self.fail(field, f"expected a string, got {type(v).__name__}")
        return v

    def bool(self, v, field: str) -> bool:
        if not isinstance(v, bool):
            self.fail(field, f"expected true or false, got {v!r:.60}")
        return v

    def dtype(self, v, field: str, allow_resource: bool = False) -> d.DType:
        if allow_resource and v == "resource":
            return d.resource
        dtype = _DTYPES.get(v) if isinstance(v, str) else None
        if dtype is None:
            self.fail(field, f"unknown dtype {v!r:.60}")
        return dtype

    def shape(self, v, field: str):
        if v is None:
            return None
        dims = self.list(v, field, 64)
        for i, s in enumerate(dims):
            if s is not None:
                self.int(s, f"{field}[{i}]")
        return tuple(dims)

    # --- arrays ------------------------------------------------------------------------------
    def array(self, meta, field: str) -> np.ndarray:
        self.obj(meta, field, ("dtype", "shape"), ("data", "strings", "ref"))
        dtype, shape = check_meta({"dtype": meta["dtype"], "shape": meta["shape"]}, self.file,
                                  field)
        n = math.prod(shape)
        if "ref" in meta:
            name = self.str(meta["ref"], f"{field}.ref")
            arr = self.constants.get(name)
            if arr is None:
                self.fail(f"{field}.ref", f"no stored constant named {name!r:.60}")
            if arr.shape != shape or d.NUMPY_TO_DTYPE.get(arr.dtype) is not (
                    dtype if dtype is not d.bfloat16 else d.float32):
                self.fail(f"{field}.ref", "stored constant does not match the declared "
                          "dtype and shape")
            return arr
        if dtype is d.string:
            items = self.list(meta.get("strings"), f"{field}.strings", MAX_INLINE_ELEMENTS)
            if len(items) != n:
                self.fail(f"{field}.strings", f"{len(items)} strings for shape {list(shape)}")
            out = np.empty(n, dtype=object)
            for i, s in enumerate(items):
                out[i] = self._b64(s, f"{field}.strings[{i}]")
            return out.reshape(shape)
        raw_text = self.str(meta.get("data"), f"{field}.data")
        sd = storage_dtype(dtype)
        need = n * sd.itemsize
        if len(raw_text) != 4 * math.ceil(need / 3):
            self.fail(f"{field}.data", f"expected {need} bytes of base64 data")
        raw = self._b64(raw_text, f"{field}.data")
        if len(raw) != need:
            self.fail(f"{field}.data", f"expected {need} bytes, got {len(raw)}")
        return np.frombuffer(raw, dtype=sd).reshape(shape).astype(dtype.as_numpy_dtype)

    def _b64(self, s, field: str) -> bytes:
        if not isinstance(s, str):
            self.fail(field, "expected a base64 string")
        try:
            return base64.b64decode(s.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError, ValueError):
            self.fail(field, "invalid base64 data")

    # --- tagged values -----------------------------------------------------------------------
    def value(self, v, field: str, depth: int = 0):
        if depth > MAX_DEPTH:
            self.fail(field, f"nested deeper than {MAX_DEPTH}")
        if v is None:
            return None
        if not isinstance(v, dict) or len(v) != 1:
            self.fail(field, "expected a tagged value (an object with one key)")
        (tag, payload), = v.items()
        where = f"{field}.{tag}"
        if tag == "bool":
            return self.bool(payload, where)
        if tag == "int":
            if type(payload) is not int:
                self.fail(where, "expected an int")
            return payload
        if tag == "float":
            try:
                return float.fromhex(self.str(payload, where))
            except (ValueError, OverflowError):
                self.fail(where, f"not a float: {payload!r:.60}")
        if tag == "str":
            return self.str(payload, where)
        if tag == "bytes":
            return self._b64(payload, where)
        if tag == "dtype":
            return self.dtype(payload, where, allow_resource=True)
        if tag == "array":
            return self.array(payload, where)
        if tag == "scalar":
            arr = self.array(payload, where)
            if arr.shape != ():
                self.fail(where, "a scalar must have shape []")
            return arr[()]
        if tag == "tensor_spec":
            self.obj(payload, where, ("dtype", "shape", "name"))
            name = payload["name"]
            if name is not None:
                self.str(name, f"{where}.name")
            return TensorSpec(self.shape(payload["shape"], f"{where}.shape"),
                              self.dtype(payload["dtype"], f"{where}.dtype"), name)
        if tag in ("tuple", "list"):
            items = [self.value(x, f"{where}[{i}]", depth + 1)
                     for i, x in enumerate(self.list(payload, where))]
            return tuple(items) if tag == "tuple" else items
        if tag == "dict":
            out = {}
            for i, pair in enumerate(self.list(payload, where)):
                if not isinstance(pair, list) or len(pair) != 2:
                    self.fail(f"{where}[{i}]", "expected a [key, value] pair")
                key = self.value(pair[0], f"{where}[{i}][0]", depth + 1)
                if not isinstance(key, (str, int, bool, float, bytes, type(None))):
                    self.fail(f"{where}[{i}][0]", "dict keys must be Python scalars")
                out[key] = self.value(pair[1], f"{where}[{i}][1]", depth + 1)
            return out
        if tag == "namedtuple":
            self.obj(payload, where, ("name", "fields", "values"))
            name, fields = payload["name"], self.list(payload["fields"], f"{where}.fields", 256)
            values = self.list(payload["values"], f"{where}.values", 256)
            if not _is_identifier(name) or not all(_is_identifier(f) and not f.startswith("_")
                                                   for f in fields) or \
                    len(set(fields)) != len(fields) or len(values) != len(fields):
                self.fail(where, "bad namedtuple name or fields")
            cls = collections.namedtuple(name, fields)
            return cls(*[self.value(x, f"{where}.values[{i}]", depth + 1)
                         for i, x in enumerate(values)])
        if tag == "ragged_spec":
            self.obj(payload, where, ("dtype", "shape", "ragged_rank", "row_splits_dtype"))
            shape = self.shape(payload["shape"], f"{where}.shape")
            rank = 64 if shape is None else len(shape)
            splits = self.dtype(payload["row_splits_dtype"], f"{where}.row_splits_dtype")
            if splits.name not in ("int32", "int64"):
                self.fail(f"{where}.row_splits_dtype", "must be int32 or int64")
            return RaggedTensorSpec(shape, self.dtype(payload["dtype"], f"{where}.dtype"),
                                    self.int(payload["ragged_rank"], f"{where}.ragged_rank", 0,
                                             max(rank, 1)), splits)
        if tag == "sparse_spec":
            self.obj(payload, where, ("dtype", "shape"))
            return SparseTensorSpec(self.shape(payload["shape"], f"{where}.shape"),
                                    self.dtype(payload["dtype"], f"{where}.dtype"))
        if tag == "variable_spec":
            self.obj(payload, where, ("dtype", "shape"))
            return VariableSpec(self.dtype(payload["dtype"], f"{where}.dtype"),
                                self.shape(payload["shape"], f"{where}.shape"))
        if tag == "graph":
            index = self.int(payload, where, 0, len(self.graphs))
            return self.graphs[index]
        if tag == "variable":
            handle = self.handles.get(payload) if type(payload) is int else None
            if handle is None:
                self.fail(where, f"no restored variable with object id {payload!r:.60}")
            return handle
        if tag in self.extra:
            return self.extra[tag](payload, where)
        if tag in extension_codec.TAGS:
            return extension_codec.decode(self, tag, payload, where, depth)
        self.fail(field, f"unknown tag {tag!r:.60}")
