"""``python -m sitesift.cli``: the same as ``sitesift``."""

import sys

from sitesift.cli import main

sys.exit(main())
