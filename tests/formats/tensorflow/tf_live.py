"""Run by test_live_tensorflow.py under a Python that has TensorFlow 2.21 (never tracegraph's).

    python tf_live.py WORKDIR

1. TensorFlow reads what tracegraph wrote in WORKDIR/from_tracegraph: the checkpoint `ckpt`
   (TensorFlow's reader and a `tf.train.Checkpoint` restore into a matching model and a Keras
   Adam optimizer that then takes a step), stored as from_tracegraph/tf_read.npz.
2. TensorFlow writes what tracegraph reads into WORKDIR/from_tensorflow: a SavedModel of a
   module with a while loop, a cond and a variable update (`module`), a Keras model's export
   (`keras`), a checkpoint whose big tensor is sliced with offsets past 64 (`sliced/ckpt`),
   and their outputs (expected.npz).
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


class Dense(tf.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.kernel = tf.Variable(tf.zeros([n_in, n_out]))
        self.bias = tf.Variable(tf.zeros([n_out]))

    def __call__(self, x):
        return tf.matmul(x, self.kernel) + self.bias


class Regressor(tf.Module):
    def __init__(self):
        super().__init__()
        self.dense = Dense(3, 2)
        self.out = Dense(2, 1)

    def __call__(self, x):
        return self.out(tf.nn.tanh(self.dense(x)))


def read_tracegraphs_checkpoint(root):
    prefix = os.path.join(root, "ckpt")
    out = {}
    reader = tf.train.load_checkpoint(prefix)
    for key, _ in tf.train.list_variables(prefix):
        if key != "_CHECKPOINTABLE_OBJECT_GRAPH":
            out[f"reader|{key}"] = reader.get_tensor(key)
    model, optimizer = Regressor(), keras.optimizers.Adam(0.05)
    status = tf.train.Checkpoint(model=model, optimizer=optimizer).read(prefix)   # by write()
    x = np.ones((4, 3), np.float32)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x)))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))   # builds the slots
    status.assert_consumed()
    out["restored|iterations"] = optimizer.iterations.numpy()
    for i, v in enumerate(model.trainable_variables):   # by attribute path, as tracegraph's
        out[f"stepped|{i}"] = v.numpy()
    np.savez(os.path.join(root, "tf_read.npz"), **out)


class Loops(tf.Module):
    def __init__(self):
        super().__init__()
        self.total = tf.Variable(0.0)
        self.w = tf.Variable(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32),
                                  tf.TensorSpec([], tf.int32)])
    def __call__(self, x, n):
        h = tf.matmul(x, self.w)
        for i in tf.range(n):
            if tf.reduce_mean(h) > 0:
                h = tf.nn.gelu(h) - tf.cast(i, tf.float32)
            else:
                h = tf.abs(h) + 1.0
        self.total.assign_add(tf.reduce_sum(h))
        return {"h": h, "total": self.total.read_value()}


def write_for_tracegraph(root):
    os.makedirs(root, exist_ok=True)
    module = Loops()
    tf.saved_model.save(module, os.path.join(root, "module"))
    keras.utils.set_random_seed(3)
    inputs = keras.Input((5,))
    h = keras.layers.Dense(8, activation="tanh")(inputs)
    model = keras.Model(inputs, keras.layers.Dense(2, activation="softmax")(h))
    model.export(os.path.join(root, "keras"), verbose=False)
    x = np.random.default_rng(5).normal(size=(3, 4)).astype(np.float32)
    xk = np.random.default_rng(6).normal(size=(2, 5)).astype(np.float32)
    loaded = tf.saved_model.load(os.path.join(root, "module"))
    first = loaded(tf.constant(x), tf.constant(3))
    second = loaded(tf.constant(x), tf.constant(1))
    exported = tf.saved_model.load(os.path.join(root, "keras"))   # kept alive while it runs
    keras_out = exported.serve(tf.constant(xk))
    big = tf.Variable(np.arange(300 * 3, dtype=np.float32).reshape(300, 3))
    policy = tf.train.experimental.MaxShardSizePolicy(max_shard_size=400)
    tf.train.Checkpoint(big=big).write(
        os.path.join(root, "sliced", "ckpt"),
        options=tf.train.CheckpointOptions(experimental_sharding_callback=policy))
    np.savez(os.path.join(root, "expected.npz"), x=x, xk=xk, first_h=first["h"].numpy(),
             first_total=first["total"].numpy(), second_h=second["h"].numpy(),
             second_total=second["total"].numpy(), keras=keras_out.numpy(),
             big=big.numpy())


if __name__ == "__main__":
    work = sys.argv[1]
    read_tracegraphs_checkpoint(os.path.join(work, "from_tracegraph"))
    write_for_tracegraph(os.path.join(work, "from_tensorflow"))
    print("done")
