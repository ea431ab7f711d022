"""`tf.io`."""

from ..data import gfile  # noqa: F401
from ..data.csv_files import decode_csv  # noqa: F401
from ..data.example_parsing import parse_example, parse_single_example  # noqa: F401
from ..data.parsing_config import (  # noqa: F401
    FixedLenFeature,
    FixedLenSequenceFeature,
    RaggedFeature,
    VarLenFeature,
)
from ..data.sequence_parsing import parse_single_sequence_example  # noqa: F401
from ..data.tensor_protos import parse_tensor, serialize_tensor  # noqa: F401
from ..data.tfrecord import (  # noqa: F401
    TFRecordCompressionType,
    TFRecordOptions,
    TFRecordWriter,
    tf_record_iterator,
)
from ..framework.ragged_ops import decode_raw  # noqa: F401
