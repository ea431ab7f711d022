"""TensorFlow Serving's directory layout: a model's base path holds one SavedModel per version,
in folders named by positive integers (`models/classifier/1`, `models/classifier/2`, ...);
Serving loads the highest version (by default) and picks up a new folder when it appears.

    path = next_version_path("models/classifier")      # 'models/classifier/3' after 1 and 2
    tf.saved_model.save(model, path, format="tensorflow")

`tf.saved_model.save` writes the folder under a temporary name beside it (not a number, so
Serving ignores it) and renames it into place, so Serving never sees half a model. TensorFlow
itself has no such helper.
"""

from __future__ import annotations

import os

__all__ = ["next_version_path", "versions"]


def versions(base_path) -> list[int]:
    """The version numbers of the SavedModels under `base_path`, in increasing order."""
    base = os.fspath(base_path)
    if not os.path.isdir(base):
        return []
    found = []
    for name in os.listdir(base):
        if name.isdigit() and os.path.isdir(os.path.join(base, name)) and int(name) > 0:
            found.append(int(name))
    return sorted(found)


def next_version_path(base_path) -> str:
    """`base_path/<the highest version + 1>` (`base_path/1` for a new model)."""
    numbers = versions(base_path)
    return os.path.join(os.fspath(base_path), str(numbers[-1] + 1 if numbers else 1))
