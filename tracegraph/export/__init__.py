"""Layer 10: graphs and state leaving Python.

- The native saved format (`tf.saved_model`, `tf.train.Checkpoint`). Everything written is JSON
  plus `.npz` archives of plain arrays; nothing is pickled, and the loader treats every file as
  untrusted: each field is validated before use, and any problem is a `SavedDataError` naming
  the file and the field (DESIGN "Nothing unsafe on load").
- TensorBoard event files and `tf.summary` (`summary`, `events`), real protobuf GraphDefs
  (`protos`), TensorFlow-importable GraphDefs (`tensorflow`), ONNX models (`onnx`). Every
  external tool is an optional extra, imported only when used (`extras.require`).
"""
