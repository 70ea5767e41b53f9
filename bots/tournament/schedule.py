"""Which games a tournament plays: pairings, seats, openings and seeds.

A :class:`RunSpec` names a run: the game, the players (bot specs), the format, the
number of games per pairing, the per-move budget, the base seed and the openings.
:func:`tasks` turns it into :class:`GameTask` s, each identified by
``(pairing key, game index)``.  Everything about a game -- who sits where, which
opening, every bot's seed -- is a pure function of the run's fixed fields, the
pairing key and the game index, never of the order in which games are played: so one
worker, many workers or a cluster play exactly the same games, and a resumed or
extended run continues the same sequence.

Formats:
  ``round-robin``  every combination of ``n_roles`` distinct players (pairs in a
                   two-player game);
  ``gauntlet``     every other player against the baseline (the first player, or
                   ``baseline``); with more than two roles the baseline fills the
                   other seats;
  ``series``       one-player games: each player plays its own series.
Seats rotate with the game index (``bots.match.seats_for``): in a two-player
pairing the players swap colours every game.  With several openings, game ``g`` uses
opening ``(g // n_roles) % len(openings)``, so each opening is played once from
every seat before the next.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from bots.gtp_bot import PREFIX as GTP_PREFIX
from bots.match import seats_for
from bots.spec import parse_spec
from engine.errors import InvalidArgumentError

FORMATS = ("round-robin", "gauntlet", "series")
SEED_MASK = 2**63 - 1  # seeds stay positive in SQLite's signed 64-bit integers


@dataclass(frozen=True)
class Player:
    spec: str  # canonical bot spec text
    label: str  # a name for tables and plots (the spec by default)


@dataclass(frozen=True)
class RunSpec:
    game: str
    players: tuple[Player, ...]
    format: str
    games: int  # per pairing
    iterations: int | None = None
    seconds: float | None = None
    seed: int = 0
    openings: tuple[tuple[str, ...], ...] = ()
    baseline: str | None = None  # gauntlet: the baseline's spec (default: first player)
    extra: dict[str, object] = field(default_factory=dict, compare=False)

    def fixed(self) -> dict[str, object]:
        """The fields a stored game depends on: a resumed or extended run must keep
        them (players and the number of games may grow)."""
        return {
            "game": self.game,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "seed": self.seed,
            "openings": [list(o) for o in self.openings],
        }

    def label_of(self, spec: str) -> str:
        for p in self.players:
            if p.spec == spec:
                return p.label
        return spec


@dataclass(frozen=True)
class GameTask:
    """One game to play: everything a worker needs, and nothing else."""

    run: str
    game: str
    pairing: str  # the pairing key: its players' specs joined by PAIR_SEP
    game_index: int
    players: tuple[str, ...]  # spec per role
    seats: tuple[int, ...]  # index in the pairing of the player at each role
    opening: tuple[str, ...]
    seeds: tuple[int, ...]  # per role
    iterations: int | None
    seconds: float | None


PAIR_SEP = " | "


def is_external(spec: str) -> bool:
    """An external GTP engine (``gtp:COMMAND LINE``, bots/gtp_bot.py): its spec is a
    command line, not key=value parameters, and it sets its own strength and time."""
    return spec.strip().startswith(GTP_PREFIX)


def canonical_spec(text: str) -> str:
    """The spec's canonical text; an external engine's command line with its
    whitespace collapsed."""
    if is_external(text):
        command = " ".join(text.strip()[len(GTP_PREFIX):].split())
        if not command:
            raise InvalidArgumentError("gtp: needs a command line, e.g. gtp:gnugo --mode gtp")
        return GTP_PREFIX + command
    return parse_spec(text).text


def make_players(specs: Sequence[str], labels: Sequence[str | None] | None = None
                 ) -> tuple[Player, ...]:
    """Players from spec texts (canonicalised), refusing the same spec twice."""
    names = list(labels) if labels is not None else [None] * len(specs)
    if len(names) != len(specs):
        raise InvalidArgumentError("give one label per player")
    players: list[Player] = []
    seen: set[str] = set()
    for text, label in zip(specs, names, strict=True):
        spec = canonical_spec(text)
        if spec in seen:
            raise InvalidArgumentError(f"player {spec!r} is given twice")
        seen.add(spec)
        players.append(Player(spec, label or spec))
    return tuple(players)


def check_run(spec: RunSpec, n_roles: int) -> None:
    if spec.format not in FORMATS:
        raise InvalidArgumentError(
            f"unknown format {spec.format!r} (formats: {', '.join(FORMATS)})")
    if spec.games < 1:
        raise InvalidArgumentError(f"games per pairing must be >= 1, not {spec.games}")
    if spec.iterations is not None and spec.iterations < 1:
        raise InvalidArgumentError("iterations per move must be >= 1")
    if spec.seconds is not None and not spec.seconds > 0:
        raise InvalidArgumentError("seconds per move must be > 0")
    if not spec.players:
        raise InvalidArgumentError("a tournament needs players")
    if (spec.format == "series") != (n_roles == 1):
        raise InvalidArgumentError(
            f"{spec.game} has {n_roles} role{'s' if n_roles != 1 else ''}: use format "
            + ("'series'" if n_roles == 1 else "'round-robin' or 'gauntlet'"))
    if spec.format == "round-robin" and len(spec.players) < n_roles:
        raise InvalidArgumentError(
            f"a round robin of {spec.game} needs at least {n_roles} players")
    if spec.format == "gauntlet":
        if len(spec.players) < 2:
            raise InvalidArgumentError("a gauntlet needs a baseline and a challenger")
        if spec.baseline is not None and spec.baseline not in {p.spec for p in spec.players}:
            raise InvalidArgumentError(f"the baseline {spec.baseline!r} is not a player")


def pairings(spec: RunSpec, n_roles: int) -> list[tuple[str, ...]]:
    """The pairings in a stable order; each is the players' specs, the seat order of
    the first game (in a gauntlet the challenger comes first)."""
    check_run(spec, n_roles)
    specs = [p.spec for p in spec.players]
    if spec.format == "series":
        return [(s,) for s in specs]
    if spec.format == "round-robin":
        return [tuple(c) for c in itertools.combinations(specs, n_roles)]
    base = spec.baseline or specs[0]
    return [(s,) + (base,) * (n_roles - 1) for s in specs if s != base]


def pairing_key(players: Sequence[str]) -> str:
    return PAIR_SEP.join(players)


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from text parts (BLAKE2b): stable across runs and machines."""
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little") & SEED_MASK


def task(spec: RunSpec, run: str, pair: tuple[str, ...], game_index: int) -> GameTask:
    n_roles = len(pair)
    seats = seats_for(game_index, n_roles)
    opening: tuple[str, ...] = ()
    if spec.openings:
        opening = spec.openings[(game_index // n_roles) % len(spec.openings)]
    key = pairing_key(pair)
    return GameTask(
        run=run,
        game=spec.game,
        pairing=key,
        game_index=game_index,
        players=tuple(pair[p] for p in seats),
        seats=seats,
        opening=opening,
        seeds=tuple(derive_seed(spec.seed, key, game_index, p) for p in seats),
        iterations=spec.iterations,
        seconds=spec.seconds,
    )


def tasks(spec: RunSpec, run: str, n_roles: int) -> list[GameTask]:
    """Every game of the run, round by round (game 0 of every pairing, then game 1,
    ...), so a partial run has a similar number of games in every pairing."""
    pairs = pairings(spec, n_roles)
    return [task(spec, run, pair, g) for g in range(spec.games) for pair in pairs]
