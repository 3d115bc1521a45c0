"""``python -m pegboard``: the same as the ``pegboard`` command."""

import sys

from pegboard.cli.main import main

sys.exit(main())
