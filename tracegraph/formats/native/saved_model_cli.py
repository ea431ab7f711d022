"""The saved-model inspector (the role of TensorFlow's `saved_model_cli`).

    python -m tracegraph.saved_model show --dir DIR [--all]
    python -m tracegraph.saved_model run --dir DIR --signature serving_default --input x=x.npy
    python -m tracegraph.saved_model ops --dir DIR

`show` prints the signatures with their inputs and outputs (`--all`: also every function's
concrete signatures and the variables); `run` feeds `.npy` files (read with
`allow_pickle=False`) to a signature and prints its outputs; `ops` lists the op types a
SavedModel TensorFlow wrote uses (before converting or running anything), marking those
tracegraph does not implement. Both formats load: tracegraph's and TensorFlow's. Errors go to
stderr with exit status 1.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from ...errors import OpError
from ...shapes import format_shape
from ..saved_data_error import SavedDataError
from .loading import RestoredObject, load
from .restored_functions import RestoredFunction

__all__ = ["main"]


def _spec_line(key, spec) -> str:
    return (f"    inputs['{key}'] tensor_info:\n        dtype: {spec.dtype.name}\n"
            f"        shape: {format_shape(spec.shape._dims)}")


def _show(loaded, everything: bool, out) -> None:
    sigs = getattr(loaded, "signatures", {})
    print("The given SavedModel has the following signatures:", file=out)
    for name in sorted(sigs):
        fn = sigs[name]
        print(f"\nsignature_def['{name}']:", file=out)
        print("  The given SavedModel SignatureDef contains the following input(s):", file=out)
        for key, spec in fn.input_keys:
            print(_spec_line(key, spec), file=out)
        print("  The given SavedModel SignatureDef contains the following output(s):",
              file=out)
        for key, spec in sorted(fn.structured_outputs.items()):
            print(f"    outputs['{key}'] tensor_info:\n        dtype: {spec.dtype.name}\n"
                  f"        shape: {format_shape(spec.shape._dims)}", file=out)
    if not everything:
        return
    print("\nDefined Functions:", file=out)
    for path, fn in _walk(loaded):
        if isinstance(fn, RestoredFunction):
            print(f"  Function Name: '{path}'", file=out)
            for i, cf in enumerate(fn.concrete_functions):
                print(f"    Option #{i + 1}:", file=out)
                for line in cf.pretty_printed_signature().splitlines():
                    print(f"      {line}", file=out)
    print("\nVariables:", file=out)
    for v in getattr(loaded, "variables", ()):
        print(f"  {v.name}: {v.dtype.name} {format_shape(v.handle.shape)}", file=out)


def _walk(obj, prefix="", seen=None):
    seen = seen if seen is not None else set()
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, RestoredObject):
        items = [(k, v) for k, v in vars(obj).items()
                 if k not in ("variables", "trainable_variables", "signatures")]
    elif isinstance(obj, (list, tuple)):
        items = [(str(i), v) for i, v in enumerate(obj)]
    elif isinstance(obj, dict):
        items = list(obj.items())
    else:
        return
    for k, v in items:
        path = f"{prefix}.{k}" if prefix else k
        yield path, v
        yield from _walk(v, path, seen)


def _run(loaded, signature: str, inputs: list[str], out) -> None:
    sigs = getattr(loaded, "signatures", {})
    if signature not in sigs:
        raise ValueError(f"No signature named '{signature}'; the model has "
                         f"{sorted(sigs) or 'none'}.")
    feeds = {}
    for item in inputs:
        key, sep, path = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--input expects KEY=FILE.npy, got {item!r}.")
        try:
            feeds[key] = np.load(path, allow_pickle=False)
        except Exception as e:  # OSError, ValueError for pickled or malformed files
            raise ValueError(f"Cannot read input '{key}' from {path}: {e}") from None
    results = sigs[signature](**feeds)
    np.set_printoptions(threshold=1000)
    print(f"Result for output key {', '.join(sorted(results))}:", file=out)
    for key in sorted(results):
        print(f"{key}:\n{np.asarray(results[key].numpy())!r}", file=out)


def _load(path):
    from ..tensorflow.saved_model_file import is_tensorflow_saved_model
    if not os.path.isfile(os.path.join(path, "saved_model.json")) and \
            is_tensorflow_saved_model(path):
        from ..tensorflow.saved_model_loader import load_tensorflow_saved_model
        return load_tensorflow_saved_model(path)
    return load(path)


def _ops(path: str, out) -> int:
    """Prints the op types of a TensorFlow SavedModel; 1 if tracegraph lacks some."""
    from ..tensorflow.saved_model_file import op_types, unsupported_op_types
    used = op_types(path)
    missing = unsupported_op_types(path)
    print(f"The SavedModel's functions use {len(used)} op types:", file=out)
    for op_type, users in used.items():
        mark = "   (not in tracegraph: used by " + ", ".join(users[:3]) + \
            (", ..." if len(users) > 3 else "") + ")" if op_type in missing else ""
        print(f"  {op_type}{mark}", file=out)
    if missing:
        print(f"{len(missing)} op type(s) have no tracegraph implementation: "
              f"{', '.join(missing)}", file=out)
        return 1
    print("tracegraph implements all of them.", file=out)
    return 0


def main(argv=None, out=None) -> int:
    out = out or sys.stdout
    parser = argparse.ArgumentParser(prog="python -m tracegraph.saved_model",
                                     description="Inspect and run a tracegraph saved model.")
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("show", help="print the signatures (and more with --all)")
    show.add_argument("--dir", required=True)
    show.add_argument("--all", action="store_true")
    run = sub.add_parser("run", help="run a signature on .npy inputs")
    run.add_argument("--dir", required=True)
    run.add_argument("--signature", default="serving_default")
    run.add_argument("--input", action="append", default=[], metavar="KEY=FILE.npy")
    ops = sub.add_parser("ops", help="list the op types of a TensorFlow SavedModel")
    ops.add_argument("--dir", required=True)
    args = parser.parse_args(argv)
    try:
        if args.command == "ops":
            return _ops(args.dir, out)
        loaded = _load(args.dir)
        if args.command == "show":
            _show(loaded, args.all, out)
        else:
            _run(loaded, args.signature, args.input, out)
    except (SavedDataError, ValueError, TypeError, OpError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0
