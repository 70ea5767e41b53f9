"""A local GGP game master: matches between HTTP players given by address.

Like ggp-base's server it sends ``start`` to every player, then ``play`` with the
previous joint move (``nil`` first) until the game ends, then ``stop``.  Every move
is checked: a move that is illegal, unparseable, or later than the play clock plus
``grace`` seconds (measured from sending the request) is replaced by a uniformly
random legal move and recorded as an error.  The game master waits ``LATE_WAIT``
seconds longer than that limit, so a late reply is received and recorded as late
(with its time); a player silent even then is recorded as giving no reply.  A
match's record (:class:`MatchRecord`) holds the moves, goals, each move's answer
time and the errors, and is written as JSON.  Players that do not answer ``start``
in time still get play requests.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import aiohttp

from engine.errors import MiaiError
from protocols.ggp import kif
from protocols.ggp.client import send
from protocols.ggp.rules import AnyGame, apply_joint, canonical, goals, legal_texts, load_rules

DEFAULT_GRACE = 1.0
LATE_WAIT = 1.0  # seconds past play clock + grace that a late reply is still read
GROUND_SECONDS = 600.0  # the game master needs the propnet before it starts
MAX_PLIES = 10_000


@dataclass
class MoveRecord:
    role: str
    move: str
    seconds: float
    replaced: bool


@dataclass
class MatchRecord:
    match_id: str
    game: str
    roles: list[str]
    players: list[str]
    start_clock: int
    play_clock: int
    moves: list[list[MoveRecord]] = field(default_factory=list)
    goals: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    labels: list[str] = field(default_factory=list)  # who played each role (bot specs)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        data = json.loads(text)
        data["moves"] = [[MoveRecord(**m) for m in joint] for joint in data["moves"]]
        return cls(**data)

    def late_or_illegal(self) -> int:
        return sum(m.replaced for joint in self.moves for m in joint)


@dataclass
class MatchSpec:
    game_name: str
    rules: str
    players: list[str]       # one URL per role, in role order
    start_clock: int
    play_clock: int
    match_id: str
    grace: float = DEFAULT_GRACE
    seed: int = 0


async def run_match(spec: MatchSpec, game: AnyGame | None = None,
                    session: aiohttp.ClientSession | None = None) -> MatchRecord:
    """Play one match; ``game`` may be given already loaded from ``spec.rules``."""
    game = game or load_rules(spec.rules, spec.game_name, GROUND_SECONDS)
    roles = list(game.roles)
    if len(spec.players) != len(roles):
        raise MiaiError(f"{spec.game_name} has {len(roles)} roles, "
                        f"{len(spec.players)} players given")
    own = session is None
    session = session or aiohttp.ClientSession()
    try:
        return await _play_match(spec, game, roles, session)
    finally:
        if own:
            await session.close()


async def _play_match(spec: MatchSpec, game: AnyGame, roles: list[str],
                      session: aiohttp.ClientSession) -> MatchRecord:
    rng = random.Random(spec.seed)
    record = MatchRecord(spec.match_id, spec.game_name, roles, list(spec.players),
                         spec.start_clock, spec.play_clock)
    begin = time.monotonic()
    starts = await asyncio.gather(*[
        send(session, url, kif.start_text(spec.match_id, role, spec.rules, spec.start_clock,
                                          spec.play_clock), spec.start_clock + spec.grace)
        for url, role in zip(spec.players, roles, strict=True)])
    for role, answer in zip(roles, starts, strict=True):
        if answer.text is None or answer.text.lower() != "ready":
            record.errors.append(f"start {role}: {answer.error or answer.text}")
    state = game.initial_state()
    last: list[str] | None = None
    while not state.is_terminal() and len(record.moves) < MAX_PLIES:
        body = kif.play_text(spec.match_id, last)
        limit = spec.play_clock + spec.grace
        answers = await asyncio.gather(*[
            send(session, url, body, limit + LATE_WAIT) for url in spec.players])
        joint: list[MoveRecord] = []
        for r, (role, answer) in enumerate(zip(roles, answers, strict=True)):
            legal = legal_texts(game, state, r)
            move, problem = _checked(answer.text, answer.error, legal, answer.seconds, limit)
            if problem is not None:
                record.errors.append(f"ply {len(record.moves)} {role}: {problem}")
                move = rng.choice(legal)
            joint.append(MoveRecord(role, move, round(answer.seconds, 3), problem is not None))
        last = [m.move for m in joint]
        apply_joint(game, state, last)
        record.moves.append(joint)
    record.goals = goals(state) if state.is_terminal() else [0] * len(roles)
    body = kif.stop_text(spec.match_id, last)
    await asyncio.gather(*[send(session, url, body, spec.play_clock + spec.grace)
                           for url in spec.players])
    record.seconds = round(time.monotonic() - begin, 3)
    return record


def _checked(text: str | None, error: str | None, legal: list[str], seconds: float,
             limit: float) -> tuple[str, str | None]:
    """The player's move in canonical text, and what was wrong with it (or None)."""
    if text is None:
        return "", error or "no reply"
    if seconds > limit:
        return "", f"late ({seconds:.2f} s, limit {limit:.2f} s)"
    try:
        move = canonical(kif.parse_move_reply(text))
    except MiaiError:
        return "", f"unreadable move {text[:60]!r}"
    if move not in legal:
        return "", f"illegal move {move}"
    return move, None


def rotations(players: list[str], n_roles: int, n_matches: int) -> list[list[str]]:
    """Seatings for a series: the players (padded by repeating the last) rotated one
    seat per match, so every player takes every role in turn."""
    seats = (players + [players[-1]] * n_roles)[:n_roles] if len(players) < n_roles \
        else players[:n_roles]
    return [seats[k % n_roles:] + seats[:k % n_roles] for k in range(n_matches)]


def record_path(folder: Path, match_id: str) -> Path:
    return folder / f"{match_id}.json"


def save(record: MatchRecord, folder: Path) -> Path:
    """Write the record (to a temporary name first: an interrupted write never
    leaves a truncated record that a resumed series would take as played)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = record_path(folder, record.match_id)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(record.to_json())
    tmp.replace(path)
    return path


def load(path: Path) -> MatchRecord:
    return MatchRecord.from_json(path.read_text())


def summary(records: list[MatchRecord]) -> dict[str, dict[str, float]]:
    """Per player (its label when the records have them, else its URL): matches,
    mean goal, and replaced (late/illegal) moves."""
    out: dict[str, dict[str, float]] = {}
    for rec in records:
        names = rec.labels if len(rec.labels) == len(rec.players) else rec.players
        for r, url in enumerate(names):
            row = out.setdefault(url, {"matches": 0, "goal_sum": 0.0, "replaced": 0})
            row["matches"] += 1
            row["goal_sum"] += rec.goals[r] if r < len(rec.goals) else 0
            row["replaced"] += sum(1 for joint in rec.moves if joint[r].replaced)
    for row in out.values():
        row["mean_goal"] = row["goal_sum"] / row["matches"] if row["matches"] else 0.0
    return out
