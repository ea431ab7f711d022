"""The `tfformats` extra (protobuf, google-crc32c, tensorboard) for TensorFlow's file formats in
tf.data: imported only when a feature needs it, with an ImportError naming the extra.

(`export/extras.require` does the same for the formats above this layer.)"""

from __future__ import annotations

import importlib

__all__ = ["require_tfformats", "EXTRA"]

EXTRA = "tfformats"


def require_tfformats(module: str, feature: str):
    """Imports `module`, or raises ImportError telling the user to install the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(
            f"{feature} needs the '{module.split('.')[0]}' package, which is not installed "
            f"({e}). Install it with: pip install 'tracegraph[{EXTRA}]'") from None
