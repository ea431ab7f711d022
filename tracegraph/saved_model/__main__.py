"""`python -m tracegraph.saved_model show|run ...`."""

import sys

from ..formats.native.saved_model_cli import main

sys.exit(main())
