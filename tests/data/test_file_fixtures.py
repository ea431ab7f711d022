"""Files TensorFlow 2.21 wrote (tests/data/fixtures, made by make_fixtures.py there) read by
tracegraph give the values TensorFlow read from them (expected.json beside the files)."""

import json
import pathlib

import numpy as np
import pytest

import tracegraph as tf

pytest.importorskip("google.protobuf")
pytest.importorskip("google_crc32c")

HERE = pathlib.Path(__file__).parent / "fixtures"
EXPECTED = json.loads((HERE / "expected.json").read_text())
SPEC = {
    "dense": tf.io.FixedLenFeature([2], tf.float32, default_value=[9.0, 9.5]),
    "ids": tf.io.VarLenFeature(tf.int64),
    "words": tf.io.RaggedFeature(tf.string),
    "seq": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True,
                                         default_value=-1.0),
    "extra": tf.io.FixedLenFeature([], tf.int64, default_value=0),
}


def plain(value):
    """Values as make_fixtures.py wrote them (bytes as {"bytes": hex})."""
    if isinstance(value, tf.SparseTensor):
        return {"indices": value.indices.numpy().tolist(), "values": plain(value.values),
                "dense_shape": value.dense_shape.numpy().tolist()}
    if hasattr(value, "to_list"):
        return plain(value.to_list())
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, np.generic):
        return value.item()
    return value


@pytest.mark.parametrize("name", sorted(EXPECTED["files"]))
def test_tfrecord_files_tensorflow_wrote_read_the_same_records(name):
    dataset = tf.data.TFRecordDataset(str(HERE / name), EXPECTED["files"][name] or None)
    assert [r.numpy().hex() for r in dataset] == EXPECTED["records"][name]


def test_sequence_example_records_are_read_and_decode_as_protos():
    records = [r.numpy() for r in tf.data.TFRecordDataset(
        str(HERE / "sequence_examples.tfrecord"))]
    assert [r.hex() for r in records] == EXPECTED["sequence_records"]
    proto = tf.train.SequenceExample.FromString(records[2])
    assert list(proto.context.feature["id"].int64_list.value) == [2]
    assert [list(f.int64_list.value) for f in
            proto.feature_lists.feature_list["tokens"].feature] == [[0, 1], [1, 2], [2, 3]]
    assert proto.SerializeToString(deterministic=True) == records[2]


def test_parse_example_gives_tensorflows_values_on_a_batch():
    serialized = [bytes.fromhex(h) for h in EXPECTED["records"]["examples.tfrecord"]]
    parsed = tf.io.parse_example(serialized, SPEC)
    assert list(parsed) == ["ids", "dense", "extra", "seq", "words"]   # TF's order
    assert {k: plain(v) for k, v in parsed.items()} == EXPECTED["parse_example"]


def test_parse_example_after_batch_in_a_dataset_gives_the_same_values():
    dataset = tf.data.TFRecordDataset(str(HERE / "examples_gzip.tfrecord"), "GZIP")
    batch = next(iter(dataset.batch(10).map(lambda b: tf.io.parse_example(b, SPEC))))
    assert {k: plain(v) for k, v in batch.items()} == EXPECTED["parse_example"]


def test_parse_single_example_gives_tensorflows_values():
    dataset = tf.data.TFRecordDataset(str(HERE / "examples_zlib.tfrecord"), "ZLIB")
    got = [{k: plain(v) for k, v in parsed.items()}
           for parsed in dataset.map(lambda s: tf.io.parse_single_example(s, SPEC))]
    assert got == EXPECTED["parse_single_example"]


def test_text_lines_as_tensorflow_reads_them():
    lines = [plain(x) for x in tf.data.TextLineDataset(str(HERE / "lines.txt"))]
    assert lines == EXPECTED["lines"]


def test_csv_dataset_as_tensorflow_reads_it():
    csv = tf.data.experimental.CsvDataset(str(HERE / "table.csv"),
                                          [tf.string, [0], [0.0], [""]], header=True,
                                          na_value="NA")
    assert [plain(list(row)) for row in csv] == EXPECTED["csv"]
    batched = next(iter(csv.batch(10)))
    assert plain([list(c) for c in zip(*[c.numpy() for c in batched])]) == EXPECTED["csv"]


def test_make_csv_dataset_as_tensorflow_makes_it():
    made = tf.data.experimental.make_csv_dataset(
        str(HERE / "table.csv"), batch_size=3, shuffle=False, num_epochs=1,
        label_name="score", na_value="NA")
    assert repr(made.element_spec) == EXPECTED["make_csv_dataset"]["element_spec"]
    got = [[{k: plain(v) for k, v in features.items()}, plain(label)]
           for features, label in made]
    assert got == EXPECTED["make_csv_dataset"]["batches"]


def test_decode_csv_as_tensorflow():
    got = tf.io.decode_csv(["1,a,2.5", '7,"b,c",', "3,,1e3"], [[0], [""], [-1.0]])
    assert plain(got) == EXPECTED["decode_csv"]


def test_serialize_tensor_writes_tensorflows_bytes():
    tensors = {"float32": tf.constant([[1.5, -2.0], [0.0, 3.25]]),
               "int64": tf.constant(7, tf.int64), "string": tf.constant([b"x", b"yz"]),
               "bool": tf.constant([True, False, True])}
    for key, value in tensors.items():
        assert tf.io.serialize_tensor(value).numpy().hex() == EXPECTED["serialize_tensor"][key]
        back = tf.io.parse_tensor(bytes.fromhex(EXPECTED["serialize_tensor"][key]),
                                  value.dtype)
        assert plain(back) == plain(value)


@pytest.mark.parametrize("position", sorted(EXPECTED["corrupt"], key=int))
def test_a_flipped_bit_is_tensorflows_data_loss_error_naming_file_and_offset(position,
                                                                            tmp_path):
    data = bytearray((HERE / "examples.tfrecord").read_bytes())
    data[int(position)] ^= 0x04
    path = tmp_path / "corrupt.tfrecord"
    path.write_bytes(bytes(data))
    want = EXPECTED["corrupt"][position]
    if "records" in want:
        assert [r.numpy().hex() for r in tf.data.TFRecordDataset(str(path))] == want["records"]
        return
    with pytest.raises(tf.errors.DataLossError) as info:
        list(tf.data.TFRecordDataset(str(path)))
    assert str(info.value).startswith(want["error"])
    assert str(path) in str(info.value)


def test_parse_single_sequence_example_gives_tensorflows_values():
    record = bytes.fromhex(EXPECTED["sequence_records"][2])
    context, sequences = tf.io.parse_single_sequence_example(
        record, context_features={"id": tf.io.FixedLenFeature([], tf.int64),
                                  "name": tf.io.VarLenFeature(tf.string)},
        sequence_features={"tokens": tf.io.FixedLenSequenceFeature([2], tf.int64),
                           "scores": tf.io.RaggedFeature(tf.float32)})
    want_context, want_sequences = EXPECTED["parse_single_sequence_example"]
    assert {k: plain(v) for k, v in context.items()} == want_context
    assert {k: plain(v) for k, v in sequences.items()} == want_sequences
