"""Replays the calls of `saved_model_workloads.write_workloads` on the SavedModels it wrote,
loaded by TensorFlow or by tracegraph, each in a fresh process:

    python run_saved_models.py tensorflow|tracegraph DIRECTORY
    python run_saved_models.py tensorflow|tracegraph DIRECTORY --fixtures FIXTURES

The second form runs the calls TensorFlow's fixtures recorded (`FIXTURES/<name>/expected.npz`)
on `DIRECTORY/<name>`, the fixtures tracegraph loaded and saved again, into
`DIRECTORY/<name>.<framework>.npz` (the call's keys as in the fixture).

For each workload: the loaded variables' values, every call's outputs in order, and, where the
manifest asks, a training step taken by this framework on the loaded model (the gradient of
`sum(square(outputs))` through the loaded `__call__`, then `assign_sub`), and under TensorFlow
the TFLite conversion of the `tflite` workload run by TFLite's interpreter. The results go to
`DIRECTORY/<name>.<framework>.npz` (errors to `<name>.<framework>.error.txt`).
"""

import json
import os
import sys
import traceback

import numpy as np

tf = None   # the framework under test, imported by main()


def resolve(obj, path: str):
    """`obj`'s attribute at `path` (`layers/0/kernel`, `signatures/serving_default`)."""
    for part in path.split("/"):
        if part.isdigit():
            obj = obj[int(part)]
        elif hasattr(obj, part):
            obj = getattr(obj, part)
        else:
            obj = obj[part]
    return obj


def flat_outputs(value) -> list:
    """A call's outputs as arrays, dicts flattened by sorted key."""
    if isinstance(value, dict) or hasattr(value, "keys"):
        return [a for k in sorted(value.keys()) for a in flat_outputs(value[k])]
    if isinstance(value, (list, tuple)):
        return [a for v in value for a in flat_outputs(v)]
    return [np.asarray(value)]


def _value(expected, key, is_array=True):
    return tf.constant(expected[key]) if is_array else expected[key].item()


def run(name: str, spec: dict) -> dict:
    path = os.path.join(DIRECTORY, name)
    expected = np.load(os.path.join(DIRECTORY, f"{name}.expected.npz"))
    loaded = tf.saved_model.load(path)
    out = {f"var|{v}": np.asarray(resolve(loaded, v).numpy()) for v in spec["variables"]}
    for k, call in enumerate(spec["calls"]):
        fn = resolve(loaded, call["attribute"])
        args = [tf.constant(expected[f"in|{k}|{i}"]) for i in range(call["args"])]
        kwargs = {key: _value(expected, f"kw|{k}|{key}", is_array)
                  for key, is_array in call["kwargs"].items()}
        for j, a in enumerate(flat_outputs(fn(*args, **kwargs))):
            out[f"out|{k}|{j}"] = a
    if spec["train"]:
        model = tf.saved_model.load(path)
        x = tf.constant(expected[spec["train_input"]])
        variables = [resolve(model, v) for v in spec["variables"]]
        with tf.GradientTape() as tape:
            loss = sum(tf.reduce_sum(tf.square(tf.cast(t, tf.float32)))
                       for t in flat_outputs_tensors(model(x)))
        for v, g in zip(variables, tape.gradient(loss, variables)):
            v.assign_sub(0.01 * g)
        out["train|loss"] = np.asarray(loss)
        for v, var in zip(spec["variables"], variables):
            out[f"train|{v}"] = var.numpy()
        for j, a in enumerate(flat_outputs(model(x))):
            out[f"train|out|{j}"] = a
    if FRAMEWORK == "tensorflow" and spec.get("tflite"):
        converter = tf.lite.TFLiteConverter.from_saved_model(path)
        interpreter = tf.lite.Interpreter(model_content=converter.convert())
        runner = interpreter.get_signature_runner("serving_default")
        key = spec["tflite"]
        result = runner(**{key: expected[spec["train_input"]]})
        for j, k in enumerate(sorted(result)):
            out[f"tflite|{j}"] = result[k]
    return out


def flat_outputs_tensors(value) -> list:
    if isinstance(value, dict) or hasattr(value, "keys"):
        return [t for k in sorted(value.keys()) for t in flat_outputs_tensors(value[k])]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in flat_outputs_tensors(v)]
    return [value]


def call_fixture(loaded, call: str, inputs: dict) -> dict:
    """A call recorded by fixtures/make_fixtures.py (`signature.serving_default.0`,
    `function.__call__.0`, `function.scaled.factor3`): outputs by key."""
    kind, rest = call.split(".", 1)
    if kind == "signature":
        out = loaded.signatures[rest.split(".")[0]](**{k: tf.constant(v)
                                                       for k, v in inputs.items()})
        return {k: np.asarray(v) for k, v in out.items()}
    name = rest.split(".")[0]
    fn = loaded if name == "__call__" else getattr(loaded, name)
    args = [tf.constant(inputs[str(i)]) for i in range(len(inputs))]
    if rest == "scaled.factor3":
        return {k: np.asarray(v) for k, v in fn(*args, 3.0).items()}
    return {str(i): np.asarray(o) for i, o in enumerate(tf.nest.flatten(fn(*args)))}


def run_fixtures(directory: str, fixtures: str) -> None:
    for name in sorted(os.listdir(fixtures)):
        stored = os.path.join(fixtures, name, "expected.npz")
        if not os.path.isfile(stored) or not os.path.isdir(os.path.join(directory, name)):
            continue
        calls: dict = {}
        with np.load(stored) as data:
            for key in data.files:
                call, io, item = key.split("|")
                calls.setdefault(call, ({}, {}))[0 if io == "in" else 1][item] = data[key]
        try:
            loaded = tf.saved_model.load(os.path.join(directory, name))
            out = {}
            for call, (inputs, _) in calls.items():   # in the order TensorFlow ran them
                for key, value in call_fixture(loaded, call, inputs).items():
                    out[f"{call}|out|{key}"] = value
            np.savez(os.path.join(directory, f"{name}.{FRAMEWORK}.npz"), **out)
        except Exception:  # noqa: BLE001 - reported to the test
            with open(os.path.join(directory, f"{name}.{FRAMEWORK}.error.txt"), "w") as f:
                f.write(traceback.format_exc())


def main(framework: str, directory: str, fixtures: str | None = None) -> None:
    global tf, FRAMEWORK, DIRECTORY
    FRAMEWORK, DIRECTORY = framework, directory
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    if framework == "tensorflow":
        import tensorflow
        tf = tensorflow
    else:
        import tracegraph
        tf = tracegraph
    if fixtures:
        run_fixtures(directory, fixtures)
        print("done")
        return
    with open(os.path.join(DIRECTORY, "manifest.json")) as f:
        manifest = json.load(f)
    for name, spec in manifest.items():
        try:
            np.savez(os.path.join(DIRECTORY, f"{name}.{FRAMEWORK}.npz"), **run(name, spec))
        except Exception:  # noqa: BLE001 - reported to the test
            with open(os.path.join(DIRECTORY, f"{name}.{FRAMEWORK}.error.txt"), "w") as f:
                f.write(traceback.format_exc())
    print("done")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[4] if sys.argv[3:4] == ["--fixtures"] else None)
