"""`tf.nest`: flattening and rebuilding nested structures.

Lists, tuples, namedtuples, dicts (in sorted key order, as TensorFlow does), dataclass
instances (their fields, in definition order) and objects of TensorFlow's custom nest protocol
(`__tf_flatten__() -> (metadata, components)` and the classmethod
`__tf_unflatten__(metadata, components)`, e.g. `tf.TensorArray`) are structures; everything
else is a leaf. With `expand_composites=True`, composite values (a RaggedTensor, a
SparseTensor: anything with a `_type_spec` that splits it into components) are structures of
their component tensors too.
"""

from __future__ import annotations

import dataclasses

from .shapes import TypeSpec

__all__ = ["is_nested", "flatten", "pack_sequence_as", "map_structure", "assert_same_structure",
           "composite_spec", "is_composite"]


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _custom(x) -> bool:
    return hasattr(type(x), "__tf_flatten__") and not isinstance(x, type)


def is_nested(x) -> bool:
    return isinstance(x, (list, tuple, dict)) or (dataclasses.is_dataclass(x)
                                                  and not isinstance(x, type)) or _custom(x)


def _sorted_keys(d: dict) -> list:
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=repr)


def children(x) -> list:
    if isinstance(x, dict):
        return [x[k] for k in _sorted_keys(x)]
    if isinstance(x, (list, tuple)):
        return list(x)
    if _custom(x):
        return list(x.__tf_flatten__()[1])
    return [getattr(x, f.name) for f in dataclasses.fields(x)]


def composite_spec(x):
    """The spec of a composite value (a RaggedTensor, a SparseTensor: its
    `__tf_composite_spec__()`), or None for anything else."""
    if isinstance(x, (TypeSpec, type)) or \
            getattr(type(x), "__tf_composite_spec__", None) is None:
        return None
    return x.__tf_composite_spec__()


def is_composite(x) -> bool:
    return composite_spec(x) is not None


def flatten(structure, expand_composites: bool = False) -> list:
    """The leaves of `structure`, depth first (dicts by sorted key)."""
    out: list = []
    _flatten(structure, out, expand_composites)
    return out


def _flatten(x, out: list, expand: bool = False) -> None:
    if is_nested(x):
        for child in children(x):
            _flatten(child, out, expand)
    elif expand and is_composite(x):
        for component in composite_spec(x).to_tensors(x):
            _flatten(component, out, expand)
    else:
        out.append(x)


def _rebuild(template, values: list):
    if isinstance(template, dict):
        keys = _sorted_keys(template)
        rebuilt = dict(zip(keys, values))
        return type(template)((k, rebuilt[k]) for k in template) if type(template) is not \
            dict else {k: rebuilt[k] for k in template}
    if _is_namedtuple(template):
        return type(template)(*values)
    if isinstance(template, tuple):
        return tuple(values) if type(template) is tuple else type(template)(values)
    if isinstance(template, list):
        return list(values)
    if _custom(template):
        return type(template).__tf_unflatten__(template.__tf_flatten__()[0], tuple(values))
    fields = [f.name for f in dataclasses.fields(template)]
    return dataclasses.replace(template, **dict(zip(fields, values)))


def pack_sequence_as(structure, flat_sequence, expand_composites: bool = False):
    """Rebuilds `structure` with its leaves replaced by `flat_sequence`, in order."""
    flat = list(flat_sequence)
    it = iter(flat)
    result = _pack(structure, it, expand_composites)
    rest = list(it)
    if rest:
        raise ValueError(f"Structure had {len(flat) - len(rest)} leaves, but flat_sequence had "
                         f"{len(flat)} elements.")
    return result


def _pack(template, it, expand: bool = False):
    if is_nested(template):
        return _rebuild(template, [_pack(c, it, expand) for c in children(template)])
    if expand and is_composite(template):
        spec = composite_spec(template)
        return spec.from_tensors(iter([_pack(c, it, expand)
                                       for c in spec.to_tensors(template)]))
    try:
        return next(it)
    except StopIteration:
        raise ValueError("flat_sequence has fewer elements than the structure has leaves.") \
            from None


def map_structure(func, *structures):
    if not structures:
        raise ValueError("Must provide at least one structure")
    for s in structures[1:]:
        assert_same_structure(structures[0], s)
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [func(*xs) for xs in zip(*flats)])


def assert_same_structure(nest1, nest2, check_types: bool = True) -> None:
    if is_nested(nest1) != is_nested(nest2):
        raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst "
                         f"structure: {nest1!r}\n\nSecond structure: {nest2!r}")
    if not is_nested(nest1):
        return
    if check_types and type(nest1) is not type(nest2) and not (
            isinstance(nest1, (list, tuple)) and isinstance(nest2, (list, tuple))
            and not check_types):
        raise TypeError(f"The two structures don't have the same sequence type. Input "
                        f"structure has type {type(nest1)}, while shallow structure has type "
                        f"{type(nest2)}.")
    if isinstance(nest1, dict) and set(nest1) != set(nest2):
        raise ValueError(f"The two dictionaries don't have the same set of keys. First "
                         f"structure has keys {sorted(map(repr, nest1))}, while second "
                         f"structure has keys {sorted(map(repr, nest2))}.")
    c1, c2 = children(nest1), children(nest2)
    if len(c1) != len(c2):
        raise ValueError(f"The two structures don't have the same number of elements. First "
                         f"structure: {nest1!r}, second structure: {nest2!r}.")
    for a, b in zip(c1, c2):
        assert_same_structure(a, b, check_types)
