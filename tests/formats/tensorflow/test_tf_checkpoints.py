"""TensorFlow's checkpoints through tf.train: TensorFlow-written ones read (load_checkpoint,
list_variables, load_variable) and restored by object graph with TensorFlow's rules (partial
and deferred restoration, optimizer slots, the status assertions); checkpoints written in
TensorFlow's format restore the same objects."""

import os
import shutil

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.formats.tensorflow.tf_checkpoint import is_tensorflow_checkpoint

from .fixtures_util import FIXTURES

pytest.importorskip("google_crc32c")
ADAM = FIXTURES / "ckpt_adam"
V1 = FIXTURES / "ckpt_v1_slots"
DTYPES = FIXTURES / "ckpt_dtypes"


def _expected(where) -> dict:
    return dict(np.load(where / "expected.npz", allow_pickle=True))


class Dense(tf.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.kernel = tf.Variable(np.zeros((n_in, n_out), np.float32))
        self.bias = tf.Variable(np.zeros(n_out, np.float32))

    def __call__(self, x):
        return tf.matmul(x, self.kernel) + self.bias


class Regressor(tf.Module):
    """The model of make_fixtures.py, on tracegraph."""

    def __init__(self):
        super().__init__()
        self.dense = Dense(3, 2)
        self.out = Dense(2, 1)

    def __call__(self, x):
        return self.out(tf.nn.tanh(self.dense(x)))


def _step(model, optimizer):
    x = np.ones((4, 3), np.float32)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x)))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


# ---- reading -------------------------------------------------------------------------------------

def test_load_checkpoint_reads_tensorflows_checkpoint_as_tensorflow_does():
    reader = tf.train.load_checkpoint(str(DTYPES / "ckpt"))
    expected = _expected(DTYPES)
    shapes = reader.get_variable_to_shape_map()
    dtypes = reader.get_variable_to_dtype_map()
    assert sorted(shapes) == sorted(expected)
    assert shapes["values/big/.ATTRIBUTES/VARIABLE_VALUE"] == [40, 40]
    assert dtypes["values/bf16/.ATTRIBUTES/VARIABLE_VALUE"] is tf.bfloat16
    assert dtypes["_CHECKPOINTABLE_OBJECT_GRAPH"] is tf.string
    assert reader.has_tensor("values/i8/.ATTRIBUTES/VARIABLE_VALUE")
    scalar = reader.get_tensor("values/scalar/.ATTRIBUTES/VARIABLE_VALUE")
    assert isinstance(scalar, np.float32) and scalar == 3.25     # a NumPy scalar, as TF's
    assert isinstance(reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH"), bytes)
    np.testing.assert_array_equal(reader.get_tensor("values/i64/.ATTRIBUTES/VARIABLE_VALUE"),
                                  expected["values/i64/.ATTRIBUTES/VARIABLE_VALUE"])
    with pytest.raises(tf.errors.NotFoundError, match="Key nope not found in checkpoint"):
        reader.get_tensor("nope")


def test_list_and_load_variables_of_a_directory():
    listed = tf.train.list_variables(str(ADAM))
    assert listed[0] == ("_CHECKPOINTABLE_OBJECT_GRAPH", [])
    assert ("optimizer/_variables/9/.ATTRIBUTES/VARIABLE_VALUE", [2, 1]) in listed
    assert [k for k, _ in listed] == sorted(k for k, _ in listed)
    np.testing.assert_array_equal(
        tf.train.load_variable(str(ADAM), "model/out/kernel/.ATTRIBUTES/VARIABLE_VALUE"),
        _expected(ADAM)["model/out/kernel/.ATTRIBUTES/VARIABLE_VALUE"])
    assert tf.train.latest_checkpoint(str(ADAM)).endswith("ckpt-1")
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files"):
        tf.train.load_checkpoint(str(ADAM / "ckpt-7"))


def test_a_state_file_with_tensorflows_timestamps(tmp_path):
    shutil.copytree(ADAM, tmp_path / "c")
    (tmp_path / "c" / "checkpoint").write_text(
        'model_checkpoint_path: "ckpt-1"\nall_model_checkpoint_paths: "ckpt-1"\n'
        "all_model_checkpoint_timestamps: 1732480000.5\nlast_preserved_timestamp: 1.7e9\n")
    assert tf.train.latest_checkpoint(str(tmp_path / "c")).endswith("ckpt-1")


# ---- restoring -----------------------------------------------------------------------------------

def test_restore_matches_by_object_path_and_restores_adam_slots_when_built():
    model, optimizer = Regressor(), tf.optimizers.Adam(0.01)
    ckpt = tf.train.Checkpoint(model=model, optimizer=optimizer)
    status = ckpt.restore(tf.train.latest_checkpoint(str(ADAM)))
    expected = _expected(ADAM)
    np.testing.assert_array_equal(model.dense.kernel.numpy(),
                                  expected["model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE"])
    assert optimizer.iterations.numpy() == 3 and ckpt.save_counter.numpy() == 1
    assert optimizer.learning_rate.numpy() == np.float32(0.05)
    status.assert_existing_objects_matched()
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint "
                                             "optimizer._variables.2"):
        status.assert_consumed()          # the slots do not exist until the first step
    momentum = expected["optimizer/_variables/2/.ATTRIBUTES/VARIABLE_VALUE"]
    optimizer.build(model.trainable_variables)       # creating them restores them (deferred)
    np.testing.assert_array_equal(optimizer._momentums[0].numpy(), momentum)
    np.testing.assert_array_equal(optimizer._velocities[3].numpy(),
                                  expected["optimizer/_variables/9/.ATTRIBUTES/VARIABLE_VALUE"])
    assert status.assert_consumed() is status
    status.assert_nontrivial_match()


