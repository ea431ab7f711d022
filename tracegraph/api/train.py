"""`tf.train`: checkpoints of an object tree's Variables; `tf.train.Example` and its family
(protobuf messages, made on first use: they need the `tfformats` extra)."""

from ..formats.checkpoint.checkpoint import (  # noqa: F401
    Checkpoint,
    CheckpointLoadStatus,
    latest_checkpoint,
    list_variables,
    load_checkpoint,
    load_variable,
)
from ..formats.checkpoint.checkpoint_manager import CheckpointManager  # noqa: F401
from .missing_names import missing_name_hook

_EXAMPLE_MESSAGES = ("BytesList", "FloatList", "Int64List", "Feature", "Features",
                     "FeatureList", "FeatureLists", "Example", "SequenceExample")


_missing = missing_name_hook("tf.train", __name__)


def __getattr__(name):
    """The message classes, made on first use and then kept as this module's attributes
    (so later lookups are plain attribute reads)."""
    if name in _EXAMPLE_MESSAGES:
        from ..data.example_protos import messages
        classes = messages()
        globals().update({n: getattr(classes, n) for n in _EXAMPLE_MESSAGES})
        return getattr(classes, name)
    return _missing(name)   # AttributeError: tracegraph does not have tf.train.<name> yet
