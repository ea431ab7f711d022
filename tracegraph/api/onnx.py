"""`tracegraph.onnx`: export to ONNX (needs the `onnx` extra when used)."""

from ..export.onnx import ONNXExportError, coverage, export  # noqa: F401
