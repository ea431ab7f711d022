"""Arrays on disk: `.npz` archives of `.npy` members, written and read without pickle.

Reading trusts nothing: the archive must be an uncompressed ZIP whose members are exactly the
declared arrays; each member's size is checked against the file before it is read, its `.npy`
header is parsed (bounded) and must state the declared dtype and shape, and the data must be
exactly as long as that dtype and shape require. Only then is memory allocated, and never more
than the file holds. Strings (NumPy object arrays of bytes) are stored as two plain members: the
concatenated bytes (`uint8`) and each element's length (`int64`, in the array's shape).
"""

from __future__ import annotations

import io
import math
import os
import zipfile

import numpy as np

from .. import dtypes as d
from .saved_data_error import SavedDataError

__all__ = ["write_npz", "read_npz", "array_meta", "storage_dtype", "check_meta",
           "MAX_HEADER"]

MAX_HEADER = 10_000        # bytes of an .npy header (NumPy's own default limit)
MAX_RANK = 32


def storage_dtype(dtype: d.DType) -> np.dtype:
    """The little-endian NumPy dtype an array of `dtype` is stored with (not for strings)."""
    return np.dtype(dtype.as_numpy_dtype).newbyteorder("<")


def array_meta(dtype: d.DType, array: np.ndarray) -> dict:
    """What the JSON declares about a stored array."""
    return {"dtype": dtype.name, "shape": [int(s) for s in np.shape(array)]}


def _as_bytes(value, where: str) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, np.bytes_):
        return bytes(value)
    raise ValueError(f"{where}: a string tensor element is {type(value).__name__}, not bytes")


def _members(name: str, dtype: d.DType, array) -> list[tuple[str, np.ndarray]]:
    if dtype is d.string:
        flat = [_as_bytes(v, name) for v in np.asarray(array, dtype=object).reshape(-1)]
        lengths = np.array([len(v) for v in flat], dtype="<i8").reshape(np.shape(array))
        data = np.frombuffer(b"".join(flat), dtype=np.uint8)
        return [(f"{name}.data.npy", data), (f"{name}.lengths.npy", lengths)]
    return [(f"{name}.npy", np.asarray(array, dtype=storage_dtype(dtype)))]


