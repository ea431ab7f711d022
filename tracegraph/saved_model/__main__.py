"""`python -m tracegraph.saved_model show|run ...`."""

import sys

from ..export.cli import main

sys.exit(main())
