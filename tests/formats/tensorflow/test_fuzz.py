"""A mutation fuzzer for the readers of TensorFlow's formats: SavedModels and checkpoints
TensorFlow wrote, mutated (truncations, bit flips, wrong proto fields, huge declared sizes,
unknown and swapped op types, lying bundle entries, path tricks), then loaded. Every input must
load (and then run its signature or raise one of TensorFlow's runtime errors) or raise a
documented error: `SavedDataError` (a DataLossError, or InvalidArgumentError for invalid
content), `UnsupportedOpError` / `UnsupportedNodeError` (an op or attr tracegraph lacks), or
NotFoundError (a missing file). Anything else fails.

The default suite tries a bounded number of inputs; `-m slow` tries many more. Each run prints
how many inputs it tried and how they ended.
"""

import collections
import os
import random
import shutil

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.formats.tensorflow.format_errors import (
    SavedDataError,
    UnsupportedNodeError,
    UnsupportedOpError,
)
from tracegraph.formats.tensorflow.messages import messages
from tracegraph.formats.tensorflow.sstable import read_table, write_table

from .fixtures_util import FIXTURES, expected_calls

pytest.importorskip("google_crc32c")
LOAD_ERRORS = (SavedDataError, UnsupportedOpError, UnsupportedNodeError,
               tf.errors.NotFoundError)
MODELS = ("mlp", "loop_cond", "cnn")
CHECKPOINTS = ("ckpt_adam/ckpt-1", "ckpt_dtypes/ckpt")
_STRINGS = ["", "../../etc/passwd", "/abs", "x:y:0", "NotARealOp", "MatMul", "While",
            "\x00", "a" * 300, "If", "PartitionedCall", "TensorListReserve", "Const"]
_INTS = [0, -1, 1, 2, 7, 2**31 - 1, 2**31, 2**40, 2**62, -(2**40), 10**6]


# ---- mutations of protobuf messages -----------------------------------------------------------

def _fields(message, out, depth=0, limit=50_000):
    """(message, field, index or None) for every scalar field set in `message`."""
    if depth > 40 or len(out) > limit:
        return
    for field, value in message.ListFields():
        if field.type == field.TYPE_MESSAGE:
            if field.message_type.GetOptions().map_entry:
                items = list(value.values()) if field.message_type.fields_by_name[
                    "value"].type == field.TYPE_MESSAGE else []
            else:
                items = list(value) if field.is_repeated else [value]
            for item in items:
                _fields(item, out, depth + 1, limit)
        elif field.is_repeated:
            out.extend((message, field, i) for i in range(len(value)))
        else:
            out.append((message, field, None))


def _new_value(rng, field, old):
    if field.type in (field.TYPE_STRING, field.TYPE_BYTES):
        text = rng.choice(_STRINGS)
        return text.encode() if field.type == field.TYPE_BYTES else text
    if field.type == field.TYPE_BOOL:
        return not old
    if field.type in (field.TYPE_FLOAT, field.TYPE_DOUBLE):
        return rng.choice([0.0, -1.0, 1e30, float("nan")])
    if field.type == field.TYPE_ENUM:
        return rng.choice([0, 1, 7, 20, 21, 99, int(old) + 1])
    value = rng.choice(_INTS + [int(old) + 1, int(old) - 1])
    bits = {field.TYPE_INT32: 31, field.TYPE_SINT32: 31, field.TYPE_SFIXED32: 31,
            field.TYPE_UINT32: 32, field.TYPE_FIXED32: 32}.get(field.type, 63)
    unsigned = field.type in (field.TYPE_UINT32, field.TYPE_FIXED32, field.TYPE_UINT64,
                              field.TYPE_FIXED64)
    low, high = (0, 2**bits - 1) if unsigned else (-(2**bits), 2**bits - 1)
    return min(max(value, low), high)


def _mutate_proto(rng, message) -> str:
    fields = []
    _fields(message, fields)
    target, field, index = rng.choice(fields)
    old = getattr(target, field.name)[index] if index is not None else \
        getattr(target, field.name)
    new = _new_value(rng, field, old)
    if index is not None:
        getattr(target, field.name)[index] = new
    else:
        setattr(target, field.name, new)
    return f"{field.full_name}={new!r:.30}"


def _swap_op(rng, proto) -> str:
    nodes = [n for f in proto.meta_graphs[0].graph_def.library.function for n in f.node_def]
    node = rng.choice(nodes)
    node.op = rng.choice(["NotARealOp", "MatMul", "Identity", "While", "ReadVariableOp",
                          "StatefulPartitionedCall", "Placeholder", "PyFunc", "Const"])
    return f"op {node.name} -> {node.op}"


# ---- mutations of files -----------------------------------------------------------------------

def _flip(rng, data: bytes) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


def _mutate_entry(rng, index: bytes) -> bytes:
    """A bundle entry that lies (its checksums stay valid: the table is rewritten)."""
    table = read_table(index, "index")
    position = rng.randrange(1, len(table))
    key, value = table[position]
    entry = messages().BundleEntryProto()
    entry.ParseFromString(value)
    _mutate_proto(rng, entry) if rng.random() < 0.7 else entry.shape.dim.add(size=2**40)
    table[position] = (key, entry.SerializeToString())
    return write_table(table)


