"""The saved-model inspector (the role of TensorFlow's `saved_model_cli`), with its flags.

    python -m tracegraph.saved_model show --dir DIR [--all]
    python -m tracegraph.saved_model show --dir DIR --tag_set serve [--signature_def NAME]
                                          [--list_ops]
    python -m tracegraph.saved_model run --dir DIR [--tag_set serve]
        [--signature_def NAME] [--inputs 'x=a.npy;y=b.npz[name]'] [--input_exprs 'x=[1.0]']
        [--input x=a.npy] [--outdir DIR [--overwrite]]
    python -m tracegraph.saved_model ops --dir DIR

`show` without a tag set prints the tag sets (a tracegraph saved model has one, `serve`, as
`tf.saved_model.save` writes) and then every signature with its inputs and outputs (`--all`:
also every function's concrete signatures and the variables); with `--tag_set` it lists the
signature keys, with `--signature_def` too that signature's inputs and outputs, as
saved_model_cli does. `run` feeds a signature (`--signature_def`, or tracegraph's
`--signature`; default `serving_default`) from files and literals (`cli_inputs`: files are
read with `allow_pickle=False`), prints each output and, with `--outdir`, saves it as
`KEY.npy`. `ops` lists the op types a SavedModel TensorFlow wrote uses (before converting or
running anything), marking those tracegraph does not implement. Both formats load:
tracegraph's and TensorFlow's. Errors go to stderr with exit status 1.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from ...errors import OpError
from ...shapes import format_shape
from ..saved_data_error import SavedDataError
from ..tensorflow.model_files import ModelFiles
from ..tensorflow.saved_model_file import (
    is_tensorflow_saved_model,
    op_types,
    read_saved_model,
    unsupported_op_types,
)
from ..tensorflow.saved_model_loader import load_tensorflow_saved_model
from .cli_inputs import feeds_for, parse_inputs
from .loading import RestoredObject, load
from .restored_functions import RestoredFunction

__all__ = ["main"]

TAG_SETS = ("serve",)
METHOD_NAME = "tensorflow/serving/predict"


def _spec_line(key, spec, indent: str, kind: str = "inputs") -> str:
    return (f"{indent}  {kind}['{key}'] tensor_info:\n{indent}      dtype: {spec.dtype.name}\n"
            f"{indent}      shape: {format_shape(spec.shape.as_tuple())}")


def _op_types(loaded) -> set:
    """The op types of every saved function's graphs (sub-graphs included)."""
    seen, types_, graphs = set(), set(), []
    for _, fn in _walk(loaded):
        if isinstance(fn, RestoredFunction):
            graphs += [cf.graph for cf in fn.concrete_functions]
    for sig in getattr(loaded, "signatures", {}).values():
        graphs.append(sig.concrete.graph)
    while graphs:
        graph = graphs.pop()
        if id(graph) in seen:
            continue
        seen.add(id(graph))
        for op in graph.operations:
            types_.add(op.type)
            graphs += [sub for _, sub in op.subgraphs()]
    return types_


def _show_tagged(loaded, tags: tuple, args, out) -> None:
    """`show --tag_set ...`: saved_model_cli's views of one MetaGraph."""
    if args.list_ops:
        print(f"The MetaGraph with tag set {list(tags)} contains the following ops: "
              f"{{{', '.join(repr(t) for t in sorted(_op_types(loaded)))}}}", file=out)
    if args.signature_def is None:
        print("The given SavedModel MetaGraphDef contains SignatureDefs with the following "
              "keys:", file=out)
        for name in sorted(getattr(loaded, "signatures", {})):
            print(f'SignatureDef key: "{name}"', file=out)
        return
    _inputs_outputs(_signature(loaded, args.signature_def), "", out)
    print(f"Method name is: {METHOD_NAME}", file=out)


def _tag_sets(path: str) -> list[tuple]:
    """The tag sets of the model's MetaGraphs: tracegraph's format has one, `serve` (as
    `tf.saved_model.save` writes); a SavedModel TensorFlow wrote says."""
    if os.path.isfile(os.path.join(path, "saved_model.json")) or \
            not is_tensorflow_saved_model(path):
        return [TAG_SETS]
    proto, _ = read_saved_model(ModelFiles(path))
    return sorted(tuple(sorted(g.meta_info_def.tags)) for g in proto.meta_graphs)


def _check_tag_set(tag_set: str, available: list[tuple]) -> tuple:
    tags = tuple(sorted(t.strip() for t in tag_set.split(",") if t.strip()))
    if not tags:
        raise ValueError("tag_set must contain at least one non-empty item.")
    if tags not in available:
        raise RuntimeError(f"MetaGraphDef associated with tag-set {','.join(tags)} could not be "
                           "found in the SavedModel. Please use one of the following tag-sets: "
                           f"{[', '.join(t) for t in available]}")
    return tags


