"""A full 9x9 game of miai against GNU Go 3.8 at a tiny budget finishes, and GNU Go's
final_score and miai's scorer agree on the result."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bots.gtp_bot import resolve_command

GNUGO = resolve_command("gnugo")[0]
pytestmark = pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go not installed")


@pytest.mark.parametrize("index", [0, 1])  # miai black, then white
def test_full_game_against_gnugo_agrees_on_the_result(index: int, tmp_path: Path) -> None:
    from protocols.gtp.versus import play_one, winner_of

    gnugo = "gnugo --mode gtp --chinese-rules --positional-superko --level 1"
    outcome = play_one("uct:iterations=300", gnugo, 9, 7.0, index, tmp_path)
    sgf = (tmp_path / f"game{index:04d}.sgf").read_text()
    assert sgf.startswith("(;") and "SZ[9]" in sgf
    assert outcome.plies > 10
    assert outcome.miai_black == (index == 0)
    assert winner_of(outcome.gnugo_score) in "BW"
    assert winner_of(outcome.gnugo_score) == winner_of(outcome.miai_score), outcome
