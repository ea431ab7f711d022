"""TFRecord framing and compression byte for byte, corrupt and truncated files, parsing
errors in TensorFlow's words, files inside tf.function, both pipeline paths, the extra."""

import pathlib
import time

import numpy as np
import pytest

import tracegraph as tf

pytest.importorskip("google.protobuf")
pytest.importorskip("google_crc32c")

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
RECORDS = [r.numpy() for r in tf.data.TFRecordDataset(str(FIXTURES / "examples.tfrecord"))]


@pytest.mark.parametrize("name, compression", [("examples.tfrecord", None),
                                               ("examples_gzip.tfrecord", "GZIP"),
                                               ("examples_zlib.tfrecord", "ZLIB")])
def test_writer_writes_tensorflows_bytes(tmp_path, name, compression):
    path = tmp_path / name
    with tf.io.TFRecordWriter(str(path), compression) as writer:
        for record in RECORDS:
            writer.write(record)
    assert path.read_bytes() == (FIXTURES / name).read_bytes()


def test_options_and_compression_type_names():
    assert tf.io.TFRecordOptions.get_compression_type_string("GZIP") == "GZIP"
    assert tf.io.TFRecordOptions.get_compression_type_string(
        tf.io.TFRecordCompressionType.ZLIB) == "ZLIB"
    assert tf.io.TFRecordOptions.get_compression_type_string(None) == ""
    with pytest.raises(ValueError, match='Not a valid compression_type: "BZ2"'):
        tf.io.TFRecordOptions("BZ2")


def test_records_before_a_corrupt_one_come_out_then_data_loss(tmp_path):
    data = bytearray((FIXTURES / "examples.tfrecord").read_bytes())
    data[-1] ^= 1   # the last record's data CRC
    path = tmp_path / "bad.tfrecord"
    path.write_bytes(bytes(data))
    it = iter(tf.data.TFRecordDataset(str(path)))
    assert [next(it).numpy() for _ in range(3)] == RECORDS[:3]
    with pytest.raises(tf.errors.DataLossError, match=f"corrupted record at 292 in file {path}"):
        next(it)


def test_truncated_data_is_data_loss_and_a_cut_header_ends_the_file(tmp_path):
    data = (FIXTURES / "examples.tfrecord").read_bytes()
    cut = tmp_path / "cut.tfrecord"
    cut.write_bytes(data[:-10])
    with pytest.raises(tf.errors.DataLossError, match=r"truncated record at 280 in file"):
        list(tf.data.TFRecordDataset(str(cut)))
    header = tmp_path / "header.tfrecord"
    header.write_bytes(data + data[:5])     # TensorFlow reads a partial header as the end
    assert [r.numpy() for r in tf.data.TFRecordDataset(str(header))] == RECORDS


def test_a_huge_corrupt_length_fails_at_once_without_allocating(tmp_path):
    from tracegraph.data.record_io import frame
    framed = bytearray(frame(b"x" * 10))
    framed[:8] = (10 ** 12).to_bytes(8, "little")      # a length with a matching CRC:
    from tracegraph.data.record_io import masked_crc32c
    framed[8:12] = masked_crc32c(bytes(framed[:8])).to_bytes(4, "little")
    path = tmp_path / "huge.tfrecord"
    path.write_bytes(bytes(framed))
    start = time.monotonic()
    with pytest.raises(tf.errors.DataLossError, match="truncated record at 0"):
        list(tf.data.TFRecordDataset(str(path)))
    assert time.monotonic() - start < 30   # a guard against reading 1 TB, not a speed test


def test_a_corrupt_gzip_stream_is_tensorflows_inflate_error(tmp_path):
    data = bytearray((FIXTURES / "examples_zlib.tfrecord").read_bytes())
    data[20] ^= 0x10
    path = tmp_path / "bad.zlib"
    path.write_bytes(bytes(data))
    with pytest.raises(tf.errors.DataLossError, match=r"inflate\(\) failed with error -3"):
        list(tf.data.TFRecordDataset(str(path), "ZLIB"))


