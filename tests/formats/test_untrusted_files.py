"""Files are untrusted input (issue 26 items 10 and 11), for the saved-model loader and for
checkpoints alike:

- a FIFO, a symbolic link to an endless device (/dev/zero), a directory, or a symbolic link
  leaving the directory (to a valid copy of the file: following it would load) placed where a
  file should be is refused with `SavedDataError`, quickly (opening never blocks, reading never
  goes past the declared size);
- one flipped bit anywhere in any file is `SavedDataError` (TensorFlow's DataLossError), never
  a silently unrestored Variable or a model that loads different.

`-m slow` flips every bit of the small files and many more of the others.
"""

import os
import random
import re
import shutil
import threading

import numpy as np
import pytest

import tracegraph as tf

from .catalogue import SequentialModule

SAVED_MODEL_FILES = ("saved_model.json", "variables.npz", "constants.npz", "checksum.json")
CHECKPOINT_FILES = ("ckpt-1.index", "ckpt-1.data-00000-of-00001", "checkpoint")
TIME_BOUND = 20.0   # seconds: a case that has not ended by then hangs


def _ends_within(fn, seconds=TIME_BOUND):
    """The exception `fn()` raised (None if it returned); fails if it runs longer than
    `seconds` (the thread is left behind, a daemon)."""
    outcome = {}

    def run():
        try:
            fn()
            outcome["error"] = None
        except BaseException as e:  # noqa: BLE001 - reported to the test
            outcome["error"] = e
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise AssertionError(f"did not end within {seconds} s (it hangs)")
    return outcome["error"]


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    root = tmp_path_factory.mktemp("untrusted")
    m = SequentialModule()
    m(tf.constant([[1.0, 2.0, 3.0]]))
    tf.saved_model.save(m, str(root / "model"))
    ckpt = tf.train.Checkpoint(model=SequentialModule())
    ckpt.save(str(root / "ckpt" / "ckpt"))
    return root


def _copy(sources, kind, tmp_path):
    target = tmp_path / kind
    shutil.copytree(sources / kind, target)
    return target


def _load_model(directory):
    return lambda: tf.saved_model.load(str(directory))


def _restore_checkpoint(directory):
    def restore():
        tf.train.Checkpoint(model=SequentialModule()).restore(str(directory))
    return restore


def _list_checkpoint(directory):
    return lambda: tf.train.list_variables(str(directory))


# ---- special files in place of a file --------------------------------------------------------

def _replace(path, kind, outside):
    original = path.read_bytes()
    os.remove(path)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero":
        os.symlink("/dev/zero", path)
    elif kind == "directory":
        os.mkdir(path)
    elif kind == "outside":            # the same bytes, outside the directory
        outside.mkdir(exist_ok=True)
        (outside / path.name).write_bytes(original)
        os.symlink(outside / path.name, path)
    else:
        raise ValueError(kind)


SPECIAL = {"fifo": "FIFO", "dev_zero": "outside|character device", "directory": "directory",
           "outside": "outside"}


def _special_cases(files, kind):
    for name in files:
        for special, message in SPECIAL.items():
            yield pytest.param(name, special, message, id=f"{kind}-{name}-{special}")


@pytest.mark.parametrize("name,special,message",
                         list(_special_cases(SAVED_MODEL_FILES, "model")))
def test_special_files_in_a_saved_model_are_refused(sources, tmp_path, name, special,
                                                    message):
    directory = _copy(sources, "model", tmp_path)
    _replace(directory / name, special, tmp_path / "elsewhere")
    error = _ends_within(_load_model(directory))
    assert isinstance(error, tf.saved_model.SavedDataError), error
    assert name in error.file and re.search(message, str(error)), error


@pytest.mark.parametrize("name,special,message",
                         list(_special_cases(CHECKPOINT_FILES, "ckpt")))
def test_special_files_in_a_checkpoint_are_refused(sources, tmp_path, name, special, message):
    directory = _copy(sources, "ckpt", tmp_path)
    _replace(directory / name, special, tmp_path / "elsewhere")
    reads_data = not name.endswith(".data-00000-of-00001")   # list_variables: the index only
    for action, reads in ((_restore_checkpoint(directory), True),
                          (_list_checkpoint(directory), reads_data)):
        error = _ends_within(action)
        if not reads:
            assert error is None
            continue
        assert isinstance(error, tf.saved_model.SavedDataError), error
        assert name in error.file and re.search(message, str(error)), error


def test_links_inside_the_directory_are_followed(sources, tmp_path):
    directory = _copy(sources, "model", tmp_path)
    os.mkdir(directory / "blobs")
    os.rename(directory / "variables.npz", directory / "blobs" / "v.npz")
    os.symlink("blobs/v.npz", directory / "variables.npz")
    loaded = tf.saved_model.load(str(directory))
    assert len(loaded.variables) == 4


# ---- one flipped bit anywhere ----------------------------------------------------------------

