"""tf.saved_model.save/load in one process: the API's behaviour, errors and integrity."""

import json
import os

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.formats.native import graph_codec

from ..catalogue import Holder, SequentialModule


def _model():
    m = SequentialModule()
    m(tf.constant([[1.0, 2.0, 3.0]]))
    return m


def test_loaded_functions_dispatch_and_reject_unsaved_signatures(tmp_path):
    m = _model()
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    x = tf.constant([[1.0, 2.0, 3.0]])
    np.testing.assert_array_equal(loaded(x).numpy(), m(x).numpy())
    with pytest.raises(ValueError, match="Could not find matching concrete function") as e:
        loaded(tf.constant([[1, 2, 3]]))
    # the options print as TensorFlow 2.21 prints concrete functions (issue 14 item 14)
    assert "Option 1" in str(e.value) and \
        "TensorSpec(shape=(1, 3), dtype=tf.float32, name=None)" in str(e.value)
    assert len(loaded.__call__.concrete_functions) == 1


def test_input_signature_traces_at_save_and_serves_a_signature(tmp_path):
    class Model:
        def __init__(self):
            self.w = tf.Variable([[2.0], [3.0]])

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def predict(self, x):
            return tf.matmul(x, self.w)
    m = Model()  # never called: saving traces the input signature
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    x = tf.constant([[1.0, 1.0], [2.0, 0.0]])
    assert loaded.predict(x).numpy().tolist() == [[5.0], [4.0]]
    assert loaded.predict([[1.0, 0.0]]).numpy().tolist() == [[2.0]]  # converted like TF
    serve = loaded.signatures["serving_default"]
    out = serve(x=x)
    assert list(out) == ["output_0"] and out["output_0"].numpy().tolist() == [[5.0], [4.0]]
    with pytest.raises(TypeError, match="positional"):
        serve(x)
    with pytest.raises(TypeError, match="keyword"):
        serve(y=x)


def test_explicit_signatures_and_dict_outputs(tmp_path):
    @tf.function
    def f(a, b):
        return {"sum": a + b, "prod": a * b}
    h = Holder()
    h.f = f
    cf = f.get_concrete_function(tf.TensorSpec([3], tf.float32, name="a"),
                                 tf.TensorSpec([3], tf.float32, name="b"))
    tf.saved_model.save(h, str(tmp_path), signatures={"serving_default": cf, "other": cf})
    loaded = tf.saved_model.load(str(tmp_path))
    assert sorted(loaded.signatures) == ["other", "serving_default"]
    out = loaded.signatures["other"](a=tf.constant([1.0, 2, 3]), b=tf.constant([2.0, 2, 2]))
    assert sorted(out) == ["prod", "sum"] and out["prod"].numpy().tolist() == [2.0, 4.0, 6.0]


def test_loaded_variables_are_assignable_and_shared_by_functions(tmp_path):
    m = _model()
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    x = tf.constant([[1.0, 2.0, 3.0]])
    assert loaded.layers[0] is loaded.dense_1          # shared objects stay shared
    loaded.dense_2.b.assign([10.0, 20.0])
    m.dense_2.b.assign([10.0, 20.0])
    np.testing.assert_array_equal(loaded(x).numpy(), m(x).numpy())
    assert len(loaded.variables) == 4 and len(loaded.trainable_variables) == 4


def test_saving_again_replaces_the_directory_atomically(tmp_path):
    m = _model()
    target = tmp_path / "model"
    tf.saved_model.save(m, str(target))
    m.dense_1.b.assign([1.0, 1.0, 1.0])
    tf.saved_model.save(m, str(target))
    assert sorted(os.listdir(tmp_path)) == ["model"]   # no temporary directories left over
    loaded = tf.saved_model.load(str(target))
    assert loaded.dense_1.b.numpy().tolist() == [1.0, 1.0, 1.0]


def test_a_failed_save_leaves_the_previous_directory(tmp_path, monkeypatch):
    from tracegraph.formats.native import saving
    m = _model()
    target = tmp_path / "model"
    tf.saved_model.save(m, str(target))

    def crash(*_):
        raise OSError("disk full")
    monkeypatch.setattr(saving, "write_npz", crash)
    with pytest.raises(OSError):
        tf.saved_model.save(m, str(target))
    assert sorted(os.listdir(tmp_path)) == ["model"]
    tf.saved_model.load(str(target))


