"""Where rulesheets are found: a path, or the name of a sheet in ../shared/ggp/games
(the GDL rulesheets shared beside the repository, used from there, never copied)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "ggp" / "games"


def sheet_path(name: str) -> Path:
    """``name`` itself when it is a file, else the shared sheet of that name (with or
    without ``.kif``; it may not exist: the caller reports that)."""
    path = Path(name)
    if path.is_file():
        return path
    return SHARED / (name if name.endswith(".kif") else name + ".kif")


def sheet_paths(names: Sequence[str]) -> list[Path]:
    """The sheets named, or every shared sheet (sorted) when none is."""
    return [sheet_path(n) for n in names] if names else sorted(SHARED.glob("*.kif"))
