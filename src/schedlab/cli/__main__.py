"""``python -m schedlab.cli``."""

import sys

from .main import main

sys.exit(main())