def test_untracked_variables_are_an_error_at_save(tmp_path):
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        return x * v
    f(tf.constant(2.0))
    h = Holder()
    h.f = f
    with pytest.raises(ValueError, match="untracked"):
        tf.saved_model.save(h, str(tmp_path / "m"))
    assert not (tmp_path / "m").exists()


def test_ops_that_run_python_are_rejected_at_save(tmp_path, monkeypatch):
    @tf.function
    def f(x):
        return tf.sin(x)
    f(tf.constant(1.0))
    h = Holder()
    h.f = f
    monkeypatch.setattr(graph_codec, "UNSAVEABLE_FLAGS", frozenset({"elementwise"}))
    with pytest.raises(ValueError, match=r"op 'Sin' \(Sin\) runs Python code"):
        tf.saved_model.save(h, str(tmp_path / "m"))


def test_python_object_arguments_cannot_be_saved(tmp_path):
    @tf.function
    def f(x, obj):
        return x + 1.0
    f(tf.constant(1.0), object())
    h = Holder()
    h.f = f
    with pytest.raises(ValueError, match="Python scalars, strings or None"):
        tf.saved_model.save(h, str(tmp_path / "m"))


def test_python_arguments_are_part_of_the_saved_signature(tmp_path):
    @tf.function
    def scale(x, factor=2, mode="mul"):
        return x * factor if mode == "mul" else x + factor
    h = Holder()
    h.scale = scale
    scale(tf.constant(1.0))
    scale(tf.constant(1.0), 3, mode="add")
    tf.saved_model.save(h, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert loaded.scale(tf.constant(5.0)).numpy() == 10.0
    assert loaded.scale(tf.constant(5.0), 3, mode="add").numpy() == 8.0
    with pytest.raises(ValueError, match="Could not find matching"):
        loaded.scale(tf.constant(5.0), 4)


def test_loaded_functions_compose_inside_new_functions(tmp_path):
    m = _model()
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))

    @tf.function
    def twice(x):
        return loaded(x) * 2.0
    x = tf.constant([[1.0, 2.0, 3.0]])
    np.testing.assert_array_equal(twice(x).numpy(), m(x).numpy() * 2.0)


def test_loaded_graphs_go_through_the_optimizer_and_code_generator(tmp_path):
    m = _model()
    tf.saved_model.save(m, str(tmp_path), options=tf.saved_model.SaveOptions(
        save_debug_info=True))
    loaded = tf.saved_model.load(str(tmp_path))
    cf = loaded.__call__.concrete_functions[0]
    x = tf.constant([[1.0, 2.0, 3.0]])
    loaded(x)
    assert cf.optimizer_report is not None and "def " in cf.generated_code
    original = m.__call__.get_concrete_function(x)
    assert cf.graph.to_text() == original.graph.to_text()   # the same IR, printed
    m(x)
    assert cf.generated_code == original.generated_code     # so the same code runs


def test_source_locations_are_saved_with_debug_info(tmp_path):
    m = _model()
    tf.saved_model.save(m, str(tmp_path / "plain"))
    doc = json.loads((tmp_path / "plain" / "saved_model.json").read_text())
    assert not any("source" in op for g in doc["graphs"] for op in g["ops"])
    options = tf.saved_model.SaveOptions(save_debug_info=True)
    tf.saved_model.save(m, str(tmp_path / "debug"), options=options)
    doc = json.loads((tmp_path / "debug" / "saved_model.json").read_text())
    sources = [op["source"] for g in doc["graphs"] for op in g["ops"] if "source" in op]
    assert any(s[0].endswith("catalogue.py") for s in sources)
    loaded = tf.saved_model.load(str(tmp_path / "debug"))
    assert "catalogue.py" in loaded.__call__.concrete_functions[0].graph.to_text() or any(
        op.source is not None and op.source.filename.endswith("catalogue.py")
        for op in loaded.__call__.concrete_functions[0].graph.get_operations())


def test_large_constants_are_stored_beside_the_json(tmp_path):
    big = np.arange(4096, dtype=np.float32)

    @tf.function
    def f(x):
        return x + big
    f(tf.zeros([4096]))
    h = Holder()
    h.f = f
    tf.saved_model.save(h, str(tmp_path))
    assert (tmp_path / "saved_model.json").stat().st_size < 8000
    loaded = tf.saved_model.load(str(tmp_path))
    np.testing.assert_array_equal(loaded.f(tf.ones([4096])).numpy(), big + 1)


