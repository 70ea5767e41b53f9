"""Where rulesheets are found: a path, or the name of a sheet shipped with the package
in ``engine/gdl/rulesheets/`` (GDL rulesheets from ggp-base, under its licence: see the
README there)."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path

PACKAGED = Path(str(resources.files("engine.gdl").joinpath("rulesheets")))


def sheet_path(name: str) -> Path:
    """``name`` itself when it is a file, else the packaged sheet of that name (with or
    without ``.kif``; it may not exist: the caller reports that)."""
    path = Path(name)
    if path.is_file():
        return path
    return PACKAGED / (name if name.endswith(".kif") else name + ".kif")


def sheet_names() -> list[str]:
    """The names of the packaged sheets (file names without ``.kif``), sorted."""
    return sorted(p.stem for p in PACKAGED.glob("*.kif"))


def sheet_paths(names: Sequence[str]) -> list[Path]:
    """The sheets named, or every packaged sheet (sorted) when none is."""
    return [sheet_path(n) for n in names] if names else sorted(PACKAGED.glob("*.kif"))
