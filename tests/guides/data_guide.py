import tensorflow as tf
# The code of the guide "tf.data: Build TensorFlow input pipelines", run as a script.
# Adapted where the guide cannot run here: cells that download data use data made below
# (fashion-MNIST-like arrays, titanic-like text lines, a credit-card-like table); random
# inputs (tf.random.uniform, np.random) are deterministic values; bare expressions a notebook
# displays are printed; plots print their data; cells whose output is random (shuffled
# order, sampling) print what does not depend on the draws. Sections about files (TFRecord,
# text lines and CSV files, tf.train.Example, image decoding) and Keras are left out: the
# file readers and Keras are tested with their own issues.
import os
import pathlib
import tempfile

import numpy as np

np.set_printoptions(precision=4)
rng = np.random.RandomState(0)

# ---- Basic mechanics
dataset = tf.data.Dataset.from_tensor_slices([8, 3, 0, 8, 2, 1])
print(repr(dataset))
for elem in dataset:
  print(elem.numpy())
it = iter(dataset)
print(next(it).numpy())
print(dataset.reduce(0, lambda state, value: state + value).numpy())

# ---- Dataset structure
dataset1 = tf.data.Dataset.from_tensor_slices(tf.reshape(tf.range(40.0), [4, 10]) / 40)
print(dataset1.element_spec)
dataset2 = tf.data.Dataset.from_tensor_slices(
   (tf.range(4.0) / 4,
    tf.reshape(tf.range(400) % 100, [4, 100])))
print(dataset2.element_spec)
dataset3 = tf.data.Dataset.zip((dataset1, dataset2))
print(dataset3.element_spec)
# Dataset containing a sparse tensor.
dataset4 = tf.data.Dataset.from_tensors(tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4]))
print(dataset4.element_spec)
# Use value_type to see the type of value represented by the element spec
print(dataset4.element_spec.value_type)
dataset1 = tf.data.Dataset.from_tensor_slices(
    tf.reshape(tf.range(40) % 9 + 1, [4, 10]))
print(repr(dataset1))
for z in dataset1:
  print(z.numpy())
dataset2 = tf.data.Dataset.from_tensor_slices(
   (tf.range(4.0) / 4,
    tf.reshape(tf.range(400) % 100, [4, 100])))
print(repr(dataset2))
dataset3 = tf.data.Dataset.zip((dataset1, dataset2))
print(repr(dataset3))
for a, (b,c) in dataset3:
  print('shapes: {a.shape}, {b.shape}, {c.shape}'.format(a=a, b=b, c=c))

# ---- Consuming NumPy arrays (fashion-MNIST's shapes and dtypes, made here)
images = (np.arange(6000 * 28 * 28) % 256).astype(np.uint8).reshape(6000, 28, 28)
labels = (np.arange(6000) % 10).astype(np.uint8)
train = images, labels
images, labels = train
images = images/255
dataset = tf.data.Dataset.from_tensor_slices((images, labels))
print(repr(dataset))

# ---- Consuming Python generators
def count(stop):
  i = 0
  while i<stop:
    yield i
    i += 1
for n in count(5):
  print(n)
ds_counter = tf.data.Dataset.from_generator(count, args=[25], output_types=tf.int32, output_shapes = (), )
for count_batch in ds_counter.repeat().batch(10).take(10):
  print(count_batch.numpy())
def gen_series():
  i = 0
  while True:
    size = rng.randint(0, 10)
    yield i, rng.normal(size=(size,))
    i += 1
for i, series in gen_series():
  print(i, ":", str(series))
  if i > 5:
    break
ds_series = tf.data.Dataset.from_generator(
    gen_series,
    output_types=(tf.int32, tf.float32),
    output_shapes=((), (None,)))
print(repr(ds_series))
ds_series_batch = ds_series.shuffle(20).padded_batch(10)
ids, sequence_batch = next(iter(ds_series_batch))
print(ids.shape, ids.dtype)
print()
print(sequence_batch.shape[0], sequence_batch.dtype)

# ---- Consuming sets of files (the files are made here)
flowers_root = pathlib.Path(tempfile.mkdtemp())
for kind in ["daisy", "roses", "tulips"]:
  os.makedirs(flowers_root / kind)
  for k in range(4):
    (flowers_root / kind / f"{kind}_{k}.jpg").write_bytes(bytes([k] * 10))
