"""Running a tournament from start or resume to end: checks, progress bar, storing.

:func:`execute` checks every player spec and opening before any game starts, opens
(or continues) the run in the store, plays the games not stored yet and shows a
progress bar with games done, the ETA and each player's running score.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from dataclasses import dataclass

from bots.match import replay
from bots.tournament import runner, schedule
from bots.tournament.runner import player_bot
from bots.tournament.schedule import RunSpec
from bots.tournament.store import Store, StoredGame
from engine import games
from engine.errors import InvalidArgumentError


@dataclass(frozen=True)
class Outcome:
    stored: int  # games stored by this call
    total: int  # games of the run as scheduled by this call
    done: int  # of those, games in the store now
    seconds: float
    interrupted: bool


def check_players(spec: RunSpec) -> games.Game:
    """Build each bot once and replay each opening, so a bad spec fails now."""
    game = games.create_from_spec(spec.game)
    for player in spec.players:
        bot = player_bot(player.spec, game, iterations=spec.iterations,
                         seconds=spec.seconds, seed=0)
        bot.close()
    for opening in spec.openings:
        state = replay(game, opening)
        if state.is_terminal():
            raise InvalidArgumentError(f"opening {' '.join(opening)} ends the game")
    return game


def execute(store: Store, run: str, spec: RunSpec, *, workers: int = 1,
            cluster: str | None = None, quiet: bool = False) -> Outcome:
    game = check_players(spec)
    store.open_run(run, spec)
    all_tasks = schedule.tasks(spec, run, game.n_roles)
    todo = runner.pending(store, all_tasks)
    names = {p.spec: f"p{k + 1}" for k, p in enumerate(spec.players)}
    score: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for g in store.games(run):
        _tally(score, g)

    from tqdm import tqdm

    if not quiet:
        legend = ", ".join(f"p{k + 1} = {p.label}" for k, p in enumerate(spec.players))
        print(f"{run}: {len(all_tasks) - len(todo)}/{len(all_tasks)} games stored; "
              f"score = points/games of {legend}", file=sys.stderr)
    bar = tqdm(total=len(all_tasks), initial=len(all_tasks) - len(todo),
               desc=run, unit="game", file=sys.stderr, disable=quiet,
               smoothing=0.05, dynamic_ncols=True)
    bar.set_postfix_str(_score_text(score, names), refresh=False)

    def on_game(g: StoredGame) -> None:
        _tally(score, g)
        bar.set_postfix_str(_score_text(score, names), refresh=False)
        bar.update(1)

    t0 = time.perf_counter()
    interrupted = False
    before = len(all_tasks) - len(todo)
    try:
        runner.run(store, todo, workers=workers, cluster=cluster, on_game=on_game)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    done = len(all_tasks) - len(runner.pending(store, all_tasks))
    return Outcome(done - before, len(all_tasks), done, time.perf_counter() - t0, interrupted)


def _tally(score: dict[str, list[float]], g: StoredGame) -> None:
    for spec, reward in zip(g.players, g.rewards, strict=True):
        score[spec][0] += reward
        score[spec][1] += 1


def _score_text(score: dict[str, list[float]], names: dict[str, str], limit: int = 8) -> str:
    """Each player's points / games so far, by its short name (p1, p2, ...)."""
    shown = [s for s in names if s in score]
    parts = [f"{names[s]} {score[s][0]:g}/{score[s][1]:g}" for s in shown[:limit]]
    if len(shown) > limit:
        parts.append("...")
    return " ".join(parts)
