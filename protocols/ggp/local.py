"""Series of matches with players started in this process when needed.

``LocalPlayers`` runs GGP players on loopback ports (port 0: any free port), each
with its own HTTP server (protocols/ggp/server.py), exactly as a remote player would be reached.
``run_series`` fills the roles that have no address with our own player (first free
seat) and ``opponent`` players, plays the matches rotating seats, saves each record
and reports progress through ``echo``.  With ``resume`` a match whose record is already
in ``out`` (same match id: game, seed and index) is read back instead of played, so
an interrupted series continues where it stopped with the same command.  Records name
each role's player by a label (the bot spec of a local player, the address of a
remote one), so the matches of several runs can be summarised together
(``scripts/ggp_summary.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import aiohttp

from protocols.ggp.gamemaster import (
    GROUND_SECONDS,
    MatchRecord,
    MatchSpec,
    load,
    record_path,
    rotations,
    run_match,
    save,
    summary,
)
from protocols.ggp.player import GgpPlayer, PlayerConfig
from protocols.ggp.rules import load_rules
from protocols.ggp.server import Runner, bound_port, make_app, serve

LOOPBACK = "127.0.0.1"


class LocalPlayers:
    """Players served on loopback; ``async with`` stops them all."""

    def __init__(self) -> None:
        self.runners: list[Runner] = []
        self.players: list[GgpPlayer] = []

    async def add(self, config: PlayerConfig) -> str:
        player = GgpPlayer(config)
        runner = await serve(make_app(player), LOOPBACK, 0)
        self.runners.append(runner)
        self.players.append(player)
        return f"http://{LOOPBACK}:{bound_port(runner)}/"

    async def __aenter__(self) -> LocalPlayers:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        for runner in self.runners:
            await runner.cleanup()


async def run_series(name: str, rules: str, players: list[str], *, matches: int,
                     start_clock: int, play_clock: int, grace: float = 1.0,
                     bot: str = "uct:c=0.4", opponent: str = "random", seed: int = 0,
                     out: Path | None = None, max_think: float | None = None,
                     ponder: bool = True, resume: bool = False,
                     ground_atoms: int | None = None, prover_iterations: int | None = None,
                     echo: Callable[[str], None] | None = None) -> list[MatchRecord]:
    game = load_rules(rules, name, GROUND_SECONDS)
    n_roles = len(game.roles)
    records: list[MatchRecord] = []
    async with LocalPlayers() as local, aiohttp.ClientSession() as session:
        urls = list(players)
        labels = {u: u for u in urls}
        for k in range(len(urls), n_roles):
            ours = k == len(players)
            spec = bot if ours else opponent
            config = PlayerConfig(bot=spec, name=f"local-{k}", seed=seed + k,
                                  max_think=max_think, ponder=ponder)
            if ours:
                config.ground_atoms, config.prover_iterations = ground_atoms, prover_iterations
            url = await local.add(config)
            labels[url] = spec if spec not in labels.values() else f"{spec}#{k}"
            urls.append(url)
        for index, seats in enumerate(rotations(urls, n_roles, matches)):
            spec = MatchSpec(name, rules, seats, start_clock, play_clock,
                             f"{name}.{seed}.{index}", grace, seed + index)
            path = None if out is None else record_path(out, spec.match_id)
            if resume and path is not None and path.is_file():
                record = load(path)
                records.append(record)
                if echo is not None:
                    echo(f"match {record.match_id}: already played ({path}), "
                         f"goals {record.goals}")
                continue
            record = await run_match(spec, game, session)
            record.labels = [labels[u] for u in record.players]
            records.append(record)
            if out is not None:
                save(record, out)
            if echo is not None:
                who = ", ".join(f"{role}={label}" for role, label in zip(
                    record.roles, record.labels, strict=True))
                echo(f"match {record.match_id}: {who}: goals {record.goals}, "
                     f"{len(record.moves)} plies, {record.late_or_illegal()} moves replaced")
        if echo is not None:
            for label, row in summary(records).items():
                echo(f"{label}: {int(row['matches'])} matches, mean goal "
                     f"{row['mean_goal']:.1f}, {int(row['replaced'])} moves replaced")
    return records
