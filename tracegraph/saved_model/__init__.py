"""`tf.saved_model`: save an object's functions and variables, load them without the source.

`load` reads tracegraph's own format (`saved_model.json`) and TensorFlow's (`saved_model.pb`
and its `variables/` bundle), recognising each by its files.

`python -m tracegraph.saved_model show --dir DIR [--all]` and
`python -m tracegraph.saved_model run --dir DIR --signature NAME --input x=FILE.npy` inspect
and run a saved directory (the role of TensorFlow's `saved_model_cli`).
"""

from ..formats.native.loading import load as _load_tracegraph
from ..formats.native.saving import DEFAULT_SIGNATURE as DEFAULT_SERVING_SIGNATURE_DEF_KEY
from ..formats.native.saving import SaveOptions, save
from ..formats.saved_data_error import SavedDataError


class LoadOptions:
    """Accepted for TensorFlow compatibility; tracegraph's format has no load options."""

    def __init__(self, **kwargs):
        self.options = kwargs


def load(export_dir, tags=None, options=None):
    """`tf.saved_model.load`: the saved object with its functions, Variables and signatures,
    from tracegraph's format or from a SavedModel TensorFlow wrote (the `tfformats` extra)."""
    import os

    from ..formats.tensorflow.saved_model_file import is_tensorflow_saved_model
    path = os.fspath(export_dir)
    if not os.path.isfile(os.path.join(path, "saved_model.json")) and \
            is_tensorflow_saved_model(path):
        from ..formats.tensorflow.saved_model_loader import load_tensorflow_saved_model
        return load_tensorflow_saved_model(path, tags, options)
    return _load_tracegraph(export_dir, tags, options)


def contains_saved_model(export_dir) -> bool:
    import os

    from ..formats.tensorflow.saved_model_file import is_tensorflow_saved_model
    path = os.fspath(export_dir)
    return os.path.isfile(os.path.join(path, "saved_model.json")) or \
        is_tensorflow_saved_model(path)


__all__ = ["save", "load", "SavedDataError", "SaveOptions", "LoadOptions",
           "contains_saved_model", "DEFAULT_SERVING_SIGNATURE_DEF_KEY"]
