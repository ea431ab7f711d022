"""Hand-made hostile saved models: each is refused with SavedDataError naming where, before
anything runs or is allocated (R-10.4)."""

import io
import json
import zipfile

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.formats.native.saving import write_manifest
from tracegraph.formats.safe_files import sealed_json_bytes

from ..catalogue import SequentialModule


@pytest.fixture
def saved(tmp_path):
    m = SequentialModule()
    m(tf.constant([[1.0, 2.0, 3.0]]))
    tf.saved_model.save(m, str(tmp_path / "m"))
    return tmp_path / "m"


def _doc(directory):
    return json.loads((directory / "saved_model.json").read_text())


def _write(directory, doc=None, text=None):
    (directory / "saved_model.json").write_text(text if text is not None else json.dumps(doc))
    _rehash(directory)


def _rehash(directory):
    write_manifest(directory)


def _refused(directory, field_part: str, message: str):
    with pytest.raises(tf.saved_model.SavedDataError, match=message) as e:
        tf.saved_model.load(str(directory))
    assert field_part in e.value.field or field_part in e.value.file, (e.value.field, e.value)
    return e.value


def _first_op(doc, type_):
    for gi, g in enumerate(doc["graphs"]):
        for oi, op in enumerate(g["ops"]):
            if op["type"] == type_:
                return gi, oi, op
    raise AssertionError(type_)


def test_code_in_an_op_name_is_refused(saved):
    doc = _doc(saved)
    gi, oi, op = _first_op(doc, "MatMul")
    op["name"] = "x\n    __import__('os').system('echo pwned')"
    _write(saved, doc)
    _refused(saved, f"graphs[{gi}].ops[{oi}].name", "not a valid name")


def test_an_attr_key_that_would_inject_code_is_refused(saved):
    doc = _doc(saved)
    gi, oi, op = _first_op(doc, "MatMul")
    op["attrs"]["x=__import__('os').system('id'),y"] = {"int": 1}
    _write(saved, doc)
    _refused(saved, f"graphs[{gi}].ops[{oi}].attrs", "has no attr named")


def test_attr_values_of_the_wrong_type_are_refused(saved):
    doc = _doc(saved)
    gi, oi, op = _first_op(doc, "MatMul")
    op["attrs"]["T"] = {"str": "float32"}
    _write(saved, doc)
    _refused(saved, f"graphs[{gi}].ops[{oi}].attrs.T", "not an allowed dtype")


def test_unknown_op_types_are_refused(saved):
    doc = _doc(saved)
    gi, oi, op = _first_op(doc, "Relu")
    op["op"] = op["type"] = "NoSuchOp"
    _write(saved, doc)
    _refused(saved, f"graphs[{gi}].ops[{oi}].op", "unknown op")


def test_declared_types_must_agree_with_inference(saved):
    doc = _doc(saved)
    gi, oi, op = _first_op(doc, "MatMul")
    op["outputs"][0]["shape"] = [1, 999]
    _write(saved, doc)
    _refused(saved, f"graphs[{gi}].ops[{oi}].outputs[0]", "infers")


def test_forward_references_and_cycles_are_refused(saved):
    doc = _doc(saved)
    gi, oi, op = _first_op(doc, "MatMul")
    op["inputs"][0] = [oi, 0]                       # its own output: a cycle
    _write(saved, doc)
    _refused(saved, f"graphs[{gi}].ops[{oi}].inputs[0][0]", "expected an int in")


def test_a_graph_cannot_refer_to_itself_or_a_later_graph(tmp_path):
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x, lambda: -x)
    f(tf.constant(1.0))

    class H:
        pass
    h = H()
    h.f = f
    tf.saved_model.save(h, str(tmp_path / "m"))
    doc = _doc(tmp_path / "m")
    last = len(doc["graphs"]) - 1
    gi, oi, op = _first_op(doc, "StatelessIf")
    assert gi == last
    op["attrs"]["then_branch"] = {"graph": last}
    _write(tmp_path / "m", doc)
    _refused(tmp_path / "m", f"graphs[{last}].ops[{oi}].attrs.then_branch.graph", "expected an int")


def test_huge_declared_variables_are_refused_before_allocation(saved):
    doc = _doc(saved)
    node = next(n for n in doc["objects"] if n["kind"] == "variable")
    node["value_shape"] = [1 << 40, 1 << 40]
    node["shape"] = [1 << 40, 1 << 40]
    _write(saved, doc)
    _refused(saved, ".npy", "declared")


def test_deep_nesting_is_refused(saved):
    text = (saved / "saved_model.json").read_text()
    _write(saved, text=text[:-1] + ',"extra":' + "[" * 200_000 + "]" * 200_000 + "}")
    _refused(saved, "", "nested too deeply|unknown field")


def test_pickled_arrays_are_refused(saved):
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    doc = _doc(saved)
    names = [n["array"] for n in doc["objects"] if n["kind"] == "variable"]
    with zipfile.ZipFile(saved / "variables.npz", "w") as zf:
        for name in names:
            zf.writestr(f"{name}.npy", buf.getvalue())
    _rehash(saved)
    _refused(saved, ".npy", "not a plain dtype|not the declared")


def test_compressed_members_are_refused(saved):
    with zipfile.ZipFile(saved / "variables.npz") as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    with zipfile.ZipFile(saved / "variables.npz", "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    _rehash(saved)
    _refused(saved, ".npy", "compressed")


def test_not_a_saved_model(tmp_path):
    (tmp_path / "checksum.json").write_bytes(sealed_json_bytes({"format": "other", "version": 1,
                                                                "files": {}}))
    _refused(tmp_path, "format", "not a tracegraph saved model")


def test_sub_graphs_nested_too_deeply_are_refused(saved):
    doc = _doc(saved)
    base = len(doc["graphs"])
    chain = []
    for i in range(60):   # graph i calls graph i - 1 through a PartitionedCall
        ops = [{"name": "x", "op": "placeholder", "type": "Placeholder", "inputs": [],
                "arity": [], "attrs": {"dtype": {"dtype": "float32"}, "shape": {"tuple": []}},
                "control": [], "outputs": [{"dtype": "float32", "shape": []}]}]
        if i:
            ops.append({"name": "call", "op": "partitioned_call", "type": "PartitionedCall",
                        "inputs": [[0, 0]], "arity": [1],
                        "attrs": {"Tin": {"tuple": [{"dtype": "float32"}]},
                                  "f": {"graph": base + i - 1},
                                  "Tout": {"tuple": [{"dtype": "float32"}]}},
                        "control": [], "outputs": [{"dtype": "float32", "shape": []}]})
        chain.append({"name": f"g{i}", "ops": ops, "inputs": [[0, 0]],
                      "outputs": [[len(ops) - 1, 0]], "captures": []})
    doc["graphs"] += chain
    _write(saved, doc)
    _refused(saved, "graphs[", "nested deeper than 50")
