import os
import tempfile

# The code of the tutorial "TFRecord and tf.train.Example" (tutorials/load_data/tfrecord), run
# as a script: the tf.train.Example and TFRecord parts (the image cells, which download a
# picture, are left out); notebook displays are printed; the random data is seeded; the file
# goes to a temporary directory; a last cell parses whole batches with tf.io.parse_example.
# Raw records print their first characters and their Example: a map's bytes follow its
# (per-process) hash order, in TensorFlow too. _int64_feature converts with int():
# protobuf 7 refuses bools in an Int64List (TF 2.21 too).
import numpy as np
import tensorflow as tf


def _bytes_feature(value):
  if isinstance(value, type(tf.constant(0))):
    value = value.numpy()
  return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))

def _float_feature(value):
  return tf.train.Feature(float_list=tf.train.FloatList(value=[value]))

def _int64_feature(value):
  return tf.train.Feature(int64_list=tf.train.Int64List(value=[int(value)]))

print(_bytes_feature(b'test_string'))
print(_bytes_feature(b'test_bytes'))
print(_float_feature(np.exp(1)))
print(_int64_feature(True))
print(_int64_feature(1))
feature = _float_feature(np.exp(1))
print(feature.SerializeToString())

n_observations = int(1e4)
feature0 = np.random.RandomState(0).choice([False, True], n_observations)
feature1 = np.random.RandomState(1).randint(0, 5, n_observations)
strings = np.array([b'cat', b'dog', b'chicken', b'horse', b'goat'])
feature2 = strings[feature1]
feature3 = np.random.RandomState(2).randn(n_observations)

def serialize_example(feature0, feature1, feature2, feature3):
  feature = {
      'feature0': _int64_feature(feature0),
      'feature1': _int64_feature(feature1),
      'feature2': _bytes_feature(feature2),
      'feature3': _float_feature(feature3),
  }
  example_proto = tf.train.Example(features=tf.train.Features(feature=feature))
  return example_proto.SerializeToString()

serialized_example = serialize_example(False, 4, b'goat', 0.9876)
example_proto = tf.train.Example.FromString(serialized_example)
print(example_proto)

print(tf.data.Dataset.from_tensor_slices(feature1))
features_dataset = tf.data.Dataset.from_tensor_slices((feature0, feature1, feature2, feature3))
print(features_dataset)
for f0, f1, f2, f3 in features_dataset.take(1):
  print(f0, f1, f2, f3)

def tf_serialize_example(f0, f1, f2, f3):
  tf_string = tf.py_function(serialize_example, (f0, f1, f2, f3), tf.string)
  return tf.reshape(tf_string, ())

print(tf_serialize_example(f0, f1, f2, f3).shape)
serialized_features_dataset = features_dataset.map(tf_serialize_example)
print(serialized_features_dataset)

def generator():
  for features in features_dataset:
    yield serialize_example(*features)

serialized_features_dataset = tf.data.Dataset.from_generator(
    generator, output_types=tf.string, output_shapes=())
print(serialized_features_dataset)
d = tempfile.mkdtemp()
filename = os.path.join(d, 'test.tfrecord')
writer = tf.data.experimental.TFRecordWriter(filename)
writer.write(serialized_features_dataset)

filenames = [filename]
raw_dataset = tf.data.TFRecordDataset(filenames)
print(raw_dataset)
for raw_record in raw_dataset.take(2):
  print(repr(raw_record)[:40], tf.train.Example.FromString(raw_record.numpy()))

feature_description = {
    'feature0': tf.io.FixedLenFeature([], tf.int64, default_value=0),
    'feature1': tf.io.FixedLenFeature([], tf.int64, default_value=0),
    'feature2': tf.io.FixedLenFeature([], tf.string, default_value=''),
    'feature3': tf.io.FixedLenFeature([], tf.float32, default_value=0.0),
}

def _parse_function(example_proto):
  return tf.io.parse_single_example(example_proto, feature_description)

parsed_dataset = raw_dataset.map(_parse_function)
print(parsed_dataset)
for parsed_record in parsed_dataset.take(3):
  print(repr(parsed_record))

with tf.io.TFRecordWriter(filename) as writer:
  for i in range(n_observations):
    example = serialize_example(feature0[i], feature1[i], feature2[i], feature3[i])
    writer.write(example)

filenames = [filename]
raw_dataset = tf.data.TFRecordDataset(filenames)
print(raw_dataset)
for raw_record in raw_dataset.take(1):
  example = tf.train.Example()
  example.ParseFromString(raw_record.numpy())
  print(example)

result = {}
for key, feature in example.features.feature.items():
  kind = feature.WhichOneof('kind')
  result[key] = np.array(getattr(feature, kind).value)
print(sorted(result.items(), key=lambda kv: kv[0]))

batched = raw_dataset.batch(1000).map(lambda b: tf.io.parse_example(b, feature_description))
for b in batched.take(1):
  print({k: v[:3] for k, v in sorted(b.items())})
print(len(list(batched)))
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
s = tf.io.serialize_tensor(x)
print(s)
print(tf.io.parse_tensor(s, out_type=tf.float32))
