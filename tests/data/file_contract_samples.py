"""Contract rows (tests/ops/test_contract.py) for the op records of tf.data's file formats:
TFRecord, text and CSV readers (runtime nodes over tests/data/fixtures), the TFRecord writer,
ParseExampleV2, DecodeCSV, SerializeTensor and ParseTensor."""

from __future__ import annotations

import pathlib
import tempfile

import numpy as np

from tracegraph import dtypes as d
from tracegraph.shapes import TensorSpec

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
STRING = TensorSpec((), d.string)


def _s(*values):
    return np.array([v.encode() if isinstance(v, str) else v for v in values], dtype=object)


def _scalar(value):
    return np.array(value.encode() if isinstance(value, str) else value, dtype=object)


def _records_node():
    from tracegraph.ops.registry import get_op
    return get_op("tf_record_dataset").kernel(_s(str(FIXTURES / "examples.tfrecord")),
                                              _scalar(""), np.int64(-1), element_spec=STRING)


def _examples():
    from tracegraph.data.record_io import read_records
    return [r for b in read_records(str(FIXTURES / "examples.tfrecord")) for r in b]


PARSE_ATTRS = {"num_sparse": 1, "sparse_types": (d.int64,), "ragged_value_types": (d.string,),
               "ragged_split_types": (d.int32,), "dense_shapes": ((2,), (None, 2))}
PARSE_INPUTS = (_s("ids"), _s("dense", "seq"), _s("words"),
                [np.array([9.0, 9.5], np.float32), np.float32(-1.0)])

SAMPLES = {
    "tf_record_dataset": [((_s(str(FIXTURES / "examples_gzip.tfrecord")), _scalar("GZIP"),
                            np.int64(1024)), {"element_spec": STRING})],
    "text_line_dataset": [((_s(str(FIXTURES / "lines.txt")), _scalar(""), np.int64(-1)),
                           {"element_spec": STRING})],
    "csv_dataset": [((_s(str(FIXTURES / "table.csv")), _scalar(""), np.int64(-1), np.bool_(True),
                      _scalar(","), np.bool_(True), _scalar("NA"), np.array([1, 2], np.int64),
                      [np.array([0], np.int32), np.array([0.0], np.float32)]),
                     {"element_spec": (TensorSpec((), d.int32), TensorSpec((), d.float32))})],
    "dataset_to_tf_record": [((_records_node(),
                               _scalar(str(pathlib.Path(tempfile.gettempdir())
                                           / "contract_row.tfrecord")), _scalar("ZLIB")), {})],
    "parse_example": [((np.array(_examples(), dtype=object), _s()) + PARSE_INPUTS,
                       PARSE_ATTRS),
                      ((np.array(_examples()[0], dtype=object), _s()) + PARSE_INPUTS,
                       PARSE_ATTRS)],
    "decode_csv": [((_s("1,a,2.5", '7,"b,c",'),
                     [np.array([0], np.int32), _s(""), np.array([-1.0], np.float32)]), {})],
    "serialize_tensor": [((np.arange(6, dtype=np.float32).reshape(2, 3),), {})],
    "parse_tensor": [((_scalar(bytes.fromhex("080112041202080222080000803f00000040")),),
                      {"out_type": d.float32})],
}


def _sequence_record():
    from tracegraph.data.record_io import read_records
    return [r for b in read_records(str(FIXTURES / "sequence_examples.tfrecord")) for r in b][2]


SAMPLES["parse_sequence_example"] = [(
    (np.array(_sequence_record(), dtype=object),),
    {"sparse_keys": ("scores",), "sparse_types": (d.float32,), "dense_keys": ("tokens",),
     "dense_types": (d.int64,), "dense_shapes": ((2,),), "ragged_keys": ("absent",),
     "ragged_value_types": (d.int64,), "ragged_split_types": (d.int64,)})]
