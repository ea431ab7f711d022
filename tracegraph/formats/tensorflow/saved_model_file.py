"""The `saved_model.pb` of a TensorFlow SavedModel directory: read, checked, and asked which op
types the model's functions use.

    tracegraph.formats.tensorflow.op_types("path/to/saved_model")
    # {'AddV2': ['__inference___call___94'], 'MatMul': [...], ...}

A TensorFlow 2 SavedModel holds one MetaGraphDef (tag `serve`) with the function library
(`graph_def.library`), the object graph (`object_graph_def`: the saved objects, their
variables and functions) and the signatures. `op_types` lists the op types of the functions the
object graph and the signatures reach; the save and restore functions TensorFlow adds for its
own checkpointing are never run by tracegraph and are not listed.
"""

from __future__ import annotations

import os

from ...ops.registry import get_op
from .format_errors import data_loss, invalid
from .function_library import FunctionLibrary
from .messages import messages
from .model_files import MAX_PROTO_BYTES, ModelFiles

__all__ = ["is_tensorflow_saved_model", "read_saved_model", "select_meta_graph",
           "function_roots", "op_types", "unsupported_op_types", "SAVED_MODEL_FILE"]

SAVED_MODEL_FILE = "saved_model.pb"
SAVED_MODEL_TEXT_FILE = "saved_model.pbtxt"
MAX_META_GRAPHS = 64


def is_tensorflow_saved_model(path) -> bool:
    path = os.fspath(path)
    return os.path.isdir(path) and (os.path.isfile(os.path.join(path, SAVED_MODEL_FILE)) or
                                    os.path.isfile(os.path.join(path, SAVED_MODEL_TEXT_FILE)))


def read_saved_model(files: ModelFiles):
    """The directory's SavedModel message (binary, or protobuf text when only the `.pbtxt`
    exists), parsed with size bounds."""
    proto = messages().SavedModel()
    binary = os.path.isfile(os.path.join(files.root, SAVED_MODEL_FILE))
    name = SAVED_MODEL_FILE if binary else SAVED_MODEL_TEXT_FILE
    data = files.read(name, MAX_PROTO_BYTES)
    path = os.path.join(files.root, name)
    try:
        if binary:
            proto.ParseFromString(data)
        else:
            from google.protobuf import text_format
            text_format.Parse(data.decode("utf-8"), proto)
    except Exception as e:  # DecodeError, ParseError, UnicodeDecodeError, RecursionError
        raise data_loss(path, "", f"not a SavedModel protobuf ({type(e).__name__}: "
                        f"{e!s:.200})") from None
    if not proto.meta_graphs:
        raise data_loss(path, "meta_graphs", "the SavedModel holds no MetaGraphDef")
    if len(proto.meta_graphs) > MAX_META_GRAPHS:
        raise invalid(path, "meta_graphs", f"{len(proto.meta_graphs)} MetaGraphDefs")
    return proto, path


def select_meta_graph(proto, tags, path: str):
    """The MetaGraphDef `tags` name (the only one when `tags` is None)."""
    graphs = list(proto.meta_graphs)
    if tags is None:
        if len(graphs) > 1:
            found = [sorted(g.meta_info_def.tags) for g in graphs]
            raise ValueError(f"Importing a SavedModel with `tf.saved_model.load` requires a "
                             f"`tags=` argument if there is more than one MetaGraph. Got "
                             f"`tags=None`, but there are {len(graphs)} MetaGraphs in the "
                             f"SavedModel with tag sets: {found}. Pass a `tags=` argument to "
                             f"load this SavedModel.")
        return graphs[0]
    wanted = {tags} if isinstance(tags, str) else set(tags)
    for graph in graphs:
        if set(graph.meta_info_def.tags) == wanted:
            return graph
    raise RuntimeError(f"MetaGraphDef associated with tags {sorted(wanted)} could not be "
                       f"found in SavedModel {path}, with available tags "
                       f"'{[sorted(g.meta_info_def.tags) for g in graphs]}'.")


def function_roots(meta_graph) -> list[str]:
    """The concrete functions the object graph offers (restored tf.functions, signatures,
    bare concrete functions), in node order."""
    roots = []
    for node in meta_graph.object_graph_def.nodes:
        kind = node.WhichOneof("kind")
        if kind == "function":
            roots.extend(node.function.concrete_functions)
        elif kind == "bare_concrete_function":
            roots.append(node.bare_concrete_function.concrete_function_name)
    return list(dict.fromkeys(roots))


def _library(path, tags):
    files = ModelFiles(path)
    proto, file = read_saved_model(files)
    meta_graph = select_meta_graph(proto, tags, file)
    return FunctionLibrary(meta_graph.graph_def.library, file), function_roots(meta_graph)


def op_types(path, tags=None) -> dict[str, list[str]]:
    """op type -> the functions using it, for every function a loaded model can run
    (nothing is converted or run; the file is only read)."""
    library, roots = _library(os.fspath(path), tags)
    return library.op_types(roots)


def _known(op_type: str) -> bool:
    try:
        record = get_op(op_type)
    except KeyError:
        return False
    return record.tf_type == op_type and record.kernel is not None


def unsupported_op_types(path, tags=None) -> dict[str, list[str]]:
    """The op types of `op_types(path)` that tracegraph does not implement."""
    return {t: users for t, users in op_types(path, tags).items() if not _known(t)}
