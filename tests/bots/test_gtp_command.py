"""``bots.gtp_bot.resolve_command``: how a ``gtp:`` player's command line is found."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bots.gtp_bot import resolve_command
from engine.errors import InvalidArgumentError


def fake_engine(folder: Path, name: str) -> Path:
    exe = folder / name
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    return exe


def test_a_command_on_the_path_becomes_its_full_path(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Debian puts /usr/games on a user's PATH: the GNU Go tests check the result with
    os.access, which a bare name relative to the working directory would fail."""
    exe = fake_engine(tmp_path, "fakego")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    argv = resolve_command("fakego --mode gtp")
    assert argv == [str(exe), "--mode", "gtp"]
    assert os.access(argv[0], os.X_OK)


def test_a_path_is_kept_and_an_unknown_name_left_alone(tmp_path: Path) -> None:
    exe = fake_engine(tmp_path, "fakego")
    assert resolve_command(f"{exe} -x") == [str(exe), "-x"]
    assert resolve_command("no-such-engine-here")[0] == "no-such-engine-here"


def test_an_empty_command_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="needs a command line"):
        resolve_command("   ")


STUBBORN_ENGINE = r'''
import sys
for line in sys.stdin:
    words = line.split()
    cid = words.pop(0) if words and words[0].isdigit() else ""
    if not words:
        continue
    # answers every genmove with the same point, whether it is free or not
    print(f"={cid} D4\n" if words[0] == "genmove" else f"={cid}\n", flush=True)
    if words[0] == "quit":
        break
'''


def test_an_engine_move_our_rules_forbid_is_named_with_the_fix(tmp_path: Path) -> None:
    """A GTP peer that plays by other rules (GNU Go without --positional-superko plays
    superko repetitions) must stop the game with a message naming the engine, its
    move and the rule, not with a bare illegal-move error from the shadow board."""
    import sys

    from bots.gtp_bot import GtpBot
    from engine import games
    from engine.errors import IllegalMoveError

    script = tmp_path / "stubborn.py"
    script.write_text(STUBBORN_ENGINE)
    game = games.create("go", size=9, komi=7.0)
    bot = GtpBot(f"{sys.executable} {script}", game)
    bot.reset(game)
    state = game.initial_state()
    try:
        move = bot.choose(state, 0)  # D4 on an empty board: legal
        before = state.copy()
        state.play(move)
        bot.observe(before, move)
        reply = state.parse_move("E5")
        before = state.copy()
        state.play(reply)
        bot.observe(before, reply)
        with pytest.raises(IllegalMoveError, match=r"stubborn.py\) played d4, illegal "
                           r"under miai's rules .*--positional-superko"):
            bot.choose(state, 0)  # D4 again: occupied
    finally:
        bot.close()
