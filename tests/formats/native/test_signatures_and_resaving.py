"""Default signatures chosen as TensorFlow chooses them, and a loaded model saved again (issue
26 item 8). The signature lists and values are TensorFlow 2.21's for the same programs."""

import numpy as np

import tracegraph as tf

from .fresh import run_fresh


class CustomModule(tf.Module):
    """The SavedModel guide's module: `mutate` has an input_signature and returns None."""

    def __init__(self):
        super().__init__()
        self.v = tf.Variable(1.0)

    @tf.function
    def __call__(self, x):
        return x * self.v

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def mutate(self, new_v):
        self.v.assign(new_v)


def test_a_signature_function_returning_none_is_no_default_signature(tmp_path):
    m = CustomModule()
    m(tf.constant(2.0))
    tf.saved_model.save(m, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert list(loaded.signatures.keys()) == []
    loaded.mutate(tf.constant(3.0))
    assert loaded(tf.constant(2.0)).numpy() == 6.0


def test_the_default_signature_is_the_one_valid_candidate(tmp_path):
    class Two(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def f(self, x):
            return x * 2

        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def g(self, x):
            return x * 3
    m = Two()
    tf.saved_model.save(m, str(tmp_path / "two"))
    assert list(tf.saved_model.load(str(tmp_path / "two")).signatures.keys()) == []
    holder = tf.Module()
    holder.f = m.f.get_concrete_function()      # a concrete function child is a candidate
    tf.saved_model.save(holder, str(tmp_path / "concrete"))
    loaded = tf.saved_model.load(str(tmp_path / "concrete"))
    assert list(loaded.signatures.keys()) == ["serving_default"]
    out = loaded.signatures["serving_default"](x=tf.constant([1.0, 2.0]))
    assert out["output_0"].numpy().tolist() == [2.0, 4.0]


def test_a_loaded_model_saved_again_loads_again_in_a_fresh_process(tmp_path):
    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable([1.0, 2.0])

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
        def __call__(self, x):
            return {"y": x * self.v, "s": tf.reduce_sum(x)}
    tf.saved_model.save(Model(), str(tmp_path / "a"))
    loaded = tf.saved_model.load(str(tmp_path / "a"))
    loaded.v.assign([3.0, 4.0])
    tf.saved_model.save(loaded, str(tmp_path / "b"))
    again = tf.saved_model.load(str(tmp_path / "b"))
    assert list(again.signatures.keys()) == ["serving_default"]
    np.testing.assert_array_equal(again(tf.constant([[1.0, 1.0]]))["y"].numpy(), [[3.0, 4.0]])
    out = run_fresh(f'''
        import tracegraph as tf
        loaded = tf.saved_model.load({str(tmp_path / "b")!r})
        out = loaded.signatures["serving_default"](x=tf.constant([[1.0, 1.0]]))
        print(sorted(loaded.signatures), out["y"].numpy().tolist(), float(out["s"].numpy()),
              [v.numpy().tolist() for v in loaded.variables])
        tf.saved_model.save(loaded, {str(tmp_path / "c")!r})
        print(tf.saved_model.load({str(tmp_path / "c")!r})(tf.constant([[2.0, 0.0]]))["y"]
              .numpy().tolist())
    ''', tmp_path)
    assert out.splitlines() == ["['serving_default'] [[3.0, 4.0]] 2.0 [[3.0, 4.0]]",
                                "[[6.0, 0.0]]"]


def test_tuple_attributes_round_trip(tmp_path):
    # saved, then refused by the loader before ("tuples are restored as lists"); TensorFlow
    # loads them (as lists); tracegraph keeps them tuples, shared ones shared
    m = tf.Module()
    m.t = (tf.Variable(1.0), (tf.Variable(2.0),))
    m.d = {"a": (m.t,)}
    tf.saved_model.save(m, str(tmp_path / "t"))
    loaded = tf.saved_model.load(str(tmp_path / "t"))
    assert isinstance(loaded.t, tuple) and isinstance(loaded.t[1], tuple)
    assert loaded.t[1][0].numpy() == 2.0 and loaded.d["a"][0] is loaded.t
    assert [float(v.numpy()) for v in loaded.variables] == [1.0, 2.0]
