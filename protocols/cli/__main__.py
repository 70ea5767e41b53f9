"""``python3 -m protocols.cli``: the ``miai`` command from a checkout."""

import sys

from protocols.cli.main import main

sys.exit(main())
