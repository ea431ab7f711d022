"""tf.data files, side by side with TensorFlow (issue 21's workload 3): writing and reading
100,000 `tf.train.Example` records with parsing.

3a. write: build each Example (a 16-float feature, an int64 label, a bytes name), serialize
    it, and write it with tf.io.TFRecordWriter;
3b. read: TFRecordDataset(file).batch(256).map(parse_example) over the whole file;
3.  both, as one job.

    python bench/data_files.py [--compare ~/.cache/tracegraph-tf221/bin/python] [--quick]

`bench/data.py` imports FILE_WORKLOADS to print this row with its others. The machine is
shared: run several rounds and read the medians with the load in mind.
"""

import os
import tempfile

import numpy as np
from harness import Workload, main

RECORDS, BATCH, WIDTH = 100_000, 256, 16


def _values():
    rng = np.random.default_rng(0)
    return (rng.random((RECORDS, WIDTH), dtype=np.float32).tolist(),
            rng.integers(0, 10, RECORDS).tolist(), [b"item%d" % i for i in range(RECORDS)])


def _writer(tf, path):
    images, labels, names = _values()
    train = tf.train

    def write():
        with tf.io.TFRecordWriter(path) as writer:
            for image, label, name in zip(images, labels, names):
                writer.write(train.Example(features=train.Features(feature={
                    "image": train.Feature(float_list=train.FloatList(value=image)),
                    "label": train.Feature(int64_list=train.Int64List(value=[label])),
                    "name": train.Feature(bytes_list=train.BytesList(value=[name])),
                })).SerializeToString())
    return write


def _reader(tf, path):
    spec = {"image": tf.io.FixedLenFeature([WIDTH], tf.float32),
            "label": tf.io.FixedLenFeature([], tf.int64),
            "name": tf.io.FixedLenFeature([], tf.string)}
    dataset = tf.data.TFRecordDataset(path).batch(BATCH).map(
        lambda batch: tf.io.parse_example(batch, spec))

    def read():
        rows = 0
        for batch in dataset:
            rows += int(batch["label"].shape[0])
        assert rows == RECORDS, rows
    return read


def _path(tf):
    folder = tempfile.mkdtemp(prefix="bench_data_files_")
    return os.path.join(folder, f"examples_{tf.__name__}.tfrecord")


def write_examples(tf):
    return _writer(tf, _path(tf))


def read_examples(tf):
    path = _path(tf)
    _writer(tf, path)()
    return _reader(tf, path)


def write_and_read_examples(tf):
    path = _path(tf)
    write, read = _writer(tf, path), None

    def both():
        nonlocal read
        write()
        read = read or _reader(tf, path)
        read()
    return both


FILE_WORKLOADS = [
    Workload("3a. write 100,000 tf.train.Example records (TFRecordWriter)", write_examples,
             number=1, repeat=3),
    Workload("3b. read them: TFRecordDataset.batch(256).map(parse_example)", read_examples,
             number=1, repeat=5),
    Workload("3. write and read 100,000 tf.train.Example records with parsing",
             write_and_read_examples, number=1, repeat=3),
]

if __name__ == "__main__":
    main("tf.data files: TFRecord and tf.train.Example (microseconds per job)", FILE_WORKLOADS)
