"""The results file: one SQLite database holding runs and every finished game.

Contract:
- the database is in WAL mode; each finished game is written in its own transaction,
  so a killed run loses at most the games still being played;
- a game's key is ``(run, pairing, game_index)`` (the table's primary key): writing a
  game twice keeps the first copy, so resuming never duplicates a game;
- only the process that runs the tournament writes; workers return games to it;
- a run's fixed fields (game, budget, seed, openings) are stored when the run is
  created; opening it again with other fixed fields is refused, while more players
  or more games per pairing extend it.
Each game row keeps the players (spec per role), the seats, the opening, the moves as
text, the rewards per role, and the iterations and seconds of every move (per ply,
one entry per role that moved), as JSON text.

A results file kept compressed (``X.db.xz``, as scripts/experiments/snapshot.sh writes
them under docs/data/) is read with :func:`open_results`, which decompresses it to a
temporary file that is removed afterwards; the compressed file is never written.
"""

from __future__ import annotations

import contextlib
import json
import lzma
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bots.tournament.schedule import Player, RunSpec
from engine.errors import InvalidArgumentError

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    name TEXT PRIMARY KEY,
    fixed TEXT NOT NULL,        -- JSON: the fields stored games depend on
    spec TEXT NOT NULL,         -- JSON: the latest full RunSpec (players, format, ...)
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    run TEXT NOT NULL REFERENCES runs(name),
    pairing TEXT NOT NULL,
    game_index INTEGER NOT NULL,
    game TEXT NOT NULL,
    players TEXT NOT NULL,      -- JSON list: bot spec per role
    seats TEXT NOT NULL,        -- JSON list: index in the pairing per role
    opening TEXT NOT NULL,      -- JSON list of move texts played before the game
    moves TEXT NOT NULL,        -- JSON list of move texts
    roles TEXT NOT NULL,        -- JSON list per ply of the roles that moved
    rewards TEXT NOT NULL,      -- JSON list per role
    iterations TEXT NOT NULL,   -- JSON list per ply of lists per moving role
    seconds TEXT NOT NULL,      -- JSON list per ply of lists per moving role
    seeds TEXT NOT NULL,        -- JSON list per role
    worker TEXT NOT NULL,
    wall_seconds REAL NOT NULL,
    finished REAL NOT NULL,
    PRIMARY KEY (run, pairing, game_index)
);
"""


@dataclass(frozen=True)
class StoredGame:
    run: str
    pairing: str
    game_index: int
    game: str
    players: tuple[str, ...]
    seats: tuple[int, ...]
    opening: tuple[str, ...]
    moves: tuple[str, ...]
    roles: tuple[tuple[int, ...], ...]
    rewards: tuple[float, ...]
    iterations: tuple[tuple[int, ...], ...]
    seconds: tuple[tuple[float, ...], ...]
    seeds: tuple[int, ...]
    worker: str
    wall_seconds: float

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.run, self.pairing, self.game_index)

    def content(self) -> tuple[object, ...]:
        """What the game is, without where and how long it ran (for comparisons)."""
        return (self.run, self.pairing, self.game_index, self.game, self.players,
                self.seats, self.opening, self.moves, self.roles, self.rewards, self.iterations,
                self.seeds)

    def role_iterations(self, role: int) -> int:
        """Iterations spent by ``role`` over the whole game."""
        return sum(self._per_role(self.iterations, role))

    def role_seconds(self, role: int) -> float:
        return float(sum(self._per_role(self.seconds, role)))

    def _per_role(self, per_ply: tuple[tuple[float, ...], ...], role: int) -> list[float]:
        return [value for movers, values in zip(self.roles, per_ply, strict=True)
                for mover, value in zip(movers, values, strict=True) if mover == role]


class Store:
    """One open results database (use as a context manager, or call close())."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(self.path), timeout=60.0, isolation_level=None)
        except sqlite3.Error as exc:
            raise InvalidArgumentError(f"results file {self.path}: {exc}") from None
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._transaction():
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)",
                (str(SCHEMA_VERSION),))
        version = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0]
        if int(version) != SCHEMA_VERSION:
            raise InvalidArgumentError(
                f"results file {self.path} has schema {version}, this miai reads "
                f"{SCHEMA_VERSION}")

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    class _Tx:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self) -> sqlite3.Connection:
            self.db.execute("BEGIN IMMEDIATE")
            return self.db

        def __exit__(self, kind: object, *rest: object) -> None:
            self.db.execute("ROLLBACK" if kind is not None else "COMMIT")

    def _transaction(self) -> Store._Tx:
        return Store._Tx(self._db)

    # Runs -----------------------------------------------------------------------
    def open_run(self, name: str, spec: RunSpec) -> None:
        """Create the run, or check that ``spec`` continues the stored one (same fixed
        fields) and record its latest players and size."""
        if not name or not isinstance(name, str):
            raise InvalidArgumentError("a run needs a name")
        fixed = json.dumps(spec.fixed(), sort_keys=True)
        now = time.time()
        with self._transaction() as db:
            row = db.execute("SELECT fixed FROM runs WHERE name=?", (name,)).fetchone()
            if row is None:
                db.execute("INSERT INTO runs VALUES (?, ?, ?, ?, ?)",
                           (name, fixed, _spec_json(spec), now, now))
                return
            stored = json.loads(row[0])
            mine = json.loads(fixed)
            diff = [k for k in sorted(set(stored) | set(mine)) if stored.get(k) != mine.get(k)]
            if diff:
                what = ", ".join(f"{k}: stored {stored.get(k)!r}, now {mine.get(k)!r}"
                                 for k in diff)
                raise InvalidArgumentError(
                    f"run {name!r} in {self.path} was started with other settings ({what}); "
                    "use another run name or results file")
            merged = _merge_specs(json.loads(
                db.execute("SELECT spec FROM runs WHERE name=?", (name,)).fetchone()[0]), spec)
            db.execute("UPDATE runs SET spec=?, updated=? WHERE name=?",
                       (json.dumps(merged, sort_keys=True), now, name))

    def runs(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT name FROM runs ORDER BY created, name")]

    def run_spec(self, name: str) -> RunSpec:
        row = self._db.execute("SELECT spec FROM runs WHERE name=?", (name,)).fetchone()
        if row is None:
            known = ", ".join(self.runs()) or "none"
            raise InvalidArgumentError(f"no run {name!r} in {self.path} (runs: {known})")
        return spec_from_json(json.loads(row[0]))

    # Games ----------------------------------------------------------------------
    def add_game(self, game: StoredGame) -> bool:
        """Store one finished game in its own transaction; False if it was there."""
        with self._transaction() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (game.run, game.pairing, game.game_index, game.game,
                 json.dumps(game.players), json.dumps(game.seats), json.dumps(game.opening),
                 json.dumps(game.moves), json.dumps(game.roles), json.dumps(game.rewards),
                 json.dumps(game.iterations),
                 json.dumps([[round(s, 6) for s in ply] for ply in game.seconds]),
                 json.dumps([str(s) for s in game.seeds]), game.worker, game.wall_seconds,
                 time.time()))
            return cur.rowcount == 1

    def done_keys(self, run: str) -> set[tuple[str, int]]:
        return {(p, int(g)) for p, g in self._db.execute(
            "SELECT pairing, game_index FROM games WHERE run=?", (run,))}

    def count(self, run: str | None = None) -> int:
        if run is None:
            return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        return int(self._db.execute("SELECT COUNT(*) FROM games WHERE run=?",
                                    (run,)).fetchone()[0])

    def games(self, run: str | None = None) -> Iterator[StoredGame]:
        """Stored games in key order (``run`` None: every run)."""
        query = ("SELECT run, pairing, game_index, game, players, seats, opening, moves, "
                 "roles, rewards, iterations, seconds, seeds, worker, wall_seconds FROM games")
        args: tuple[object, ...] = ()
        if run is not None:
            query += " WHERE run=?"
            args = (run,)
        query += " ORDER BY run, pairing, game_index"
        for row in self._db.execute(query, args):
            yield StoredGame(
                run=row[0], pairing=row[1], game_index=int(row[2]), game=row[3],
                players=tuple(json.loads(row[4])), seats=tuple(json.loads(row[5])),
                opening=tuple(json.loads(row[6])), moves=tuple(json.loads(row[7])),
                roles=tuple(tuple(int(r) for r in p) for p in json.loads(row[8])),
                rewards=tuple(float(r) for r in json.loads(row[9])),
                iterations=tuple(tuple(int(i) for i in p) for p in json.loads(row[10])),
                seconds=tuple(tuple(float(s) for s in p) for p in json.loads(row[11])),
                seeds=tuple(int(s) for s in json.loads(row[12])),
                worker=row[13], wall_seconds=float(row[14]),
            )


