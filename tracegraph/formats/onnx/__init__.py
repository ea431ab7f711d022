"""ONNX: export of concrete functions (the `onnx` extra, imported when used)."""
