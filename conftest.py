"""Make the checkout under test importable first (before any installed copy)."""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent)
if sys.path[0] != ROOT:
    sys.path.insert(0, ROOT)
