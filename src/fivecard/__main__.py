"""``python -m fivecard``: the same as the ``fivecard`` command."""

import sys

from .cli import main

sys.exit(main())
