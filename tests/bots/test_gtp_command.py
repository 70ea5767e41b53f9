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
