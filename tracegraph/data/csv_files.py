"""CSV as TensorFlow reads it: `tf.io.decode_csv` (the `DecodeCSV` op record) and
`tf.data.experimental.CsvDataset`.

A record splits at `field_delim`; with `use_quote_delim` a field may be quoted (`"a,b"`, a
quote inside written `""`), and a quoted field may span lines in a file. An empty field, or
one equal to `na_value`, takes its column's default; a column given as a bare dtype has none
and is required. Fields convert to int32, int64, float32, float64 or string; the errors are
TensorFlow's `InvalidArgumentError`s in its words. Columns convert a block of records at a
time (NumPy parses the numbers); only a block with a bad field is looked at field by field,
to name it.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as d
from ..errors import InvalidArgumentError
from ..ops.registry import TypeAttr, bind, convert_to_tensor, defop
from ..shapes import TensorType

__all__ = ["CSV_TYPES", "split_record", "convert_columns", "decode_csv", "decode_csv_op",
           "record_default_tensors"]

CSV_TYPES = (d.int32, d.int64, d.float32, d.float64, d.string)
_NAMES = {d.int32: "int32", d.int64: "int64", d.float32: "float", d.float64: "double",
          d.string: "string"}


def split_record(record: bytes, delim: bytes, use_quote: bool) -> list:
    """The fields of one record (TensorFlow's quoting rules and errors)."""
    if not use_quote or b'"' not in record:
        if b"\r" in record or (b"\n" in record):
            if use_quote:
                raise InvalidArgumentError("Unquoted fields cannot have quotes/CRLFs inside")
        return record.split(delim)
    fields, i, n = [], 0, len(record)
    while True:
        if i < n and record[i:i + 1] == b'"':
            i += 1
            out = bytearray()
            while True:
                j = record.find(b'"', i)
                if j < 0:
                    raise InvalidArgumentError("Quoted field has to end with quote followed by "
                                               "delim or end")
                out += record[i:j]
                if record[j + 1:j + 2] == b'"':
                    out += b'"'
                    i = j + 2
                    continue
                i = j + 1
                break
            fields.append(bytes(out))
            if i < n and record[i:i + len(delim)] != delim:
                raise InvalidArgumentError("Quote inside a string has to be escaped by another "
                                           "quote")
        else:
            j = record.find(delim, i)
            field = record[i:] if j < 0 else record[i:j]
            if b'"' in field or b"\n" in field or b"\r" in field:
                raise InvalidArgumentError("Unquoted fields cannot have quotes/CRLFs inside")
            fields.append(field)
            i = n if j < 0 else j
        if i >= n:
            return fields
        i += len(delim)
        if i >= n:
            fields.append(b"")
            return fields


def _where(record_index) -> str:
    return "record" if record_index is None else f"record {record_index}"


def _convert_one(field: bytes, dtype, column: int, record_index):
    text = field.decode("utf-8", "replace")
    try:
        if dtype in (d.int32, d.int64):
            value = int(text.strip()) if text.strip() == text else int("x")
            info = np.iinfo(dtype.as_numpy_dtype)
            if not info.min <= value <= info.max:
                raise ValueError
            return value
        return float(text)
    except ValueError:
        raise InvalidArgumentError(f"Field {column} in {_where(record_index)} is not a valid "
                                   f"{_NAMES[dtype]}: {text}") from None


def convert_columns(rows: list, defaults: list, dtypes: list, select, na_value: bytes,
                    first_record) -> list:
    """Columns (NumPy arrays) of `rows` (lists of fields) for the selected columns.

    `defaults[j]`: the column's default (a NumPy scalar) or None (required); `first_record`:
    the index of rows[0] in TensorFlow's messages (None: CsvDataset names no index)."""
    columns = []
    for j, dtype in enumerate(dtypes):
        index = j if select is None else select[j]
        fields = [row[index] for row in rows]
        columns.append(_convert_column(fields, dtype, defaults[j], index if select is None
                                       else j, na_value, first_record))
    return columns


def _convert_column(fields: list, dtype, default, column: int, na_value: bytes, first_record):
    np_dtype = object if dtype is d.string else dtype.as_numpy_dtype
    empty = [i for i, f in enumerate(fields) if f == b"" or f == na_value]
    if empty and default is None:
        record = None if first_record is None else first_record + empty[0]
        suffix = "!" if record is None else f" {record}!"
        raise InvalidArgumentError(f"Field {column} is required but missing in record{suffix}")
    if dtype is d.string:
        out = np.empty(len(fields), dtype=object)
        out[:] = fields
        for i in empty:
            out[i] = default
        return out
    values = list(fields)
    for i in empty:
        values[i] = b"0"
    try:
        if dtype in (d.int32, d.int64):
            out = np.array(values, dtype=np.bytes_).astype(np.int64)
            info = np.iinfo(np_dtype)
            if len(out) and (out.min() < info.min or out.max() > info.max):
                raise ValueError
            out = out.astype(np_dtype)
        else:
            out = np.array([float(v) for v in values], dtype=np_dtype)
    except (ValueError, OverflowError):
        for i, f in enumerate(fields):
            if i not in empty:
                _convert_one(f, dtype, column, None if first_record is None
                             else first_record + i)
        raise
    if empty:
        out[empty] = default
    return out


# ---- tf.io.decode_csv -------------------------------------------------------------------------

def infer_decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True,
                     na_value="", select_cols=()):
    return tuple(TensorType(t.dtype, records.shape) for t in record_defaults)