def test_missing_files_and_wrong_names():
    with pytest.raises(tf.errors.NotFoundError, match="nope.tfrecord; No such file"):
        list(tf.data.TFRecordDataset("nope.tfrecord"))
    with pytest.raises(TypeError, match="must contain `tf.string` elements. Got `tf.int32`"):
        tf.data.TFRecordDataset(3)


def test_names_as_a_dataset_and_parallel_reads_interleave_as_tensorflow():
    name = str(FIXTURES / "examples.tfrecord")
    both = [r.numpy() for r in tf.data.TFRecordDataset([name, name], num_parallel_reads=2)]
    assert both == [r for r in RECORDS for _ in range(2)]
    names = tf.data.Dataset.from_tensor_slices([name, name])
    assert [r.numpy() for r in tf.data.TFRecordDataset(names)] == RECORDS * 2
    assert repr(tf.data.TFRecordDataset(name)) == (
        "<TFRecordDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>")


SPEC = {"dense": tf.io.FixedLenFeature([2], tf.float32, default_value=[9.0, 9.5]),
        "ids": tf.io.VarLenFeature(tf.int64)}


def _columnar(dataset, on: bool):
    options = tf.data.Options()
    options.experimental_optimization.columnar_execution = on
    return dataset.with_options(options)


def test_both_pipeline_paths_give_the_same_parsed_batches():
    dataset = tf.data.TFRecordDataset(str(FIXTURES / "examples.tfrecord")).batch(3).map(
        lambda b: tf.io.parse_example(b, SPEC)["dense"])
    fast = [b.numpy() for b in _columnar(dataset, True)]
    slow = [b.numpy() for b in _columnar(dataset, False)]
    assert len(fast) == len(slow) == 2
    for a, b in zip(fast, slow):
        np.testing.assert_array_equal(a, b)


def test_files_and_parsing_inside_tf_function():
    name = str(FIXTURES / "examples.tfrecord")

    @tf.function
    def total(filename):
        out = tf.constant(0.0)
        dataset = tf.data.TFRecordDataset(filename).batch(2).map(
            lambda b: tf.io.parse_example(b, SPEC))
        for batch in dataset:
            out += tf.reduce_sum(batch["dense"])
        return out

    eager = sum(float(tf.reduce_sum(b["dense"])) for b in
                tf.data.TFRecordDataset(name).batch(2).map(lambda b: tf.io.parse_example(b,
                                                                                       SPEC)))
    assert float(total(tf.constant(name))) == pytest.approx(eager)


def _example(**features):
    out = {}
    for key, values in features.items():
        kind = {float: "float_list", int: "int64_list", bytes: "bytes_list"}[type(values[0])]
        cls = {"float_list": tf.train.FloatList, "int64_list": tf.train.Int64List,
               "bytes_list": tf.train.BytesList}[kind]
        out[key] = tf.train.Feature(**{kind: cls(value=values)})
    return tf.train.Example(features=tf.train.Features(feature=out)).SerializeToString()