def _mutate_model(rng, path) -> str:
    kind = rng.choice(["truncate", "flip", "proto", "proto", "proto", "op", "index", "data",
                       "entry", "link", "remove"])
    pb = path / "saved_model.pb"
    index = path / "variables" / "variables.index"
    data = path / "variables" / "variables.data-00000-of-00001"
    if kind == "truncate":
        raw = pb.read_bytes()
        pb.write_bytes(raw[:rng.randrange(len(raw))])
    elif kind == "flip":
        pb.write_bytes(_flip(rng, pb.read_bytes()))
    elif kind in ("proto", "op"):
        proto = messages().SavedModel()
        proto.ParseFromString(pb.read_bytes())
        kind = _mutate_proto(rng, proto) if kind == "proto" else _swap_op(rng, proto)
        pb.write_bytes(proto.SerializeToString())
    elif kind == "index":
        index.write_bytes(_flip(rng, index.read_bytes()))
    elif kind == "data":
        raw = data.read_bytes()
        data.write_bytes(_flip(rng, raw) if rng.random() < 0.5 else raw[:rng.randrange(
            len(raw))])
    elif kind == "entry":
        index.write_bytes(_mutate_entry(rng, index.read_bytes()))
    elif kind == "link":
        target = rng.choice([pb, index, data, path / "variables"])
        moved = path.parent / f"outside-{rng.random()}"
        shutil.move(str(target), str(moved))
        os.symlink(moved, target)
    else:
        os.remove(rng.choice([index, data]))
    return kind


def _run_once(rng, source, work, name) -> str:
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(source, work)
    what = _mutate_model(rng, work)
    try:
        loaded = tf.saved_model.load(str(work))
    except LOAD_ERRORS as e:
        return f"refused: {type(e).__name__}"
    except Exception as e:  # noqa: BLE001 - the failure this test looks for
        raise AssertionError(f"{name}, mutation {what}: {type(e).__name__}: {e}") from e
    for call, (inputs, _) in expected_calls(name).items():
        if call.startswith("signature."):
            signature = loaded.signatures.get(call.split(".")[1])
            if signature is None:
                continue
            try:
                signature(**{k: tf.constant(v) for k, v in inputs.items()})
            except (tf.errors.OpError, ValueError, TypeError):
                return "loaded; the call raised a runtime error"
            except Exception as e:  # noqa: BLE001
                raise AssertionError(f"{name}, mutation {what}, calling {call}: "
                                     f"{type(e).__name__}: {e}") from e
            break
    return "loaded and ran"


def _fuzz_models(tmp_path, budget: int, seed: int) -> collections.Counter:
    rng = random.Random(seed)
    outcomes = collections.Counter()
    for i in range(budget):
        name = MODELS[i % len(MODELS)]
        outcomes[_run_once(rng, FIXTURES / name, tmp_path / f"m{i % 4}" / name, name)] += 1
    return outcomes


class _Regressor(tf.Module):
    def __init__(self):
        super().__init__()
        self.dense = _Dense(3, 2)
        self.out = _Dense(2, 1)


class _Dense(tf.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.kernel = tf.Variable(np.zeros((n_in, n_out), np.float32))
        self.bias = tf.Variable(np.zeros(n_out, np.float32))


def _fuzz_checkpoints(tmp_path, budget: int, seed: int) -> collections.Counter:
    rng = random.Random(seed)
    outcomes = collections.Counter()
    for i in range(budget):
        name = CHECKPOINTS[i % len(CHECKPOINTS)]
        work = tmp_path / f"c{i % 4}"
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(FIXTURES / name.split("/")[0], work)
        prefix = work / name.split("/")[1]
        files = sorted(work.glob(name.split("/")[1] + ".*"))
        target = rng.choice(files)
        raw = target.read_bytes()
        choice = rng.random()
        if choice < 0.3 and target.suffix == ".index":
            target.write_bytes(_mutate_entry(rng, raw))
        elif choice < 0.6:
            target.write_bytes(raw[:rng.randrange(len(raw))])
        else:
            target.write_bytes(_flip(rng, raw))
        try:
            reader = tf.train.load_checkpoint(str(prefix))
            for key in reader.get_variable_to_shape_map():
                reader.get_tensor(key)
            if name.startswith("ckpt_adam"):
                tf.train.Checkpoint(model=_Regressor()).restore(str(prefix)).expect_partial()
            outcomes["read"] += 1
        except LOAD_ERRORS + (tf.errors.InvalidArgumentError,) as e:
            outcomes[f"refused: {type(e).__name__}"] += 1
        except ValueError as e:   # a restored value of another shape (TF's ValueError)
            assert "incompatible tensor" in str(e), e
            outcomes["refused: ValueError (shape)"] += 1
        except Exception as e:  # noqa: BLE001
            raise AssertionError(f"{name} mutated: {type(e).__name__}: {e}") from e
    return outcomes


def _report(label, outcomes) -> None:
    print(f"\n{label}: {sum(outcomes.values())} inputs: " +
          ", ".join(f"{n} {k}" for k, n in outcomes.most_common()))


def test_fuzz_saved_models_bounded(tmp_path):
    outcomes = _fuzz_models(tmp_path, 90, seed=1)
    _report("TensorFlow SavedModels", outcomes)
    assert sum(outcomes.values()) == 90


def test_fuzz_checkpoints_bounded(tmp_path):
    outcomes = _fuzz_checkpoints(tmp_path, 60, seed=2)
    _report("TensorFlow checkpoints", outcomes)
    assert sum(outcomes.values()) == 60


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_fuzz_saved_models_long(tmp_path, seed):
    _report(f"TensorFlow SavedModels (seed {seed})", _fuzz_models(tmp_path, 700, seed))


@pytest.mark.slow
def test_fuzz_checkpoints_long(tmp_path):
    _report("TensorFlow checkpoints", _fuzz_checkpoints(tmp_path, 1500, seed=21))