def test_training_resumes_where_tensorflow_stopped():
    """After restoring, one step equals the step TensorFlow's Adam takes from those values."""
    model, optimizer = Regressor(), tf.optimizers.Adam(0.05)
    tf.train.Checkpoint(model=model, optimizer=optimizer).restore(str(ADAM / "ckpt-1"))
    before = model.out.bias.numpy().copy()
    _step(model, optimizer)
    assert optimizer.iterations.numpy() == 4
    assert not np.array_equal(model.out.bias.numpy(), before)


def test_deferred_restoration_through_checkpoint_and_module_attributes():
    ckpt = tf.train.Checkpoint()
    status = ckpt.restore(str(ADAM / "ckpt-1"))
    model = Regressor()
    del model.out
    ckpt.model = model                          # restores model.dense now
    expected = _expected(ADAM)
    np.testing.assert_array_equal(model.dense.bias.numpy(),
                                  expected["model/dense/bias/.ATTRIBUTES/VARIABLE_VALUE"])
    model.out = Dense(2, 1)                     # and model.out when it appears
    np.testing.assert_array_equal(model.out.kernel.numpy(),
                                  expected["model/out/kernel/.ATTRIBUTES/VARIABLE_VALUE"])
    status.assert_existing_objects_matched()
    with pytest.raises(AssertionError, match="optimizer"):
        status.assert_consumed()
    assert status.expect_partial() is status


def test_partial_restore_rules():
    class Bigger(Regressor):
        def __init__(self):
            super().__init__()
            self.extra = tf.Variable(1.0)

    model = Bigger()
    status = tf.train.Checkpoint(model=model).restore(str(ADAM / "ckpt-1"))
    with pytest.raises(AssertionError, match="1 Python objects that were not bound"):
        status.assert_existing_objects_matched()
    unrelated = tf.train.Checkpoint(other=tf.Variable(1.0)).read(str(ADAM / "ckpt-1"))
    with pytest.raises(AssertionError, match="Nothing except the root"):
        unrelated.assert_nontrivial_match()


