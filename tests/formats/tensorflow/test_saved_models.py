"""SavedModels TensorFlow 2.21 wrote (fixtures/make_fixtures.py) load and run on tracegraph with
TensorFlow's outputs: signatures, restored tf.functions with their concrete signatures,
Variables from the bundle, control flow, state, gradients; op types are listed before anything
runs, and an op tracegraph lacks is named with the function that uses it."""

import io

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.formats.native.saved_model_cli import main as cli
from tracegraph.formats.tensorflow import op_types, unsupported_op_types
from tracegraph.formats.tensorflow.format_errors import UnsupportedOpError
from tracegraph.formats.tensorflow.messages import messages

from .fixtures_util import FIXTURES, SAVED_MODELS, copy_fixture, expected_calls

pytest.importorskip("google_crc32c")


def _call(loaded, call: str, inputs: dict) -> dict:
    kind, rest = call.split(".", 1)
    if kind == "signature":
        out = loaded.signatures[rest.split(".")[0]](**{k: tf.constant(v)
                                                       for k, v in inputs.items()})
        return {k: v.numpy() for k, v in out.items()}
    name = rest.split(".")[0]
    fn = loaded if name == "__call__" else getattr(loaded, name)
    args = [tf.constant(inputs[str(i)]) for i in range(len(inputs))]
    if rest == "scaled.factor3":
        out = fn(*args, 3.0)
        return {k: v.numpy() for k, v in out.items()}
    return {str(i): o.numpy() for i, o in enumerate(tf.nest.flatten(fn(*args)))}


@pytest.mark.parametrize("name", SAVED_MODELS)
def test_tensorflow_saved_models_give_tensorflows_outputs(name):
    loaded = tf.saved_model.load(str(FIXTURES / name))
    for call, (inputs, outputs) in expected_calls(name).items():   # in the order TF ran them
        got = _call(loaded, call, inputs)
        assert sorted(got) == sorted(outputs), call
        for key, want in outputs.items():
            assert got[key].dtype == want.dtype and got[key].shape == want.shape, (call, key)
            np.testing.assert_allclose(got[key], want, rtol=1e-5, atol=1e-6,
                                       err_msg=f"{name} {call} {key}")


def test_restored_functions_keep_their_concrete_signatures():
    loaded = tf.saved_model.load(str(FIXTURES / "mlp"))
    assert len(loaded.scaled.concrete_functions) == 2
    x = np.ones((5, 4), np.float32)
    default = loaded.scaled(tf.constant(x))                     # factor=2.0, the default
    three = loaded.scaled(tf.constant(x), factor=3.0)
    np.testing.assert_allclose(three["y"].numpy(), default["y"].numpy() * 1.5, rtol=1e-6)
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.scaled(tf.constant(x), factor=4.0)
    concrete = loaded.__call__.concrete_functions[0]
    (spec,), kwargs = concrete.structured_input_signature
    assert spec.shape.as_list() == [None, 4] and spec.dtype is tf.float32 and kwargs == {}
    assert "x (POSITIONAL_OR_KEYWORD)" in concrete.pretty_printed_signature()
    assert loaded(tf.constant(np.ones((7, 4), np.float32))).shape.as_list() == [7, 3]
    signature = loaded.signatures["serving_default"]
    assert signature.structured_input_signature[1]["x"].shape.as_list() == [None, 4]
    assert signature.structured_outputs["output_0"].shape.as_list() == [None, 3]


def test_variables_come_from_the_bundle_and_belong_to_the_loaded_object():
    loaded = tf.saved_model.load(str(FIXTURES / "cnn"))
    names = [v.name for v in loaded.variables]
    assert names == ["conv1/kernel:0", "conv1/bias:0", "conv2/kernel:0", "conv2/bias:0",
                     "dense/kernel:0", "dense/bias:0"]
    assert all(v.trainable for v in loaded.trainable_variables)
    again = tf.saved_model.load(str(FIXTURES / "cnn"))
    loaded.variables[0].assign(tf.zeros_like(loaded.variables[0]))     # independent copies
    assert np.abs(again.variables[0].numpy()).sum() > 0
    kernel, bias = loaded.variables[4], loaded.variables[5]      # the functions read them
    kernel.assign(tf.zeros_like(kernel))
    bias.assign(np.arange(10, dtype=np.float32))
    x = tf.constant(np.ones((1, 16, 16, 1), np.float32))
    out = loaded.signatures["serving_default"](images=x)
    np.testing.assert_array_equal(out["logits"].numpy(), [np.arange(10)])
    assert out["classes"].numpy().tolist() == [9]


