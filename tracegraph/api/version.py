"""`tf.version`: tracegraph's own version (`tf.__version__`, as pip reports it; code that
parses it as a TensorFlow version, like Keras's SavedModel export, reads 0.x and takes its
path for older TensorFlows, which tracegraph's compat modules serve) and the GraphDef versions
of the graphs tracegraph writes."""

import platform as _platform

from .. import __version__ as VERSION  # noqa: N812 - TensorFlow's constant names
from ..graph.graph_def import PRODUCER_VERSION as GRAPH_DEF_VERSION

GIT_VERSION = f"tracegraph-{VERSION}"
COMPILER_VERSION = f"{_platform.python_implementation()} {_platform.python_version()}"
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0
