import sys

from sitesift.cli import main

sys.exit(main())
