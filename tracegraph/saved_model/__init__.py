"""`tf.saved_model`: save an object's functions and variables, load them without the source.

`python -m tracegraph.saved_model show --dir DIR [--all]` and
`python -m tracegraph.saved_model run --dir DIR --signature NAME --input x=FILE.npy` inspect
and run a saved directory (the role of TensorFlow's `saved_model_cli`).
"""

from ..formats.native.loading import load
from ..formats.native.saving import DEFAULT_SIGNATURE as DEFAULT_SERVING_SIGNATURE_DEF_KEY
from ..formats.native.saving import SaveOptions, save
from ..formats.saved_data_error import SavedDataError


class LoadOptions:
    """Accepted for TensorFlow compatibility; tracegraph's format has no load options."""

    def __init__(self, **kwargs):
        self.options = kwargs


def contains_saved_model(export_dir) -> bool:
    import os
    return os.path.isfile(os.path.join(os.fspath(export_dir), "saved_model.json"))


__all__ = ["save", "load", "SavedDataError", "SaveOptions", "LoadOptions",
           "contains_saved_model", "DEFAULT_SERVING_SIGNATURE_DEF_KEY"]
