"""ONNX: export of concrete functions (the `onnx` extra, imported only when a model is built).

The per-op table lives in `lowering_table` (keyed by TensorFlow op type); the lowering functions
are registered by the `*_lowerings` modules imported here, so the table is complete whenever
anything under `tracegraph.formats.onnx` is imported.
"""

from . import (  # noqa: F401  (each module registers its lowerings)
    control_flow_lowerings,
    convolution_lowerings,
    counting_lowerings,
    elementwise_lowerings,
    indexing_lowerings,
    matrix_lowerings,
    reduction_lowerings,
    scatter_image_lowerings,
    shape_lowerings,
)