def _signature(loaded, name: str):
    sigs = getattr(loaded, "signatures", {})
    if name not in sigs:
        raise ValueError(f'Could not find signature "{name}". Please choose from: '
                         f"{', '.join(sorted(sigs))}")
    return sigs[name]


def _inputs_outputs(fn, indent: str, out) -> None:
    print(f"{indent}The given SavedModel SignatureDef contains the following input(s):",
          file=out)
    for key, spec in fn.input_keys:
        print(_spec_line(key, spec, indent), file=out)
    print(f"{indent}The given SavedModel SignatureDef contains the following output(s):",
          file=out)
    for key, spec in sorted(fn.structured_outputs.items()):
        print(_spec_line(key, spec, indent, "outputs"), file=out)


def _show_tag_sets(tag_sets: list[tuple], out) -> None:
    print("The given SavedModel contains the following tag-sets:", file=out)
    for tags in tag_sets:
        print(repr(", ".join(tags)), file=out)


def _show(loaded, everything: bool, out) -> None:
    sigs = getattr(loaded, "signatures", {})
    print("The given SavedModel has the following signatures:", file=out)
    for name in sorted(sigs):
        print(f"\nsignature_def['{name}']:", file=out)
        _inputs_outputs(sigs[name], "  ", out)
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
                 if k not in RestoredObject._TF_MODULE_IGNORED_PROPERTIES]
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


def _run(loaded, args, out) -> None:
    fn = _signature(loaded, args.signature)
    if not (args.inputs or args.input_exprs or args.input) and fn.input_keys:
        raise ValueError("At least one of --inputs, --input_exprs or --input_examples must be "
                         "required")
    results = fn(**feeds_for(fn, parse_inputs(args.inputs, args.input_exprs, args.input)))
    for key in sorted(results):
        value = np.asarray(results[key].numpy())
        print(f"Result for output key {key}:\n{value}", file=out)
        if args.outdir:
            os.makedirs(args.outdir, exist_ok=True)
            path = os.path.join(args.outdir, f"{key}.npy")
            if not args.overwrite and os.path.exists(path):
                raise RuntimeError(f"Output file {path} already exists. Add \"--overwrite\" "
                                   "to overwrite the existing output files.")
            np.save(path, value, allow_pickle=False)
            print(f"Output {key} is saved to {path}", file=out)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tracegraph.saved_model",
                                     description="Inspect and run a tracegraph saved model "
                                     "(saved_model_cli's flags).")
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("show", help="print the tag sets, signatures (and more with --all)")
    show.add_argument("--dir", required=True)
    show.add_argument("--all", action="store_true")
    show.add_argument("--tag_set")
    show.add_argument("--signature_def")
    show.add_argument("--list_ops", action="store_true")
    run = sub.add_parser("run", help="run a signature on inputs from files or literals")
    run.add_argument("--dir", required=True)
    run.add_argument("--tag_set")
    run.add_argument("--signature_def", "--signature", dest="signature",
                     default="serving_default")
    run.add_argument("--inputs", action="append", default=[],
                     metavar="'KEY=FILE.npy;KEY=FILE.npz[NAME]'")
    run.add_argument("--input_exprs", action="append", default=[],
                     metavar="'KEY=PYTHON_LITERAL;...'")
    run.add_argument("--input", action="append", default=[], metavar="KEY=FILE.npy")
    run.add_argument("--outdir")
    run.add_argument("--overwrite", action="store_true")
    ops = sub.add_parser("ops", help="list the op types of a TensorFlow SavedModel")
    ops.add_argument("--dir", required=True)
    return parser


def _load(path, tags=None):
    if not os.path.isfile(os.path.join(path, "saved_model.json")) and \
            is_tensorflow_saved_model(path):
        return load_tensorflow_saved_model(path, list(tags) if tags else None)
    return load(path)


def _ops(path: str, out) -> int:
    """Prints the op types of a TensorFlow SavedModel; 1 if tracegraph lacks some."""
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
    args = _parser().parse_args(argv)
    try:
        if args.command == "ops":
            return _ops(args.dir, out)
        if not os.path.isdir(args.dir):
            raise SavedDataError(args.dir, "", "no such directory (or not a directory)")
        tag_sets = _tag_sets(args.dir)
        tags = None if args.tag_set is None else _check_tag_set(args.tag_set, tag_sets)
        if args.command == "show" and not args.all and tags is None:
            if args.list_ops:
                print("--list_ops must be paired with a tag-set or with --all.", file=out)
            _show_tag_sets(tag_sets, out)
            print(file=out)
        loaded = _load(args.dir, tags)
        if args.command == "run":
            _run(loaded, args, out)
        elif args.all or tags is None:
            _show(loaded, args.all, out)
        else:
            _show_tagged(loaded, tags, args, out)
    except (SavedDataError, ValueError, TypeError, RuntimeError, OpError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0