def _bits(size, rng, count):
    """Bit positions to flip: the first and last bytes' bits, then `count` more at random
    (every bit when `count` is None)."""
    total = size * 8
    if count is None or count >= total:
        return range(total)
    fixed = list(range(8)) + list(range(total - 8, total))
    return fixed + rng.sample(range(8, total - 8), min(count, total - 16))


def _flip_each(path, bits, action):
    """Flips each bit of `bits` in `path` in turn, runs `action`; returns the outcomes."""
    original = path.read_bytes()
    outcomes = []
    try:
        for bit in bits:
            data = bytearray(original)
            data[bit // 8] ^= 1 << (bit % 8)
            path.write_bytes(bytes(data))
            outcomes.append((bit, _ends_within(action)))
    finally:
        path.write_bytes(original)
    return outcomes


def _assert_all_refused(outcomes, name):
    bad = [(bit, e) for bit, e in outcomes if not isinstance(e, tf.saved_model.SavedDataError)]
    assert not bad, f"{len(bad)} of {len(outcomes)} flips in {name} were not refused: " \
                    f"bit {bad[0][0]}: {bad[0][1]!r}"
    print(f"\n{name}: {len(outcomes)} single-bit flips, each a SavedDataError")


def _flip_counts(request):
    slow = request.node.get_closest_marker("slow") is not None
    return (None, 4000) if slow else (48, 24)   # (small files, large files)


def _flip_model(sources, tmp_path, name, counts):
    directory = _copy(sources, "model", tmp_path)
    path = directory / name
    small, large = counts
    count = small if name == "checksum.json" else large
    bits = _bits(path.stat().st_size, random.Random(name), count)
    _assert_all_refused(_flip_each(path, bits, _load_model(directory)), name)


def _flip_checkpoint(sources, tmp_path, name, counts):
    directory = _copy(sources, "ckpt", tmp_path)
    path = directory / name
    small, large = counts
    count = large if name.endswith("00001") else small
    bits = _bits(path.stat().st_size, random.Random(name), count)
    # before the fix a flip in a key left a Variable unrestored without an error
    _assert_all_refused(_flip_each(path, bits, _restore_checkpoint(directory)), name)


@pytest.mark.parametrize("name", SAVED_MODEL_FILES)
def test_a_flipped_bit_in_a_saved_model_is_refused(sources, tmp_path, name, request):
    _flip_model(sources, tmp_path, name, _flip_counts(request))


@pytest.mark.parametrize("name", CHECKPOINT_FILES)
def test_a_flipped_bit_in_a_checkpoint_is_refused(sources, tmp_path, name, request):
    _flip_checkpoint(sources, tmp_path, name, _flip_counts(request))


@pytest.mark.slow
@pytest.mark.parametrize("name", SAVED_MODEL_FILES)
def test_every_flipped_bit_in_a_saved_model_is_refused(sources, tmp_path, name, request):
    _flip_model(sources, tmp_path, name, _flip_counts(request))


@pytest.mark.slow
@pytest.mark.parametrize("name", CHECKPOINT_FILES)
def test_every_flipped_bit_in_a_checkpoint_is_refused(sources, tmp_path, name, request):
    _flip_checkpoint(sources, tmp_path, name, _flip_counts(request))


def test_a_flipped_key_was_a_silently_unrestored_variable(sources, tmp_path):
    """The case the issue found: one bit of a key in the index."""
    directory = _copy(sources, "ckpt", tmp_path)
    index = directory / "ckpt-1.index"
    raw = index.read_bytes()
    at = raw.index(b"dense_1/w/.ATTRIBUTES")
    index.write_bytes(raw[:at] + b"dense_1/v" + raw[at + len(b"dense_1/w"):])  # w^1 = v
    model = SequentialModule()
    model.dense_1.w.assign(tf.zeros_like(model.dense_1.w))
    with pytest.raises(tf.saved_model.SavedDataError, match="checksum mismatch"):
        tf.train.Checkpoint(model=model).restore(str(directory))
    np.testing.assert_array_equal(model.dense_1.w.numpy(), np.zeros([3, 3]))


def test_files_an_older_tracegraph_wrote_name_their_version(sources, tmp_path):
    """Version 1 manifests and indexes were plain JSON (no checksum of their own)."""
    model = _copy(sources, "model", tmp_path)
    (model / "checksum.json").write_text('{"format": "tracegraph.saved_model", "version": 1, '
                                         '"sha256": {}}')
    with pytest.raises(tf.saved_model.SavedDataError, match="format version 1 is not supported"):
        tf.saved_model.load(str(model))
    ckpt = _copy(sources, "ckpt", tmp_path)
    (ckpt / "ckpt-1.index").write_text('{"format": "tracegraph.checkpoint", "version": 1}')
    with pytest.raises(tf.saved_model.SavedDataError, match="format version 1 is not supported"):
        tf.train.list_variables(str(ckpt))
