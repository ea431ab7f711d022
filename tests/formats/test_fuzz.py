"""A mutation fuzzer for the loader and checkpoints (R-10.4, issue 26): real saved directories
and checkpoints, mutated (truncations, single and multiple bit flips, inserted bytes, wrong
types, huge declared sizes, deep nesting, unknown op types, off-by-one references, deleted and
swapped files, and special files in place of any file: FIFOs, links to endless devices, links
leaving the directory, directories). Every mutated input must load or end in a documented error
(`SavedDataError`; TensorFlow's NotFoundError or ValueError where TensorFlow raises them) within
a time bound; any other exception, or a hang, fails. Mutations of the JSON and of the archives
are tried twice: as they are (the checksums catch them) and with the checksums recomputed (the
manifest and the sealed index rewritten), so that the validators behind the checksums are
reached.

The default suite tries a bounded number of inputs; `-m slow` tries many more. Each run prints
how many inputs it tried and how they ended.
"""

import collections
import json
import os
import random
import shutil
import threading

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.formats.native.saving import write_manifest
from tracegraph.formats.safe_files import file_sha256, read_sealed_json, write_sealed_json

from .catalogue import CATALOGUE

MODELS = ("module_model", "autograph_control_flow", "calls_and_structures", "all_dtypes",
          "stateful_counter")
FILES = ("saved_model.json", "variables.npz", "constants.npz", "checksum.json")
CHECKPOINT_FILES = ("ckpt-1.index", "ckpt-1.data-00000-of-00001", "checkpoint")
TIME_BOUND = 30.0   # seconds for one input: longer is a hang
_MARKER = "__deep_nesting__"


@pytest.fixture(scope="module")
def saved_dirs(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz_sources")
    out = {}
    for name in MODELS:
        obj, calls = CATALOGUE[name]()
        for attr, args in calls:
            fn = obj
            for part in attr.split("."):
                fn = getattr(fn, part)
            fn(*[tf.constant(a) if isinstance(a, (np.ndarray, np.generic)) else a
                 for a in args])
        tf.saved_model.save(obj, str(root / name),    # with source locations, to mutate too
                            options=tf.saved_model.SaveOptions(save_debug_info=True))
        out[name] = root / name
    ckpt_obj, _ = CATALOGUE["all_dtypes"]()
    checkpoint = tf.train.Checkpoint(model=ckpt_obj)
    out["checkpoint"] = checkpoint.save(str(root / "ckpt" / "ckpt"))
    return out


# ---- mutations of JSON documents ----------------------------------------------------------

def _paths(doc, limit=20000):
    """Every (container, key) in the document, breadth first."""
    out, queue = [], collections.deque([doc])
    while queue and len(out) < limit:
        node = queue.popleft()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for k, v in items:
            out.append((node, k))
            if isinstance(v, (dict, list)):
                queue.append(v)
    return out


_REPLACEMENTS = [
    None, True, False, 0, -1, 1, 2 ** 31, 2 ** 63, -(2 ** 70), 1e308, 0.5, "", "x",
    "NoSuchOp", "a\nimport os", "../../etc/passwd", [], {}, [None], {"int": 1},
    {"array": {"dtype": "float32", "shape": [1 << 40, 1 << 40], "data": ""}},
    {"array": {"dtype": "object", "shape": [1], "data": ""}},
    {"graph": 10 ** 6}, {"variable": -1}, {"tuple": [{"int": 1}] * 3},
    [1 << 40, 1 << 40], [[0, 0]], {"unknown_tag": 1}, _MARKER,
]


def _mutate_json(doc, rng: random.Random) -> str:
    doc = json.loads(json.dumps(doc))
    paths = _paths(doc)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        parent, key = rng.choice(paths)
        if (key not in parent) if isinstance(parent, dict) else key >= len(parent):
            continue  # removed by an earlier mutation
        kind = rng.random()
        value = parent[key]
        if kind < 0.35:
            parent[key] = rng.choice(_REPLACEMENTS)
        elif kind < 0.55 and type(value) is int:
            parent[key] = value + rng.choice([-1, 1, 2, -2, 1000, 1 << 40])
        elif kind < 0.65 and isinstance(parent, dict):
            del parent[key]
        elif kind < 0.72 and isinstance(parent, dict):
            parent[f"extra_{rng.randrange(9)}"] = rng.choice(_REPLACEMENTS)
        elif kind < 0.82 and isinstance(value, list) and value:
            op = rng.randrange(3)
            if op == 0:
                value.append(rng.choice(value))
            elif op == 1:
                value.pop(rng.randrange(len(value)))
            else:
                value.reverse()
        elif kind < 0.92 and isinstance(value, str):
            parent[key] = rng.choice(["Placeholder", "Const", "AddV2", "While", "float64",
                                      "resource", "string", value + "_", value[:-1]])
        else:
            parent[key] = _MARKER
    text = json.dumps(doc)
    depth = rng.choice([100, 3000, 100_000])
    return text.replace(json.dumps(_MARKER), "[" * depth + "]" * depth)


# ---- mutations of bytes ---------------------------------------------------------------------

def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    kind = rng.randrange(6)
    if kind == 0 and data:
        return bytes(data[:rng.randrange(len(data))])                 # truncated
    if kind == 1 and data:
        for _ in range(rng.choice([1, 1, 4, 32])):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)                          # bit flips
        return bytes(data)
    if kind == 2:
        i = rng.randrange(len(data) + 1)
        return bytes(data[:i] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
                     + data[i:])                                      # inserted bytes
    if kind == 3 and data:
        i = rng.randrange(len(data))
        return bytes(data[:i] + b"\xff\xff\xff\x7f" + data[i + 4:])    # a huge length field
    if kind == 4:
        return b""
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 512)))


