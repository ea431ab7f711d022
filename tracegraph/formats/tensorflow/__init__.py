"""TensorFlow's formats: GraphDefs TensorFlow imports, protobuf messages, TF's op definitions,
and TensorFlow's SavedModels, tensor bundles and checkpoints, read and written without
TensorFlow.

    tracegraph.formats.tensorflow.op_types(path)              # op type -> functions using it
    tracegraph.formats.tensorflow.unsupported_op_types(path)  # those tracegraph lacks
    tf.saved_model.load(path)                                 # a SavedModel TensorFlow wrote
    tf.saved_model.save(obj, path, format="tensorflow")       # one TensorFlow loads
    tracegraph.formats.tensorflow.next_version_path(base)     # TF Serving's next version
    tf.train.load_checkpoint(prefix)                          # a TensorFlow checkpoint
"""

from .saved_model_file import op_types, unsupported_op_types  # noqa: F401
from .serving import next_version_path, versions  # noqa: F401