def test_state_and_control_flow_run_on_the_optimizer_and_every_executor():
    loaded = tf.saved_model.load(str(FIXTURES / "loop_cond"))
    assert loaded.calls.numpy() == 0
    collatz = loaded.signatures["collatz"]
    assert collatz(n=tf.constant(27))["output_0"].numpy() == 111
    concrete = collatz.concrete
    types = {op.type for op in concrete.graph.operations}
    assert "StatefulPartitionedCall" in types or "PartitionedCall" in types
    loaded.signatures["serving_default"](x=tf.constant([1.0]), n=tf.constant(1))
    assert loaded.calls.numpy() == 1                            # AssignAddVariableOp ran
    assert concrete.optimized_graph is not concrete.graph
    assert concrete.generated_code is not None


def test_gradients_through_a_loaded_model_match_finite_differences():
    loaded = tf.saved_model.load(str(FIXTURES / "mlp"))
    x = tf.constant(np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32))

    def f():
        return tf.reduce_sum(loaded(x)[:, 0])
    with tf.GradientTape() as tape:
        y = f()
    grads = tape.gradient(y, loaded.variables)
    for var, grad in zip(loaded.variables, grads):
        base, step = var.numpy().copy(), np.zeros(var.shape.as_list(), np.float32)
        step.flat[1] = 1e-2
        var.assign(base + step)
        up = float(f().numpy())
        var.assign(base - step)
        down = float(f().numpy())
        var.assign(base)
        assert abs((up - down) / 2e-2 - grad.numpy().flat[1]) < 1e-3, var.name


def test_op_types_are_listed_before_anything_runs():
    used = op_types(FIXTURES / "lstm")
    assert {"While", "TensorListReserve", "MatMul", "Sigmoid"} <= set(used)
    assert not any(t in used for t in ("SaveV2", "RestoreV2"))   # TF's own save functions
    assert any(name.startswith("__inference___call__") for name in used["MatMul"])
    assert unsupported_op_types(FIXTURES / "attention") == {}
    assert "Erfc" in op_types(FIXTURES / "attention")


def _replace_op(path, old: str, new: str) -> str:
    proto = messages().SavedModel()
    proto.ParseFromString((path / "saved_model.pb").read_bytes())
    for function in proto.meta_graphs[0].graph_def.library.function:
        for node in function.node_def:
            if node.op == old:
                node.op = new
                user = function.signature.name
    (path / "saved_model.pb").write_bytes(proto.SerializeToString())
    return user


def test_an_op_tracegraph_lacks_is_named_with_its_function(tmp_path):
    path = copy_fixture("attention", tmp_path)
    user = _replace_op(path, "Erfc", "NotARealOp")
    assert unsupported_op_types(path) == {"NotARealOp": [user]}
    with pytest.raises(UnsupportedOpError, match=f"'NotARealOp'.*'{user}'") as info:
        tf.saved_model.load(str(path))
    assert isinstance(info.value, tf.errors.NotFoundError)
    assert info.value.op_type == "NotARealOp" and info.value.function == user
    out = io.StringIO()
    assert cli(["ops", "--dir", str(path)], out=out) == 1
    assert "NotARealOp   (not in tracegraph: used by" in out.getvalue()


def test_the_cli_shows_and_runs_tensorflows_models(tmp_path):
    out = io.StringIO()
    assert cli(["show", "--dir", str(FIXTURES / "cnn")], out=out) == 0
    assert "outputs['logits'] tensor_info:\n        dtype: float32\n        shape: (None, 10)" \
        in out.getvalue()
    inputs, outputs = expected_calls("cnn")["signature.serving_default"]
    np.save(tmp_path / "images.npy", inputs["images"])
    out = io.StringIO()
    assert cli(["run", "--dir", str(FIXTURES / "cnn"), "--input",
                f"images={tmp_path / 'images.npy'}"], out=out) == 0
    assert f"Result for output key classes:\n[{outputs['classes'][0]}]\n" in out.getvalue()
    out = io.StringIO()                                 # saved_model_cli's flags
    assert cli(["show", "--dir", str(FIXTURES / "cnn"), "--tag_set", "serve"], out=out) == 0
    assert 'SignatureDef key: "serving_default"' in out.getvalue()
    out = io.StringIO()
    assert cli(["ops", "--dir", str(FIXTURES / "cnn")], out=out) == 0
    assert "tracegraph implements all of them." in out.getvalue()


def test_saved_model_helpers_know_both_formats(tmp_path):
    assert tf.saved_model.contains_saved_model(str(FIXTURES / "mlp"))
    assert not tf.saved_model.contains_saved_model(str(tmp_path))


def test_tags_select_the_meta_graph():
    assert tf.saved_model.load(str(FIXTURES / "mlp"), tags=["serve"]).signatures
    with pytest.raises(RuntimeError, match="MetaGraphDef associated with tags \\['train'\\]"):
        tf.saved_model.load(str(FIXTURES / "mlp"), tags=["train"])