def _spec_json(spec: RunSpec) -> str:
    return json.dumps(spec_to_json(spec), sort_keys=True)


def spec_to_json(spec: RunSpec) -> dict[str, object]:
    return {
        "game": spec.game,
        "players": [{"spec": p.spec, "label": p.label} for p in spec.players],
        "format": spec.format,
        "games": spec.games,
        "iterations": spec.iterations,
        "seconds": spec.seconds,
        "seed": spec.seed,
        "openings": [list(o) for o in spec.openings],
        "baseline": spec.baseline,
        "extra": spec.extra,
    }


def spec_from_json(data: dict[str, object]) -> RunSpec:
    players = data["players"]
    openings = data.get("openings") or []
    assert isinstance(players, list) and isinstance(openings, list)
    return RunSpec(
        game=str(data["game"]),
        players=tuple(Player(str(p["spec"]), str(p["label"])) for p in players),
        format=str(data["format"]),
        games=int(data["games"]),  # type: ignore[arg-type]
        iterations=data.get("iterations"),  # type: ignore[arg-type]
        seconds=data.get("seconds"),  # type: ignore[arg-type]
        seed=int(data.get("seed") or 0),  # type: ignore[arg-type]
        openings=tuple(tuple(o) for o in openings),
        baseline=data.get("baseline"),  # type: ignore[arg-type]
        extra=dict(data.get("extra") or {}),  # type: ignore[arg-type]
    )


