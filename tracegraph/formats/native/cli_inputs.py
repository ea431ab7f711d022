"""The inputs `python -m tracegraph.saved_model run` feeds a signature, spelled as TensorFlow's
`saved_model_cli` spells them (same formats, same error messages), plus tracegraph's own:

    --inputs 'x=a.npy;y=b.npz[name]'    .npy files, or a member of an .npz (its only member
                                        when no name is given); read with allow_pickle=False
    --input_exprs 'x=[[1.0, 2.0]]'      Python literals (ast.literal_eval, as TensorFlow)
    --input x=a.npy                     tracegraph's spelling, repeatable

Later flags override earlier ones for the same key (`--input_exprs` over `--inputs`), as in
TensorFlow. Values are converted to the signature's input dtypes, as a feed is.
"""

from __future__ import annotations

import ast
import re

import numpy as np

from ... import dtypes as d

__all__ = ["parse_inputs", "feeds_for"]

_WITH_NAME = re.compile(r"([^=]+)=([^\[\]]+)\[([^\[\]]+)\]$")
_FILE_ONLY = re.compile(r"([^=]+)=([^\[\]]+)$")


def _load(path: str, name: str | None):
    try:
        data = np.load(path, allow_pickle=False)
    except Exception as e:  # OSError, ValueError for pickled or malformed files
        raise ValueError(f"Cannot read input file {path}: {e}") from None
    if isinstance(data, np.ndarray):
        return data          # TensorFlow ignores a name given for an .npy file
    with data:
        if name:
            if name not in data.files:
                raise RuntimeError(f'Input file {path} does not contain variable with name '
                                   f'"{name}".')
            return data[name]
        if len(data.files) != 1:
            raise RuntimeError(f"Input file {path} contains more than one ndarrays. Please "
                               "specify the name of ndarray to use.")
        return data[data.files[0]]


def _files(inputs: str) -> dict:
    out = {}
    for item in filter(bool, inputs.split(";")):
        match = _WITH_NAME.match(item) or _FILE_ONLY.match(item)
        if match is None:
            raise RuntimeError(f'--inputs "{item}" format is incorrect. Please follow'
                               '"<input_key>=<filename>", or'
                               '"<input_key>=<filename>[<variable_name>]"')
        name = match.group(3) if match.re is _WITH_NAME else None
        out[match.group(1)] = _load(match.group(2), name)
    return out


def _expressions(exprs: str) -> dict:
    out = {}
    for item in filter(bool, exprs.split(";")):
        if "=" not in item:
            raise RuntimeError(f'--input_exprs "{exprs}" format is incorrect. Please follow'
                               '"<input_key>=<python expression>"')
        key, expr = item.split("=", 1)
        try:
            out[key] = ast.literal_eval(expr)
        except Exception:  # noqa: BLE001 - any non-literal, as TensorFlow reports it
            raise RuntimeError(f'Expression "{expr}" is not a valid python literal.') from None
    return out


def parse_inputs(inputs: list[str], exprs: list[str], own: list[str]) -> dict:
    """key -> value from `--inputs`, `--input_exprs` and `--input` (in that order of
    precedence, lowest first)."""
    feeds = _files(";".join(inputs))
    feeds.update(_expressions(";".join(exprs)))
    for item in own:
        key, sep, path = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--input expects KEY=FILE.npy, got {item!r}.")
        feeds[key] = _load(path, None)
    return feeds


def feeds_for(signature, values: dict) -> dict:
    """The keyword tensors of `signature` (a loaded SignatureFunction): keys checked, values
    converted to the input dtypes."""
    specs = dict(signature.input_keys)
    for key in values:
        if key not in specs:
            choices = '"' + '", "'.join(specs) + '"'
            raise ValueError(f'"{key}" is not a valid input key. Please choose from '
                             f"{choices}, or use --show option.")
    out = {}
    for key, value in values.items():
        dtype = specs[key].dtype
        out[key] = np.asarray(value, dtype=object if dtype is d.string else
                              dtype.as_numpy_dtype)
    return out