def _rehash(directory) -> None:
    try:
        write_manifest(directory)
    except OSError:   # a data file deleted or replaced by a directory: keep the manifest
        pass


# ---- special files and single bit flips ------------------------------------------------------

SPECIAL_FILES = ("fifo", "/dev/zero", "/dev/urandom", "outside", "directory")


def _special(path, rng: random.Random) -> None:
    """Replaces `path` by a FIFO, a link to an endless device, a link leaving the directory
    (to a valid copy of the file) or a directory."""
    kind = rng.choice(SPECIAL_FILES)
    original = path.read_bytes() if path.is_file() else b""
    if path.exists() or path.is_symlink():
        os.remove(path)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "outside":
        outside = path.parent.parent / f"{path.parent.name}-outside"
        outside.mkdir(exist_ok=True)
        (outside / path.name).write_bytes(original)
        os.symlink(outside / path.name, path)
    elif kind == "directory":
        os.mkdir(path)
    else:
        os.symlink(kind, path)


def _flip_one_bit(path, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    if data:
        bit = rng.randrange(len(data) * 8)
        data[bit // 8] ^= 1 << (bit % 8)
        path.write_bytes(bytes(data))


def _one_saved_model(sources: dict, target, rng: random.Random) -> None:
    name = rng.choice(MODELS)
    shutil.copytree(sources[name], target)
    choice = rng.random()
    rehash = rng.random() < 0.75
    if choice < 0.1:
        _special(target / rng.choice(FILES), rng)
        rehash = False
    elif choice < 0.2:
        _flip_one_bit(target / rng.choice(FILES), rng)
        rehash = False
    elif choice < 0.5:
        doc = json.loads((target / "saved_model.json").read_text())
        (target / "saved_model.json").write_text(_mutate_json(doc, rng))
    elif choice < 0.8:
        victim = target / rng.choice(FILES)
        victim.write_bytes(_mutate_bytes(victim.read_bytes(), rng))
    elif choice < 0.9:
        os.remove(target / rng.choice(FILES))
    else:  # a valid file from another model
        other = sources[rng.choice(MODELS)]
        which = rng.choice(FILES[:3])
        shutil.copy(other / which, target / which)
    if rehash:
        _rehash(target)
    tf.saved_model.load(str(target))


def _one_checkpoint(prefix: str, target, rng: random.Random) -> None:
    os.makedirs(target)
    for suffix in (".index", ".data-00000-of-00001"):
        shutil.copy(prefix + suffix, target / ("ckpt-1" + suffix))
    shutil.copy(os.path.join(os.path.dirname(prefix), "checkpoint"), target / "checkpoint")
    index, data = target / "ckpt-1.index", target / "ckpt-1.data-00000-of-00001"
    kind = rng.random()
    if kind < 0.1:
        _special(target / rng.choice(CHECKPOINT_FILES), rng)
    elif kind < 0.25:
        _flip_one_bit(target / rng.choice(CHECKPOINT_FILES), rng)
    elif kind < 0.5:
        doc = read_sealed_json(index)
        mutated = _mutate_json(doc, rng)
        if rng.random() < 0.7:   # sealed again, to reach the index's validators
            try:
                write_sealed_json(index, json.loads(mutated))
            except (ValueError, RecursionError):
                index.write_text(mutated)
        else:
            index.write_text(mutated)
    elif kind < 0.85:
        data.write_bytes(_mutate_bytes(data.read_bytes(), rng))
        if rng.random() < 0.7:   # the index updated to the new data, to reach the archive checks
            doc = read_sealed_json(index)
            doc["data"] = {"bytes": data.stat().st_size, "sha256": file_sha256(data)}
            write_sealed_json(index, doc)
    else:
        state = target / "checkpoint"
        state.write_bytes(_mutate_bytes(state.read_bytes(), rng))
    obj, _ = CATALOGUE["all_dtypes"]()
    tf.train.Checkpoint(model=obj).restore(str(target)).expect_partial()
    tf.train.list_variables(str(target))


def _within_time_bound(fn):
    """Runs `fn` in a thread; re-raises what it raised; fails if it outlives TIME_BOUND."""
    outcome = []
    thread = threading.Thread(target=lambda: outcome.append(_outcome_of(fn)), daemon=True)
    thread.start()
    thread.join(TIME_BOUND)
    if thread.is_alive():
        raise AssertionError(f"an input did not end within {TIME_BOUND} s (a hang)")
    if outcome[0] is not None:
        raise outcome[0]


def _outcome_of(fn):
    try:
        fn()
        return None
    except BaseException as e:  # noqa: BLE001 - handed back to the fuzz loop
        return e


def _documented(e) -> bool:
    if isinstance(e, tf.saved_model.SavedDataError):
        return True
    # a checkpoint whose files are gone (TensorFlow's NotFoundError), a directory without
    # checkpoints (TensorFlow's ValueError), or a restore that found a value of another
    # dtype/shape than the Variable's (TensorFlow's ValueError): documented checkpoint errors
    if isinstance(e, tf.errors.NotFoundError):
        return True
    return isinstance(e, ValueError) and ("variable" in str(e) or
                                          "Couldn't find 'checkpoint'" in str(e))


def _fuzz(saved_dirs, tmp_path, count: int, seed: int) -> collections.Counter:
    rng = random.Random(seed)
    outcomes = collections.Counter()
    for i in range(count):
        target = tmp_path / f"m{i}"
        if rng.random() < 0.8:
            run = (lambda t, r: lambda: _one_saved_model(saved_dirs, t, r))(target, rng)
        else:
            run = (lambda t, r: lambda: _one_checkpoint(saved_dirs["checkpoint"], t, r))(
                target, rng)
        try:
            _within_time_bound(run)
            outcomes["loaded"] += 1
        except Exception as e:  # noqa: BLE001 - sorted below
            if not _documented(e):
                raise
            outcomes[type(e).__name__] += 1
        shutil.rmtree(target, ignore_errors=True)
        shutil.rmtree(tmp_path / f"m{i}-outside", ignore_errors=True)
    print(f"\nloader fuzz: {count} mutated inputs tried: {dict(outcomes)}")
    return outcomes


def test_fuzz_loader_bounded(saved_dirs, tmp_path):
    outcomes = _fuzz(saved_dirs, tmp_path, 200, seed=1)
    assert sum(outcomes.values()) == 200 and outcomes["SavedDataError"] > 100


@pytest.mark.slow
def test_fuzz_loader_long(saved_dirs, tmp_path):
    outcomes = _fuzz(saved_dirs, tmp_path, 5000, seed=2)
    assert sum(outcomes.values()) == 5000
