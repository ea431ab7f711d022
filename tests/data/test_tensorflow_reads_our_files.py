"""TensorFlow reads the files tracegraph writes: TFRecord files (plain, GZIP, ZLIB; written by
tf.io.TFRecordWriter and tf.data.experimental.TFRecordWriter) holding tf.train.Examples built
by tracegraph, and TensorProto bytes from tf.io.serialize_tensor. Runs when
TRACEGRAPH_TF_PYTHON names a Python that has TensorFlow (as tests/export's interop tests):

    TRACEGRAPH_TF_PYTHON=~/.cache/tracegraph-tf221/bin/python \
        python -m pytest tests/data -k tensorflow
"""

import json
import os
import subprocess

import pytest

import tracegraph as tf

pytest.importorskip("google.protobuf")
pytest.importorskip("google_crc32c")

TF_PYTHON = os.environ.get("TRACEGRAPH_TF_PYTHON")
needs_tf = pytest.mark.skipif(not TF_PYTHON, reason="set TRACEGRAPH_TF_PYTHON to a Python "
                              "that has TensorFlow")

READER = r"""
import json, sys
import tensorflow as tf
folder = sys.argv[1]
spec = {"x": tf.io.FixedLenFeature([3], tf.float32), "n": tf.io.VarLenFeature(tf.int64),
        "s": tf.io.FixedLenFeature([], tf.string, default_value=b"-")}
out = {}
for name, comp in [("plain", None), ("gzip", "GZIP"), ("zlib", "ZLIB"), ("dataset", None)]:
    ds = tf.data.TFRecordDataset(f"{folder}/{name}.tfrecord", comp).batch(100)
    b = next(iter(ds.map(lambda r: tf.io.parse_example(r, spec))))
    out[name] = {"x": b["x"].numpy().tolist(), "n": tf.sparse.to_dense(b["n"]).numpy().tolist(),
                 "s": [v.decode() for v in b["s"].numpy()]}
t = tf.io.parse_tensor(open(f"{folder}/tensor.pb", "rb").read(), tf.float32)
out["tensor"] = t.numpy().tolist()
print(json.dumps(out))
"""


def _example(i):
    feature = {"x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, i / 2, -i])),
               "n": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(i % 3))))}
    if i % 2:
        feature["s"] = tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"odd%d" % i]))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


@needs_tf
def test_tensorflow_reads_tracegraphs_tfrecords_examples_and_tensors(tmp_path):
    records = [_example(i) for i in range(7)]
    for name, comp in [("plain", None), ("gzip", "GZIP"), ("zlib", "ZLIB")]:
        with tf.io.TFRecordWriter(str(tmp_path / f"{name}.tfrecord"),
                                  tf.io.TFRecordOptions(comp)) as writer:
            for r in records:
                writer.write(r)
    tf.data.experimental.TFRecordWriter(str(tmp_path / "dataset.tfrecord")).write(
        tf.data.Dataset.from_tensor_slices(records))
    (tmp_path / "tensor.pb").write_bytes(
        tf.io.serialize_tensor(tf.constant([[1.5, 2.0], [-3.0, 0.25]])).numpy())
    done = subprocess.run([TF_PYTHON, "-c", READER, str(tmp_path)], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    want = {"x": [[float(i), i / 2, float(-i)] for i in range(7)],
            "n": [[0, 1][:i % 3] + [0] * (2 - i % 3) for i in range(7)],
            "s": [f"odd{i}" if i % 2 else "-" for i in range(7)]}
    for name in ("plain", "gzip", "zlib", "dataset"):
        assert got[name] == want, name
    assert got["tensor"] == [[1.5, 2.0], [-3.0, 0.25]]
