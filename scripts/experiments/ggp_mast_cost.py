#!/usr/bin/env python3
"""One UCT search of ITERATIONS iterations from a packaged GDL sheet's initial
position, seed 1, with MAST (1) or without (0): run under callgrind to count what a
search pays for MAST (docs/ggp.md, "Strength"):

    valgrind --tool=callgrind --toggle-collect=miai_search_run \
        $(python3 -c 'import sys; print(sys.executable)') \
        scripts/experiments/ggp_mast_cost.py connectFour 1 2000
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.gdl.game import load  # noqa: E402
from engine.gdl.sheets import sheet_path  # noqa: E402
from engine.search import UCT, Search  # noqa: E402

if __name__ == "__main__":
    sheet, mast, iterations = sys.argv[1], sys.argv[2] == "1", int(sys.argv[3])
    game = load(sheet_path(sheet).read_text(), sheet)
    Search(game.initial_state(), UCT(c=0.4), seed=1, mast=mast).run(iterations=iterations)