@pytest.mark.parametrize("serialized, spec, message", [
    ([_example(a=[1.0])], {"b": tf.io.FixedLenFeature([], tf.float32)},
     "Name: <unknown>, Feature: b (data type: float) is required but could not be found."),
    ([_example(a=[1])], {"a": tf.io.FixedLenFeature([], tf.float32)},
     "Name: <unknown>, Key: a, Index: 0.  Data types don't match. Data type: int64 but "
     "expected type: float"),
    ([_example(a=[1.0, 2.0])], {"a": tf.io.FixedLenFeature([3], tf.float32)},
     "Name: <unknown>, Key: a, Index: 0.  Number of float values != expected.  Values size: 2 "
     "but output shape: [3]"),
    ([_example(a=[1])], {"a": tf.io.VarLenFeature(tf.string)},
     "Name: <unknown>, Key: a, Index: 0.  Data types don't match. Expected type: string, "
     "Actual type: int64"),
    ([b"\n\x05abc"], {"a": tf.io.FixedLenFeature([], tf.float32)},
     "Could not parse example input, value: "),
])
def test_parse_errors_are_tensorflows(serialized, spec, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.io.parse_example(serialized, spec)
    assert str(info.value).startswith(message)


def test_parse_single_example_names_the_key_only():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^Key: a\.  Data types don't match"):
        tf.io.parse_single_example(_example(a=[1]), {"a": tf.io.FixedLenFeature([],
                                                                                tf.float32)})
    with pytest.raises(ValueError, match="FixedLenSequenceFeature requires allow_missing"):
        tf.io.parse_example([_example(a=[1.0])],
                            {"a": tf.io.FixedLenSequenceFeature([], tf.float32)})


def test_example_messages_are_real_protobufs():
    example = tf.train.Example.FromString(_example(a=[1.5], b=[b"x"]))
    assert example.features.feature["a"].float_list.value[0] == 1.5
    assert type(example).__name__ == "Example"
    assert str(tf.train.Feature(int64_list=tf.train.Int64List(value=[3]))) == (
        "int64_list {\n  value: 3\n}\n")
    assert tf.train.Example.DESCRIPTOR.full_name == "tensorflow.Example"


def test_without_the_extra_the_error_names_it(monkeypatch):
    import importlib

    from tracegraph import optional_extras

    def missing(name):
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(importlib, "import_module", missing)
    with pytest.raises(ImportError, match=r"pip install 'tracegraph\[tfformats\]'"):
        optional_extras.require("google.protobuf", "tfformats", "tf.train.Example")


def test_text_lines_compressed_and_in_parallel(tmp_path):
    import gzip
    (tmp_path / "a.txt.gz").write_bytes(gzip.compress(b"x1\r\nx2\n"))
    (tmp_path / "b.txt").write_bytes(b"y1\ny2\ny3")
    got = [x.numpy() for x in tf.data.TextLineDataset(str(tmp_path / "a.txt.gz"), "GZIP")]
    assert got == [b"x1", b"x2"]
    files = [str(tmp_path / "b.txt"), str(tmp_path / "b.txt")]
    got = [x.numpy() for x in tf.data.TextLineDataset(files, num_parallel_reads=2)]
    assert got == [b"y1", b"y1", b"y2", b"y2", b"y3", b"y3"]


def test_csv_errors_name_the_field_and_record():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Field 1 in record 0 is not a valid int32: x"):
        tf.io.decode_csv(["1,x"], [[0], [0]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Expect 2 fields but have 1 in record 1"):
        tf.io.decode_csv(["1,2", "3"], [[0], [0]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Quote inside a string has to be escaped by another quote"):
        tf.io.decode_csv(['1,"a"b'], [[0], [""]])


def test_gfile_basics(tmp_path):
    folder = tmp_path / "sub" / "dir"
    tf.io.gfile.makedirs(str(folder))
    with tf.io.gfile.GFile(str(folder / "f.txt"), "w") as f:
        f.write("hello\n")
    assert tf.io.gfile.exists(str(folder / "f.txt"))
    assert tf.io.gfile.glob(str(folder / "*.txt")) == [str(folder / "f.txt")]
    assert tf.io.gfile.GFile(str(folder / "f.txt")).read() == "hello\n"
    with pytest.raises(tf.errors.NotFoundError):
        tf.io.gfile.GFile(str(folder / "missing"))


def test_float_values_come_back_bit_for_bit():
    values = np.array([np.nan, np.inf, -np.inf, -0.0, 1e-45, 3.4028235e38, 0.1], np.float32)
    serialized = [_example(x=[float(v) for v in values]), _example(x=[2.5] * 7)]
    parsed = tf.io.parse_example(serialized, {"x": tf.io.FixedLenFeature([7], tf.float32)})
    got = parsed["x"].numpy()
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got[0].view(np.uint32), values.view(np.uint32))
    np.testing.assert_array_equal(got[1], np.full(7, 2.5, np.float32))
