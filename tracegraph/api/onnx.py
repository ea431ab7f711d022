"""`tracegraph.onnx`: export to ONNX (needs the `onnx` extra when used)."""

from ..formats.onnx.exporter import ONNXExportError, coverage, export  # noqa: F401
