"""Experiments as files: a TOML description of a tournament, read with tomllib.

Top-level keys (see scripts/experiments/*.toml):
  title, paper_ref, note      text for the report
  game                        game spec, e.g. "hex:size=5"
  format                      "gauntlet", "round-robin" or "series" (one-player games)
  games                       games per pairing (per player in a series)
  iterations | seconds        per-move budget replacing every bot's own (optional)
  seed                        base seed (default 0)
  baseline                    gauntlet: the baseline's spec (default: the first player)
  opening                     moves played before every game, e.g. ["b2"]
  openings                    several opening move lists, played in turn
  [[players]]                 spec, label (optional), paper (the paper's figure, 0..1)
  [[grid]]                    spec and label templates with {key} holes, and
                              values = {key = [...]}: one player per combination;
                              paper = {"v1,v2" = figure} keyed by the values in order
  [plot]                      x, series: bot parameters for the plot's axis and lines
  [scale.NAME]                overrides of game, games, iterations, seconds for
                              ``--scale NAME`` (e.g. "tiny" for CI)
"""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bots.tournament.schedule import FORMATS, RunSpec, canonical_spec, make_players
from engine.errors import InvalidArgumentError, ParseError

TOP_KEYS = {"title", "paper_ref", "note", "game", "format", "games", "iterations", "seconds",
            "seed", "baseline", "opening", "openings", "players", "grid", "plot", "scale",
            "name"}
SCALE_KEYS = {"game", "games", "iterations", "seconds", "note"}


@dataclass(frozen=True)
class Experiment:
    name: str  # the run's name in the results file
    path: Path
    spec: RunSpec
    scale: str | None


def load(path: str | Path, *, scale: str | None = None, games: int | None = None
         ) -> Experiment:
    """The experiment in ``path``, at ``scale`` (a [scale.NAME] table) and with
    ``games`` per pairing when given."""
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text())
    except OSError as exc:
        raise InvalidArgumentError(f"experiment {file}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ParseError(f"experiment {file}: {exc}") from None
    return from_dict(data, file, scale=scale, games=games)


def from_dict(data: dict[str, Any], file: Path, *, scale: str | None = None,
              games: int | None = None) -> Experiment:
    where = f"experiment {file}"
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise InvalidArgumentError(f"{where}: unknown key {unknown[0]!r}")
    settings = dict(data)
    if scale is not None:
        scales = data.get("scale") or {}
        if scale not in scales:
            known = ", ".join(sorted(scales)) or "none"
            raise InvalidArgumentError(f"{where}: no [scale.{scale}] (scales: {known})")
        extra_keys = sorted(set(scales[scale]) - SCALE_KEYS)
        if extra_keys:
            raise InvalidArgumentError(f"{where}: [scale.{scale}] cannot set {extra_keys[0]!r}")
        settings.update({k: v for k, v in scales[scale].items() if k != "note"})
        if "iterations" in scales[scale]:
            settings.pop("seconds", None)
        if "seconds" in scales[scale]:
            settings.pop("iterations", None)
    if games is not None:
        settings["games"] = games

    specs, labels, paper = _players(data, where)
    game = _text(settings, "game", where)
    fmt = str(settings.get("format", "gauntlet"))
    if fmt not in FORMATS:
        raise InvalidArgumentError(f"{where}: format {fmt!r} is not one of {', '.join(FORMATS)}")
    openings = _openings(data, where)
    baseline = data.get("baseline")
    spec = RunSpec(
        game=game,
        players=make_players(specs, labels),
        format=fmt,
        games=_int(settings, "games", where, default=None),
        iterations=_int(settings, "iterations", where),
        seconds=_float(settings, "seconds", where),
        seed=_int(settings, "seed", where, default=0) or 0,
        openings=openings,
        baseline=canonical_spec(baseline) if baseline is not None else None,
        extra={
            "title": data.get("title", file.stem),
            "paper_ref": data.get("paper_ref", ""),
            "note": (data.get("note") or "") + (
                f"\n\nScale {scale}: {data['scale'][scale].get('note', '')}".rstrip()
                if scale is not None else ""),
            "paper": paper,
            "plot": dict(data.get("plot") or {}),
            "experiment": file.name,
            "scale": scale,
        },
    )
    name = str(data.get("name") or file.stem) + (f"@{scale}" if scale else "")
    return Experiment(name, file, spec, scale)


def _players(data: dict[str, Any], where: str
             ) -> tuple[list[str], list[str | None], dict[str, float]]:
    specs: list[str] = []
    labels: list[str | None] = []
    paper: dict[str, float] = {}
    for k, entry in enumerate(data.get("players") or []):
        if not isinstance(entry, dict) or "spec" not in entry:
            raise InvalidArgumentError(f"{where}: players[{k}] needs a spec")
        extra = sorted(set(entry) - {"spec", "label", "paper"})
        if extra:
            raise InvalidArgumentError(f"{where}: players[{k}] has unknown key {extra[0]!r}")
        spec = canonical_spec(str(entry["spec"]))
        specs.append(spec)
        labels.append(entry.get("label"))
        if "paper" in entry:
            paper[spec] = float(entry["paper"])
    for k, grid in enumerate(data.get("grid") or []):
        if not isinstance(grid, dict) or "spec" not in grid or "values" not in grid:
            raise InvalidArgumentError(f"{where}: grid[{k}] needs spec and values")
        keys = list(grid["values"])
        figures = {str(c): float(v) for c, v in (grid.get("paper") or {}).items()}
        for combo in itertools.product(*(grid["values"][key] for key in keys)):
            values = {key: _value_text(v) for key, v in zip(keys, combo, strict=True)}
            try:
                spec = canonical_spec(str(grid["spec"]).format(**values))
                label = str(grid.get("label", grid["spec"])).format(**values)
            except KeyError as exc:
                raise InvalidArgumentError(f"{where}: grid[{k}] has no value for {exc}") \
                    from None
            specs.append(spec)
            labels.append(label)
            figure = figures.get(",".join(values[key] for key in keys))
            if figure is not None:
                paper[spec] = figure
    if not specs:
        raise InvalidArgumentError(f"{where}: no players")
    return specs, labels, paper


def _value_text(v: object) -> str:
    if isinstance(v, float) and v == float("inf"):
        return "inf"
    return str(v)


def _openings(data: dict[str, Any], where: str) -> tuple[tuple[str, ...], ...]:
    if "opening" in data and "openings" in data:
        raise InvalidArgumentError(f"{where}: give opening or openings, not both")
    raw = [data["opening"]] if "opening" in data else data.get("openings", [])
    out = []
    for o in raw:
        if not isinstance(o, list) or not all(isinstance(m, str) for m in o):
            raise InvalidArgumentError(f"{where}: an opening is a list of move texts")
        out.append(tuple(o))
    return tuple(out)


def _text(data: dict[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidArgumentError(f"{where}: {key} must be given as text")
    return value


def _int(data: dict[str, Any], key: str, where: str, default: int | None = None
         ) -> int | None:
    value = data.get(key, default)
    if value is None:
        if key == "games":
            raise InvalidArgumentError(f"{where}: games (per pairing) must be given")
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentError(f"{where}: {key} must be a whole number")
    return value


def _float(data: dict[str, Any], key: str, where: str) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidArgumentError(f"{where}: {key} must be a number")
    return float(value)
