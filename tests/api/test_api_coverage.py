"""Every op-library function exported by the public namespaces (`tf`, `tf.math`, `tf.nn`,
`tf.linalg`, `tf.random`, `tf.strings`, `tf.debugging`) is called by name in some test of
tests/library or tests/ops (each export path, so an alias that breaks is noticed)."""

import pathlib
import re
import types

import pytest

import tracegraph as tf

NAMESPACES = {"tf": tf, "tf.math": tf.math, "tf.nn": tf.nn, "tf.linalg": tf.linalg,
              "tf.random": tf.random, "tf.strings": tf.strings, "tf.debugging": tf.debugging}


def _exports():
    for label, module in NAMESPACES.items():
        for name in sorted(dir(module)):
            value = getattr(module, name)
            if name.startswith("_") or isinstance(value, (types.ModuleType, type)):
                continue
            if callable(value) and (getattr(value, "__module__", "") or "").startswith(
                    ("tracegraph.ops", "tracegraph.library")):
                yield f"{label}.{name}"


_TESTS = pathlib.Path(__file__).resolve().parent.parent
_SOURCES = "\n".join(p.read_text() for folder in ("library", "ops")
                     for p in sorted((_TESTS / folder).glob("test_*.py")))


@pytest.mark.parametrize("path", list(_exports()))
def test_export_is_exercised(path):
    assert re.search(re.escape(path) + r"\b", _SOURCES), f"no test calls {path}"
