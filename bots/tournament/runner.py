"""Playing a run's games: in this process, in a local process pool, or on Dask.

:func:`play_task` plays one :class:`GameTask` from scratch (fresh bots seeded from
the task, the opening replayed), so where it runs does not change the game.
:func:`run` skips the games the store already has, hands the others to an executor
and stores each one the moment it comes back (the one writer is this process);
``on_game`` is called after every stored game (the progress bar hangs there).

Executors:
  ``workers <= 1`` and no cluster: a plain loop here;
  ``workers > 1``: ``concurrent.futures.ProcessPoolExecutor`` (spawned processes);
  ``cluster``: a ``dask.distributed.Client`` to that scheduler address, or a
  ``LocalCluster`` of ``workers`` processes for the address ``local``.  The cluster's
  workers need miai importable (the same version) to play.
At most ``2 * workers`` games are in flight, so an interrupt wastes little and a long
queue of results never waits in memory; on KeyboardInterrupt the pending games are
cancelled and the stored ones stay.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from bots.base import Bot
from bots.match import play_game, replay
from bots.registry import make_bot, with_budget
from bots.tournament.schedule import GameTask, is_external
from bots.tournament.store import Store, StoredGame
from engine import games
from engine.errors import InvalidArgumentError

GameCallback = Callable[[StoredGame], None]


def player_bot(spec: str, game: games.Game, *, iterations: int | None,
               seconds: float | None, seed: int) -> Bot:
    """The bot of a player's spec with the run's budget and the game's seed; an
    external GTP engine (``gtp:...``) as its command line gives it."""
    if is_external(spec):
        return make_bot(spec, game)
    return make_bot(with_budget(spec, iterations=iterations, seconds=seconds)
                    .with_params(seed=seed), game)


def play_task(task: GameTask) -> StoredGame:
    """Play one scheduled game and return it as a row for the store."""
    t0 = time.perf_counter()
    game = games.create_from_spec(task.game)
    start = replay(game, task.opening) if task.opening else None
    bots = [player_bot(spec, game, iterations=task.iterations, seconds=task.seconds,
                       seed=seed)
            for spec, seed in zip(task.players, task.seeds, strict=True)]
    try:
        record = play_game(game, bots, start=start)
    finally:
        for bot in bots:
            bot.close()
    return StoredGame(
        run=task.run,
        pairing=task.pairing,
        game_index=task.game_index,
        game=task.game,
        players=task.players,
        seats=task.seats,
        opening=task.opening,
        moves=tuple(record.moves),
        roles=tuple(p.roles for p in record.plies),
        rewards=tuple(float(r) for r in record.rewards),
        iterations=tuple(p.iterations for p in record.plies),
        seconds=tuple(p.seconds for p in record.plies),
        seeds=task.seeds,
        worker=f"{socket.gethostname()}:{os.getpid()}",
        wall_seconds=time.perf_counter() - t0,
    )


def pending(store: Store, all_tasks: Sequence[GameTask]) -> list[GameTask]:
    """The tasks whose game is not stored yet (in schedule order)."""
    if not all_tasks:
        return []
    done = store.done_keys(all_tasks[0].run)
    return [t for t in all_tasks if (t.pairing, t.game_index) not in done]


def run(store: Store, todo: Sequence[GameTask], *, workers: int = 1,
        cluster: str | None = None, on_game: GameCallback | None = None) -> int:
    """Play and store ``todo``; returns how many games were stored."""
    if workers < 1:
        raise InvalidArgumentError(f"--workers must be at least 1, not {workers}")
    if cluster is not None:
        results = _on_dask(todo, cluster, workers)
    elif workers == 1:
        results = (play_task(t) for t in todo)
    else:
        results = _in_processes(todo, workers)
    stored = 0
    try:
        for game in results:
            stored += store.add_game(game)
            if on_game is not None:
                on_game(game)
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return stored


def _bounded(submit: Callable[[GameTask], Any], wait_one: Callable[[list[Any]], Any],
             result_of: Callable[[Any], StoredGame], cancel: Callable[[Any], None],
             todo: Iterable[GameTask], limit: int) -> Iterator[StoredGame]:
    """Keep at most ``limit`` games in flight, yielding each as it finishes."""
    queue = iter(todo)
    flight: list[Any] = []
    try:
        while len(flight) < limit and (t := next(queue, None)) is not None:
            flight.append(submit(t))
        while flight:
            done = wait_one(flight)
            flight.remove(done)
            if (t := next(queue, None)) is not None:
                flight.append(submit(t))
            yield result_of(done)
    finally:
        for f in flight:
            cancel(f)


def _in_processes(todo: Sequence[GameTask], workers: int) -> Iterator[StoredGame]:
    context = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        def wait_one(flight: list[cf.Future[StoredGame]]) -> cf.Future[StoredGame]:
            done, _ = cf.wait(flight, return_when=cf.FIRST_COMPLETED)
            return min(done, key=flight.index)

        try:
            yield from _bounded(lambda t: pool.submit(play_task, t), wait_one,
                                lambda f: f.result(), lambda f: f.cancel(), todo,
                                2 * workers)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def _on_dask(todo: Sequence[GameTask], address: str, workers: int) -> Iterator[StoredGame]:
    try:
        from distributed import Client, LocalCluster, wait
    except ImportError:
        raise InvalidArgumentError(
            "--cluster needs dask.distributed: pip install 'miai[cluster]'") from None
    local = None
    if address == "local":
        local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                             dashboard_address=None)
        client = Client(local)
    else:
        try:
            client = Client(address, timeout=30)
        except (OSError, TimeoutError) as exc:
            raise InvalidArgumentError(f"cannot reach the Dask scheduler {address}: {exc}"
                                       ) from None
    try:
        slots = max(1, sum(client.nthreads().values()))

        def wait_one(flight: list[Any]) -> Any:
            done = wait(flight, return_when="FIRST_COMPLETED").done
            return min(done, key=flight.index)

        yield from _bounded(lambda t: client.submit(play_task, t, pure=False), wait_one,
                            lambda f: f.result(), lambda f: f.cancel(), todo, 2 * slots)
    finally:
        client.close()
        if local is not None:
            local.close()
