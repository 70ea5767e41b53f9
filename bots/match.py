"""Games and matches between bots (the CLI's selfplay and tournaments use these).

``play_game`` plays one game between bots, one per role, and returns a
:class:`GameRecord`.  ``play_match`` plays ``n`` games between players given as
specs, rotating the seats (player ``p`` plays role ``(p + g) % n_roles`` in game
``g``), and scores each player with the sum of its rewards (a draw counts one half in
a two-player game).  Seeded bots make both deterministic.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bots.base import Bot
from bots.registry import make_bot, with_budget
from bots.report import score_interval
from engine import games
from engine.errors import IllegalMoveError, InvalidArgumentError, MiaiError
from engine.games import Game, Move, State


@dataclass(frozen=True)
class PlyRecord:
    """One ply: the role(s) that moved, their moves as text, and their thinking."""

    ply: int
    roles: tuple[int, ...]
    moves: tuple[str, ...]
    iterations: tuple[int, ...]
    seconds: tuple[float, ...]

    def text(self) -> str:
        return "+".join(self.moves)


@dataclass(frozen=True)
class GameRecord:
    game: str
    players: tuple[str, ...]  # the bot spec playing each role
    plies: tuple[PlyRecord, ...]
    rewards: tuple[float, ...]  # per role

    @property
    def moves(self) -> list[str]:
        """The moves as text; a simultaneous ply is its moves joined with ``+``."""
        return [p.text() for p in self.plies]

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.game,
            "players": list(self.players),
            "moves": self.moves,
            "rewards": list(self.rewards),
            "iterations": [list(p.iterations) for p in self.plies],
            "seconds": [[round(s, 6) for s in p.seconds] for p in self.plies],
        }


PlyCallback = Callable[[State, PlyRecord], None]


def play_game(game: Game, bots: Sequence[Bot], *, start: State | None = None,
              on_ply: PlyCallback | None = None) -> GameRecord:
    """Play ``bots[r]`` as role ``r`` from ``start`` (default: the initial state) to
    the end.  ``on_ply(state_after, record)`` is called after every ply.  A bot that
    answers an illegal move raises IllegalMoveError naming the bot."""
    if len(bots) != game.n_roles:
        raise InvalidArgumentError(f"{game.spec} needs {game.n_roles} bots, not {len(bots)}")
    distinct = list({id(b): b for b in bots}.values())
    for bot in distinct:
        bot.reset(game)
    state = game.initial_state() if start is None else start.copy()
    plies: list[PlyRecord] = []
    while not state.is_terminal():
        tm = state.to_move
        roles = tuple(range(game.n_roles)) if tm == games.SIMULTANEOUS else (tm,)
        chosen: list[Move] = []
        iterations: list[int] = []
        seconds: list[float] = []
        for role in roles:
            bot = bots[role]
            t0 = time.perf_counter()
            move = bot.choose(state, role)
            seconds.append(time.perf_counter() - t0)
            if move not in state.legal_moves(role):
                raise IllegalMoveError(
                    f"bot {bot.spec!r} (role {role}) chose an illegal move {move!r} "
                    f"at ply {state.ply} of {game.spec}"
                )
            report = bot.last_report
            iterations.append(int(report.iterations) if report is not None else 0)
            chosen.append(move)
        record = PlyRecord(
            ply=state.ply,
            roles=roles,
            moves=tuple(state.format_move(m, r) for m, r in zip(chosen, roles, strict=True)),
            iterations=tuple(iterations),
            seconds=tuple(seconds),
        )
        before = state.copy()
        played: Move | list[Move] = chosen if tm == games.SIMULTANEOUS else chosen[0]
        if isinstance(played, list):
            state.play_joint(played)
        else:
            state.play(played)
        for bot in distinct:
            bot.observe(before, played)
        plies.append(record)
        if on_ply is not None:
            on_ply(state, record)
    return GameRecord(
        game=game.spec,
        players=tuple(b.spec for b in bots),
        plies=tuple(plies),
        rewards=state.rewards(),
    )


@dataclass
class PlayerStats:
    spec: str
    score: float = 0.0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    moves: int = 0
    iterations: int = 0
    seconds: float = 0.0

    @property
    def mean(self) -> float:
        return self.score / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """95% interval of the mean score per game (Wilson; see bots.report)."""
        return score_interval(self.mean, self.games)


@dataclass
class MatchResult:
    game: str
    players: list[PlayerStats]
    records: list[GameRecord] = field(default_factory=list)
    seats: list[tuple[int, ...]] = field(default_factory=list)  # player per role


GameCallback = Callable[[int, GameRecord, "MatchResult"], None]


def seats_for(game_index: int, n_roles: int) -> tuple[int, ...]:
    """The player index of each role in game ``game_index`` (colours rotate)."""
    return tuple((role - game_index) % n_roles for role in range(n_roles))


def make_players(game: Game, specs: Sequence[str], *, seed: int = 0,
                 iterations: int | None = None, seconds: float | None = None) -> list[Bot]:
    """One bot per spec for a match: ``iterations`` / ``seconds`` replace the per-move
    budget of every spec that takes one; ``seed`` seeds the bots whose spec has none
    (player ``p`` gets a seed of its own derived from it)."""
    if len(specs) != game.n_roles:
        raise InvalidArgumentError(
            f"{game.spec} has {game.n_roles} roles: give {game.n_roles} players, "
            f"not {len(specs)}"
        )
    return [_make_player(game, spec, p, seed, iterations, seconds)
            for p, spec in enumerate(specs)]


def _make_player(game: Game, spec: str, index: int, seed: int, iterations: int | None,
                 seconds: float | None) -> Bot:
    budgeted = with_budget(spec, iterations=iterations, seconds=seconds)
    return make_bot(budgeted, game, seed=(seed + 1_000_003 * index) % 2**64)


def play_match(
    game: Game,
    players: Sequence[str | Bot],
    n_games: int,
    *,
    seed: int = 0,
    iterations: int | None = None,
    seconds: float | None = None,
    on_game: GameCallback | None = None,
    on_ply: PlyCallback | None = None,
) -> MatchResult:
    """``n_games`` games between ``players`` (one per role): bot specs, built with
    :func:`make_players` (``seed``, ``iterations``, ``seconds`` apply to those), or bots.
    Every bot is closed at the end."""
    if len(players) != game.n_roles:
        raise InvalidArgumentError(
            f"{game.spec} has {game.n_roles} roles: give {game.n_roles} players, "
            f"not {len(players)}"
        )
    if n_games < 1:
        raise InvalidArgumentError(f"the number of games must be >= 1, not {n_games}")
    bots = [
        _make_player(game, p, i, seed, iterations, seconds) if isinstance(p, str) else p
        for i, p in enumerate(players)
    ]
    result = MatchResult(game.spec, [PlayerStats(b.spec) for b in bots])
    try:
        for g in range(n_games):
            seats = seats_for(g, game.n_roles)
            record = play_game(game, [bots[p] for p in seats], on_ply=on_ply)
            _score(result, seats, record)
            if on_game is not None:
                on_game(g, record, result)
    finally:
        for bot in bots:
            bot.close()
    return result


def _score(result: MatchResult, seats: tuple[int, ...], record: GameRecord) -> None:
    result.records.append(record)
    result.seats.append(seats)
    for role, p in enumerate(seats):
        stats = result.players[p]
        mine = record.rewards[role]
        others = [r for i, r in enumerate(record.rewards) if i != role]
        stats.games += 1
        stats.score += mine
        stats.wins += _outcome(mine, others) > 0
        stats.losses += _outcome(mine, others) < 0
        stats.draws += _outcome(mine, others) == 0
        for ply in record.plies:
            for mover, its, secs in zip(ply.roles, ply.iterations, ply.seconds, strict=True):
                if mover == role:
                    stats.moves += 1
                    stats.iterations += its
                    stats.seconds += secs


def replay(game: Game, moves: Sequence[str], start: State | None = None) -> State:
    """The state after ``moves`` (texts as in a GameRecord: a simultaneous ply is one
    move per role joined with ``+``), with an error naming the bad move."""
    state = game.initial_state() if start is None else start.copy()
    for i, text in enumerate(moves, 1):
        try:
            if state.to_move == games.SIMULTANEOUS:
                parts = text.split("+")
                if len(parts) != game.n_roles:
                    raise InvalidArgumentError(
                        f"a simultaneous ply needs {game.n_roles} moves joined by '+'"
                    )
                state.play_joint([state.parse_move(t, r) for r, t in enumerate(parts)])
            else:
                state.play(text)
        except MiaiError as exc:
            raise type(exc)(f"move {i} ({text!r}): {exc}") from None
    return state


def _outcome(mine: float, others: list[float]) -> int:
    """+1 win, 0 draw, -1 loss: against the best other role; in a one-role game, a win
    is the top reward (1) and a loss the bottom one (0)."""
    if others:
        best = max(others)
        return (mine > best) - (mine < best)
    return (mine >= 1.0) - (mine <= 0.0)