def write_npz(path, arrays: dict) -> None:
    """Writes `{name: (DType, array)}` as an uncompressed `.npz` (no pickle)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        for name, (dtype, array) in arrays.items():
            for member, arr in _members(name, dtype, array):
                buf = io.BytesIO()
                np.lib.format.write_array(buf, arr, version=(1, 0), allow_pickle=False)
                zf.writestr(member, buf.getvalue())


def check_meta(meta, file, field: str) -> tuple[d.DType, tuple]:
    """Validates a declared `{"dtype": name, "shape": [ints]}`; returns (DType, shape)."""
    if not isinstance(meta, dict):
        raise SavedDataError(file, field, f"expected an object, got {type(meta).__name__}")
    name, shape = meta.get("dtype"), meta.get("shape")
    dtype = _DTYPES.get(name) if isinstance(name, str) else None
    if dtype is None:
        raise SavedDataError(file, f"{field}.dtype", f"unknown dtype {name!r}")
    if not isinstance(shape, list) or len(shape) > MAX_RANK or not all(
            type(s) is int and s >= 0 for s in shape):
        raise SavedDataError(file, f"{field}.shape",
                             f"expected a list of at most {MAX_RANK} non-negative ints, "
                             f"got {shape!r}")
    return dtype, tuple(shape)


_DTYPES = {t.name: t for t in (
    d.float16, d.float32, d.float64, d.bfloat16, d.int8, d.int16, d.int32, d.int64, d.uint8,
    d.uint16, d.uint32, d.uint64, d.bool, d.string, d.complex64, d.complex128)}


def _parse_npy(raw: bytes, file, field: str):
    """(shape, dtype, data bytes) of one `.npy` member, header parsed with a size limit."""
    f = io.BytesIO(raw)
    try:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(
                f, max_header_size=MAX_HEADER)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(
                f, max_header_size=MAX_HEADER)
        else:
            raise ValueError(f"unsupported .npy version {version}")
    except Exception as e:  # NumPy raises ValueError, SyntaxError, ... on a bad header
        raise SavedDataError(file, field, f"bad .npy header ({e})") from None
    if fortran:
        raise SavedDataError(file, field, "Fortran-ordered arrays are not accepted")
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
        raise SavedDataError(file, field, f"array dtype {dtype} is not a plain dtype")
    return tuple(shape), dtype, raw[f.tell():]


def _read_member(zf, infos, member: str, want_dtype, want_shape, limit: int, file):
    field = member
    info = infos.get(member)
    if info is None:
        raise SavedDataError(file, field, "member is missing from the archive")
    if info.compress_type != zipfile.ZIP_STORED:
        raise SavedDataError(file, field, "compressed members are not accepted")
    if info.file_size > limit or info.compress_size != info.file_size:
        raise SavedDataError(file, field, f"member declares {info.file_size} bytes but the "
                             f"archive holds {limit}")
    if want_shape is not None:
        need = math.prod(want_shape) * np.dtype(want_dtype).itemsize
        if need > info.file_size:
            raise SavedDataError(file, field, f"declared shape {list(want_shape)} needs {need} "
                                 f"bytes but the member holds {info.file_size}")
    try:
        with zf.open(info) as f:
            raw = f.read(info.file_size + 1)
    except Exception as e:  # BadZipFile (CRC), EOFError, zlib errors, ...
        raise SavedDataError(file, field, f"cannot read the member ({e})") from None
    if len(raw) != info.file_size:
        raise SavedDataError(file, field, "member is truncated")
    shape, dtype, data = _parse_npy(raw, file, field)
    if dtype != np.dtype(want_dtype):
        raise SavedDataError(file, field, f"stored dtype {dtype} is not the declared "
                             f"{np.dtype(want_dtype)}")
    if want_shape is not None and shape != tuple(want_shape):
        raise SavedDataError(file, field, f"stored shape {list(shape)} is not the declared "
                             f"{list(want_shape)}")
    if len(shape) > MAX_RANK or len(data) != math.prod(shape) * dtype.itemsize:
        raise SavedDataError(file, field, "data length does not match the header")
    return np.frombuffer(data, dtype=dtype).reshape(shape).copy()


def _strings(data: np.ndarray, lengths: np.ndarray, file, field: str) -> np.ndarray:
    if (lengths < 0).any() or int(lengths.sum()) != data.size:
        raise SavedDataError(file, field, "string lengths do not add up to the stored bytes")
    blob = data.tobytes()
    out = np.empty(lengths.size, dtype=object)
    pos = 0
    for i, n in enumerate(lengths.reshape(-1).tolist()):
        out[i] = blob[pos:pos + n]
        pos += n
    return out.reshape(lengths.shape)


def read_npz(f, declared: dict, file) -> dict:
    """Reads `{name: (DType, shape)}` from an open archive written by `write_npz` (`file` names
    it in errors), validating all; `safe_files.open_checked` opens it against its manifest."""
    file = str(file)
    try:
        limit = os.fstat(f.fileno()).st_size
        zf = zipfile.ZipFile(f, "r")
    except Exception as e:  # not a zip, hostile central directory, ...
        raise SavedDataError(file, "", f"not a readable .npz archive ({e})") from None
    with zf:
        try:
            infos = {i.filename: i for i in zf.infolist()}
        except Exception as e:
            raise SavedDataError(file, "", f"bad archive directory ({e})") from None
        expected = set()
        for name, (dtype, _) in declared.items():
            expected |= {f"{name}.data.npy", f"{name}.lengths.npy"} if dtype is d.string \
                else {f"{name}.npy"}
        extra = sorted(set(infos) - expected)
        if extra:
            raise SavedDataError(file, extra[0], "member is not declared")
        out = {}
        for name, (dtype, shape) in declared.items():
            if dtype is d.string:
                lengths = _read_member(zf, infos, f"{name}.lengths.npy", "<i8", shape, limit,
                                       file)
                data = _read_member(zf, infos, f"{name}.data.npy", np.uint8, None, limit, file)
                if data.ndim != 1:
                    raise SavedDataError(file, f"{name}.data.npy", "expected a 1-D byte array")
                out[name] = _strings(data, lengths, file, name)
            else:
                out[name] = _read_member(zf, infos, f"{name}.npy", storage_dtype(dtype), shape,
                                         limit, file).astype(dtype.as_numpy_dtype, copy=False)
    return out