for item in sorted(flowers_root.glob("*")):
  print(item.name)
list_ds = tf.data.Dataset.list_files(str(flowers_root/'*/*'))
print(len(list(list_ds)), list_ds.element_spec)
for f in tf.data.Dataset.list_files(str(flowers_root/'*/*'), shuffle=False).take(5):
  print(f.numpy().decode()[len(str(flowers_root)):])
def process_path(file_path):
  label = tf.strings.split(file_path, os.sep)[-2]
  return file_path, label
labeled_ds = tf.data.Dataset.list_files(str(flowers_root/'*/*'), shuffle=False).map(process_path)
for path_text, label_text in labeled_ds.take(1):
  print(label_text.numpy())

# ---- Simple batching
inc_dataset = tf.data.Dataset.range(100)
dec_dataset = tf.data.Dataset.range(0, -100, -1)
dataset = tf.data.Dataset.zip((inc_dataset, dec_dataset))
batched_dataset = dataset.batch(4)
for batch in batched_dataset.take(4):
  print([arr.numpy() for arr in batch])
print(repr(batched_dataset))
batched_dataset = dataset.batch(7, drop_remainder=True)
print(repr(batched_dataset))

# ---- Batching tensors with padding
dataset = tf.data.Dataset.range(100)
dataset = dataset.map(lambda x: tf.fill([tf.cast(x, tf.int32)], x))
dataset = dataset.padded_batch(4, padded_shapes=(None,))
for batch in dataset.take(2):
  print(batch.numpy())
  print()

# ---- Processing multiple epochs (titanic's 628 lines, made here)
titanic_lines = tf.data.Dataset.from_tensor_slices(
    ["survived,sex,age"] + [f"{k % 2},{'male' if k % 3 else 'female'},{20 + k % 40}"
                            for k in range(627)])
def plot_batch_sizes(ds):
  batch_sizes = [batch.shape[0] for batch in ds]
  print(batch_sizes)
titanic_batches = titanic_lines.repeat(3).batch(128)
plot_batch_sizes(titanic_batches)
titanic_batches = titanic_lines.batch(128).repeat(3)
plot_batch_sizes(titanic_batches)
epochs = 3
dataset = titanic_lines.batch(128)
for epoch in range(epochs):
  for batch in dataset:
    print(batch.shape)
  print("End of epoch: ", epoch)

# ---- Randomly shuffling input data
lines = titanic_lines
counter = tf.data.experimental.Counter()
dataset = tf.data.Dataset.zip((counter, lines))
dataset = dataset.shuffle(buffer_size=100)
dataset = dataset.batch(20)
print(repr(dataset))
n,line_batch = next(iter(dataset))
print(n.shape, bool(np.max(n.numpy()) < 120))
dataset = tf.data.Dataset.zip((counter, lines))
shuffled = dataset.shuffle(buffer_size=100).batch(10).repeat(2)
print("Here are the item ID's near the epoch boundary:\n")
for n, line_batch in shuffled.skip(60).take(5):
  print(n.shape)
shuffle_repeat = [n.numpy().mean() for n, line_batch in shuffled]
print(len(shuffle_repeat))
dataset = tf.data.Dataset.zip((counter, lines))
shuffled = dataset.repeat(2).shuffle(buffer_size=100).batch(10)
print("Here are the item ID's near the epoch boundary:\n")
for n, line_batch in shuffled.skip(55).take(15):
  print(n.shape)
repeat_shuffle = [n.numpy().mean() for n, line_batch in shuffled]
print(len(repeat_shuffle))

# ---- Time series windowing
range_ds = tf.data.Dataset.range(100000)
batches = range_ds.batch(10, drop_remainder=True)
for batch in batches.take(5):
  print(batch.numpy())
def dense_1_step(batch):
  # Shift features and labels one step relative to each other.
  return batch[:-1], batch[1:]
predict_dense_1_step = batches.map(dense_1_step)
for features, label in predict_dense_1_step.take(3):
  print(features.numpy(), " => ", label.numpy())
batches = range_ds.batch(15, drop_remainder=True)
def label_next_5_steps(batch):
  return (batch[:-5],   # Take the first 5 steps
          batch[-5:])   # take the remainder