def _merge_specs(stored: dict[str, object], new: RunSpec) -> dict[str, object]:
    """The run after an extension: players of both (stored first, new labels win),
    the larger number of games, the new format, baseline and extra fields."""
    merged = spec_to_json(new)
    old_players = stored.get("players") or []
    assert isinstance(old_players, list)
    labels = {p.spec: p.label for p in new.players}
    players = [{"spec": p["spec"], "label": labels.get(p["spec"], p["label"])}
               for p in old_players]
    have = {p["spec"] for p in players}
    players += [{"spec": p.spec, "label": p.label} for p in new.players if p.spec not in have]
    merged["players"] = players
    merged["games"] = max(int(stored.get("games") or 0), new.games)  # type: ignore[arg-type]
    return merged


COMPRESSED_SUFFIX = ".xz"


def results_stem(path: str | Path) -> str:
    """The name of a results file without ``.db`` / ``.db.xz``: ``ucd_hex.db.xz`` ->
    ``ucd_hex``."""
    name = Path(path).name
    for suffix in (".db" + COMPRESSED_SUFFIX, COMPRESSED_SUFFIX, ".db"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return Path(name).stem


@contextlib.contextmanager
def open_results(path: str | Path) -> Iterator[Store]:
    """The Store of an existing results file, plain (``X.db``) or xz-compressed
    (``X.db.xz``: decompressed to a temporary file, removed on exit)."""
    path = Path(path)
    if not path.is_file():
        raise InvalidArgumentError(f"no results file {path}")
    if not path.name.endswith(COMPRESSED_SUFFIX):
        with Store(path) as store:
            yield store
        return
    with tempfile.TemporaryDirectory(prefix="miai-results-") as tmp:
        plain = Path(tmp) / (results_stem(path) + ".db")
        try:
            with lzma.open(path) as src, plain.open("wb") as dst:
                shutil.copyfileobj(src, dst)
        except lzma.LZMAError as exc:
            raise InvalidArgumentError(f"results file {path}: {exc}") from None
        with Store(plain) as store:
            yield store