def test_errors_name_the_file_and_the_field(tmp_path):
    m = _model()
    tf.saved_model.save(m, str(tmp_path))
    path = tmp_path / "saved_model.json"
    doc = json.loads(path.read_text())
    doc["graphs"][0]["ops"][1]["type"] = "NoSuchOp"
    _rewrite(tmp_path, doc)
    with pytest.raises(tf.saved_model.SavedDataError) as e:
        tf.saved_model.load(str(tmp_path))
    assert e.value.file == str(path) and e.value.field == "graphs[0].ops[1].type"
    assert isinstance(e.value, ValueError) and isinstance(e.value, tf.errors.DataLossError)


def test_schema_version_is_checked(tmp_path):
    m = _model()
    tf.saved_model.save(m, str(tmp_path))
    doc = json.loads((tmp_path / "saved_model.json").read_text())
    doc["version"] = 99
    _rewrite(tmp_path, doc)
    with pytest.raises(tf.saved_model.SavedDataError, match="version 99 is not supported"):
        tf.saved_model.load(str(tmp_path))


def test_a_modified_file_fails_its_checksum(tmp_path):
    m = _model()
    tf.saved_model.save(m, str(tmp_path))
    data = bytearray((tmp_path / "variables.npz").read_bytes())
    data[200] ^= 1
    (tmp_path / "variables.npz").write_bytes(bytes(data))
    with pytest.raises(tf.saved_model.SavedDataError, match="checksum mismatch"):
        tf.saved_model.load(str(tmp_path))


def _rewrite(directory, doc):
    """Writes a modified saved_model.json with a matching manifest (to reach the validators)."""
    from tracegraph.formats.native.saving import write_manifest
    (directory / "saved_model.json").write_text(json.dumps(doc))
    write_manifest(directory)


def _module_base():
    return getattr(tf, "Module", object)   # tf.Module once it exists; the same shape before


def test_a_loaded_model_keeps_training_like_the_original(tmp_path):
    if not hasattr(tf, "GradientTape"):
        pytest.skip("needs tf.GradientTape (automatic differentiation)")

    class Dense(_module_base()):
        def __init__(self, n_in, n_out, seed):
            super().__init__()
            rng = np.random.default_rng(seed)
            self.w = tf.Variable(rng.normal(size=(n_in, n_out)).astype(np.float32))
            self.b = tf.Variable(np.zeros(n_out, np.float32))

        def __call__(self, x):
            return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    class Model(_module_base()):
        def __init__(self):
            super().__init__()
            self.layers = [Dense(3, 4, 0), Dense(4, 1, 1)]

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def __call__(self, x):
            for layer in self.layers:
                x = layer(x)
            return x
    model = Model()
    tf.saved_model.save(model, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    x = tf.constant(np.random.default_rng(2).normal(size=(8, 3)).astype(np.float32))
    y = tf.ones([8, 1])

    def train(m, variables):
        losses = []
        for _ in range(3):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((m(x) - y) ** 2)
            for v, g in zip(variables, tape.gradient(loss, variables)):
                v.assign_sub(0.1 * g)
            losses.append(loss.numpy())
        return losses
    order = [layer_var for layer in model.layers for layer_var in (layer.w, layer.b)]
    loaded_order = [v for layer in loaded.layers for v in (layer.w, layer.b)]
    assert train(model, order) == train(loaded, loaded_order)


def test_variable_arguments_and_nested_calls_with_captured_variables(tmp_path):
    h = Holder()
    h.v = tf.Variable([1.0, 2.0])
    h.k = tf.Variable(3.0)

    @tf.function
    def inner(x):
        h.k.assign_add(1.0)
        return x * h.v * h.k

    @tf.function
    def outer(x):
        return inner(x) + tf.cond(tf.reduce_sum(x) > 0, lambda: h.v * 2.0, lambda: h.v)

    @tf.function
    def accumulate(var, x):
        var.assign_add(x)
        return var.read_value()
    h.outer, h.accumulate = outer, accumulate
    x = tf.constant([1.0, 1.0])
    outer(x)
    accumulate(h.v, tf.constant([0.5, 0.5]))
    tf.saved_model.save(h, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    np.testing.assert_array_equal(loaded.outer(x).numpy(), outer(x).numpy())
    assert loaded.k.numpy() == h.k.numpy() == 5.0
    w = tf.Variable([10.0, 10.0])
    assert loaded.accumulate(w, tf.constant([1.0, 2.0])).numpy().tolist() == [11.0, 12.0]
    assert w.numpy().tolist() == [11.0, 12.0]
    with pytest.raises(ValueError, match="Could not find matching"):
        loaded.accumulate(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0]))