def kernel_decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True,
                      na_value="", select_cols=()):
    shape = np.shape(records)
    flat = list(np.asarray(records, dtype=object).reshape(-1))
    delim, na = field_delim.encode(), na_value.encode()
    defaults, dtypes = _defaults(record_defaults)
    select = list(select_cols) if select_cols else None
    want = len(defaults) if select is None else None
    rows = []
    for i, record in enumerate(flat):
        record = record if isinstance(record, bytes) else str(record).encode()
        fields = split_record(record, delim, use_quote_delim)
        if want is not None and len(fields) != want:
            raise InvalidArgumentError(f"Expect {want} fields but have {len(fields)} in record "
                                       f"{i}")
        if select is not None and len(fields) <= select[-1]:
            raise InvalidArgumentError(f"Expect {select[-1] + 1} fields but have "
                                       f"{len(fields)} in record {i}")
        rows.append(fields)
    columns = convert_columns(rows, defaults, dtypes, select, na, 0)
    return tuple(c.reshape(shape) for c in columns)


def _defaults(record_defaults):
    """(defaults, dtypes) from the runtime default arrays (an empty one: required)."""
    defaults, dtypes = [], []
    for value in record_defaults:
        value = np.asarray(value)
        dtype = d.string if value.dtype == object else d.as_dtype(value.dtype)
        dtypes.append(dtype)
        defaults.append(None if value.size == 0 else value.reshape(-1)[0])
    return defaults, dtypes


decode_csv_op = defop(
    "decode_csv", "DecodeCSV", inputs=("records: string", "record_defaults: list(OUT_TYPE)"),
    attrs={"OUT_TYPE": TypeAttr(frozenset(CSV_TYPES)), "field_delim": ",",
           "use_quote_delim": True, "na_value": "", "select_cols": ()},
    infer=infer_decode_csv, kernel=kernel_decode_csv, num_outputs=None, flags={"pure"})


def record_default_tensors(record_defaults, what: str = "record_defaults",
                           allow_dtypes: bool = True) -> list:
    """Each default as a tensor of at most one value (a bare dtype, where allowed: an empty,
    required one; CsvDataset allows them, decode_csv does not)."""
    out = []
    for i, default in enumerate(record_defaults):
        if isinstance(default, d.DType) and not allow_dtypes:
            raise ValueError(f"Attempt to convert a value ({default!r}) with an unsupported "
                             f"type ({type(default)}) to a Tensor.")
        if isinstance(default, d.DType):
            t = convert_to_tensor(np.zeros((0,), dtype=object if d.as_dtype(default) is
                                           d.string else d.as_dtype(default).as_numpy_dtype),
                                  dtype=d.as_dtype(default))
        else:
            t = convert_to_tensor(default)
        if t.dtype not in CSV_TYPES:
            raise TypeError(f"Value for attr 'OUT_TYPE' of {t.dtype.name} is not in the list "
                            f"of allowed values: float, double, int32, int64, string")
        if t.shape.rank is not None and (t.shape.rank > 1 or (t.shape.num_elements() or 0)
                                         > 1):
            raise ValueError(f"Shape of a default must be a length-0 or length-1 vector, or a "
                             f"scalar. Got {what}[{i}] with shape {t.shape}.")
        out.append(t)
    return out


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, na_value="",
               select_cols=None, name=None) -> list:
    """`tf.io.decode_csv`: each record's fields as one tensor per column (records' shape)."""
    if select_cols is not None and any(select_cols[i] >= select_cols[i + 1]
                                       for i in range(len(select_cols) - 1)):
        raise ValueError("select_cols is not strictly increasing.")
    if select_cols is not None and select_cols and select_cols[0] < 0:
        raise ValueError("select_cols contains negative values.")
    if select_cols is not None and len(select_cols) != len(record_defaults):
        raise ValueError("Length of select_cols and record_defaults do not match.")
    records = convert_to_tensor(records, dtype=d.string)
    defaults = record_default_tensors(record_defaults, allow_dtypes=False)
    out = bind(decode_csv_op, (records, defaults),
               {"field_delim": field_delim, "use_quote_delim": bool(use_quote_delim),
                "na_value": na_value, "select_cols": tuple(select_cols or ())}, name)
    return list(out) if isinstance(out, (list, tuple)) else [out]