predict_5_steps = batches.map(label_next_5_steps)
for features, label in predict_5_steps.take(3):
  print(features.numpy(), " => ", label.numpy())
feature_length = 10
label_length = 3
features = range_ds.batch(feature_length, drop_remainder=True)
labels = range_ds.batch(feature_length).skip(1).map(lambda labels: labels[:label_length])
predicted_steps = tf.data.Dataset.zip((features, labels))
for features, label in predicted_steps.take(5):
  print(features.numpy(), " => ", label.numpy())
window_size = 5
windows = range_ds.window(window_size, shift=1)
for sub_ds in windows.take(5):
  print(sub_ds)
for x in windows.flat_map(lambda x: x).take(30):
   print(x.numpy(), end=' ')
print()
def sub_to_batch(sub):
  return sub.batch(window_size, drop_remainder=True)
for example in windows.flat_map(sub_to_batch).take(5):
  print(example.numpy())
def make_window_dataset(ds, window_size=5, shift=1, stride=1):
  windows = ds.window(window_size, shift=shift, stride=stride)
  def sub_to_batch(sub):
    return sub.batch(window_size, drop_remainder=True)
  windows = windows.flat_map(sub_to_batch)
  return windows
ds = make_window_dataset(range_ds, window_size=10, shift = 5, stride=3)
for example in ds.take(10):
  print(example.numpy())
dense_labels_ds = ds.map(dense_1_step)
for inputs,labels in dense_labels_ds.take(3):
  print(inputs.numpy(), "=>", labels.numpy())

# ---- Resampling (a credit-card-like table: 2 features, 2% positive, made here)
table_rng = np.random.RandomState(1)
fraud = (table_rng.uniform(size=20000) < 0.02).astype(np.int32)
table = {"Time": np.arange(20000, dtype=np.float32),
         "Amount": table_rng.uniform(size=20000).astype(np.float32)}
creditcard_ds = tf.data.Dataset.from_tensor_slices((table, fraud)).batch(1024)
def count(counts, batch):
  features, labels = batch
  class_1 = labels == 1
  class_1 = tf.cast(class_1, tf.int32)
  class_0 = labels == 0
  class_0 = tf.cast(class_0, tf.int32)
  counts['class_0'] += tf.reduce_sum(class_0)
  counts['class_1'] += tf.reduce_sum(class_1)
  return counts
counts = creditcard_ds.take(10).reduce(
    initial_state={'class_0': 0, 'class_1': 0},
    reduce_func = count)
counts = np.array([counts['class_0'].numpy(),
                   counts['class_1'].numpy()]).astype(np.float32)
fractions = counts/counts.sum()
print(fractions)
negative_ds = (
  creditcard_ds
    .unbatch()
    .filter(lambda features, label: label==0)
    .repeat())
positive_ds = (
  creditcard_ds
    .unbatch()
    .filter(lambda features, label: label==1)
    .repeat())
for features, label in positive_ds.batch(10).take(1):
  print(label.numpy())
balanced_ds = tf.data.Dataset.sample_from_datasets(
    [negative_ds, positive_ds], [0.5, 0.5]).batch(10)
for features, labels in balanced_ds.take(10):
  print(labels.shape, labels.dtype)
def class_func(features, label):
  return label
resampler = tf.data.experimental.rejection_resample(
    class_func, target_dist=[0.5, 0.5], initial_dist=fractions)
resample_ds = creditcard_ds.unbatch().apply(resampler).batch(10)
balanced_ds = resample_ds.map(lambda extra_label, features_and_label: features_and_label)
for features, labels in balanced_ds.take(10):
  print(labels.shape, labels.dtype)

# ---- Iterator checkpointing
range_ds = tf.data.Dataset.range(20)
iterator = iter(range_ds)
ckpt = tf.train.Checkpoint(step=tf.Variable(0), iterator=iterator)
manager = tf.train.CheckpointManager(ckpt, tempfile.mkdtemp(), max_to_keep=3)
print([next(iterator).numpy() for _ in range(5)])
save_path = manager.save()
print([next(iterator).numpy() for _ in range(5)])
ckpt.restore(manager.latest_checkpoint)
print([next(iterator).numpy() for _ in range(5)])