def test_mismatched_values_raise_tensorflows_errors():
    model = Regressor()
    model.dense.kernel = tf.Variable(np.zeros((3, 5), np.float32))
    with pytest.raises(ValueError, match="incompatible tensor with shape \\[3, 2\\]"):
        tf.train.Checkpoint(model=model).restore(str(ADAM / "ckpt-1"))
    model.dense.kernel = tf.Variable(np.zeros((3, 2), np.float64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected dtype float64 does not "
                                                            "equal original dtype float32"):
        tf.train.Checkpoint(model=model).restore(str(ADAM / "ckpt-1"))


class SlotOptimizer:
    """An optimizer with TensorFlow 1's slot API (`get_slot`), as tf.compat.v1's have."""

    def __init__(self, variables):
        self.slots = {(id(v), name): tf.Variable(np.zeros(v.shape.as_list(), np.float32))
                      for v in variables for name in ("m", "v")}
        self.beta1_power = tf.Variable(0.0)
        self.beta2_power = tf.Variable(0.0)

    def get_slot(self, var, name):
        return self.slots.get((id(var), name))


def test_slot_variables_of_tensorflow_1_optimizers():
    model = Regressor()
    optimizer = SlotOptimizer([model.dense.kernel, model.dense.bias, model.out.kernel,
                               model.out.bias])
    status = tf.train.Checkpoint(model=model, optimizer=optimizer).read(str(V1 / "ckpt"))
    expected = _expected(V1)
    key = "model/dense/kernel/.OPTIMIZER_SLOT/optimizer/v/.ATTRIBUTES/VARIABLE_VALUE"
    np.testing.assert_array_equal(optimizer.get_slot(model.dense.kernel, "v").numpy(),
                                  expected[key])
    assert optimizer.beta1_power.numpy() == expected[
        "optimizer/beta1_power/.ATTRIBUTES/VARIABLE_VALUE"]
    status.assert_consumed()


# ---- writing -------------------------------------------------------------------------------------

class Everything(tf.Module):
    def __init__(self):
        super().__init__()
        self.f = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))
        self.h = tf.Variable(np.array([0.5, -2.0], np.float16))
        self.b = tf.Variable(tf.constant([1.5, -3.0], tf.bfloat16))
        self.i = tf.Variable(np.array([2**40], np.int64))
        self.flags = tf.Variable([True, False])
        self.words = tf.Variable([b"a", b"", "\u00e9".encode()])
        self.table = {"a/b": tf.Variable(1.0), "c.d": tf.Variable(2.0)}
        self.same = [self.f]                     # one Variable by two paths: saved once


def test_write_in_tensorflows_format_and_read_back(tmp_path):
    saved = Everything()
    ckpt = tf.train.Checkpoint(model=saved)
    prefix = ckpt.write(str(tmp_path / "ckpt"), format="tensorflow")
    assert is_tensorflow_checkpoint(prefix)
    keys = dict(tf.train.list_variables(prefix))
    assert "model/table/a.Sb/.ATTRIBUTES/VARIABLE_VALUE" in keys      # TF's escaping of / .
    assert "model/table/c..d/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert "model/f/.ATTRIBUTES/VARIABLE_VALUE" in keys and not any("same" in k for k in keys)
    fresh = Everything()
    for v in fresh.trainable_variables:
        v.assign(tf.zeros_like(v)) if v.dtype is not tf.string else v.assign(["", "", ""])
    status = tf.train.Checkpoint(model=fresh).read(prefix)
    status.assert_consumed()
    for a, b in zip(saved.variables, fresh.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_save_numbers_checkpoints_and_records_them(tmp_path):
    model = Regressor()
    ckpt = tf.train.Checkpoint(model=model)
    first = ckpt.save(str(tmp_path / "run" / "ckpt"), format="tensorflow")
    second = ckpt.save(str(tmp_path / "run" / "ckpt"), format="tensorflow")
    assert os.path.basename(first) == "ckpt-1" and os.path.basename(second) == "ckpt-2"
    assert tf.train.latest_checkpoint(str(tmp_path / "run")) == second
    again = tf.train.Checkpoint(model=Regressor())
    again.restore(str(tmp_path / "run")).assert_consumed()
    assert again.save_counter.numpy() == 2
    with pytest.raises(ValueError, match="format must be"):
        ckpt.write(str(tmp_path / "x"), format="tf")


def test_load_checkpoint_reads_tracegraphs_own_format_too(tmp_path):
    model = Regressor()
    model.out.bias.assign([2.5])
    prefix = tf.train.Checkpoint(model=model).write(str(tmp_path / "native"))
    assert not is_tensorflow_checkpoint(prefix)
    reader = tf.train.load_checkpoint(prefix)
    key = "model/out/bias/.ATTRIBUTES/VARIABLE_VALUE"
    assert reader.has_tensor(key) and reader.get_variable_to_shape_map()[key] == [1]
    assert reader.get_variable_to_dtype_map()[key] is tf.float32
    np.testing.assert_array_equal(reader.get_tensor(key), [2.5])
    with pytest.raises(tf.errors.NotFoundError):
        reader.get_tensor("nope")
