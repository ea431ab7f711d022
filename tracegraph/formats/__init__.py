"""Layer 12: graphs and state leaving Python, one folder per file format.

- `native/`: tracegraph's own saved-model format (`tf.saved_model`). Everything written is JSON
  plus `.npz` archives of plain arrays; nothing is pickled, and the loader treats every file as
  untrusted: each field is validated before use, and any problem is a `SavedDataError` naming
  the file and the field (DESIGN "Nothing unsafe on load").
- `checkpoint/`: `tf.train.Checkpoint`, `CheckpointManager`, the checkpoint state file and
  deferred restoration, in the same safe JSON + `.npz` files.
- `tensorboard/`: event files and `tf.summary`.
- `onnx/`: ONNX models, and the table of how each op type lowers to ONNX.
- `tensorflow/`: TensorFlow-importable GraphDefs, real protobuf messages, and TensorFlow's op
  definitions.

Shared by the formats, here: the one error a saved file raises (`saved_data_error`), arrays on
disk without pickle (`npz_arrays`), files opened as untrusted input (only regular files inside
their directory, never blocking, reads bounded and checked against sealed manifests) and atomic
writes (`safe_files`). Optional extras are imported only when used, through
`tracegraph/optional_extras.py` (a leaf module tf.data's file formats share).
"""
