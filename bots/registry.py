"""Bots by name: ``make_bot("uct:c=0.5,iterations=2000", game)``.

Lookup order for a spec's name:
  1. ``PRESETS``: a name for a full spec (the preset's keys, then the given ones);
  2. ``BOTS``: hand-written players (``random``, ``mc``); external engines
     (``gtp:...``) are added here as one more entry;
  3. anything else is a search algorithm of ``engine.search`` (``uct``, ...), played
     by :class:`bots.search_bot.SearchBot`, or on a GDL game played on the reference
     prover (rules too big to ground) by :class:`bots.prover_bot.ProverSearchBot`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bots.base import Bot
from bots.go_bot import make_go_bot
from bots.gtp_bot import PREFIX as GTP_PREFIX
from bots.gtp_bot import make_gtp_bot
from bots.mc_bot import make_mc
from bots.random_bot import make_random
from bots.search_bot import make_search_bot
from bots.spec import BotSpec, as_spec, parse_spec
from engine.errors import MiaiError, UnknownNameError
from engine.games import Game

BotFactory = Callable[[BotSpec, Game], Bot]

# Keys that set a bot's thinking budget per move; the match runner's --iterations and
# --seconds replace all of them in the specs of bots that take a budget.
BUDGET_KEYS = ("iterations", "seconds", "playouts")


@dataclass(frozen=True)
class BotEntry:
    factory: BotFactory
    summary: str
    takes_budget: bool


BOTS: dict[str, BotEntry] = {
    "random": BotEntry(make_random, "uniformly random legal moves (seed=)", False),
    "mc": BotEntry(
        make_mc,
        "flat Monte-Carlo: random playouts after each legal move "
        "(playouts=, iterations=, seconds=, seed=)",
        True,
    ),
    "gobot": BotEntry(
        make_go_bot,
        "Go only: a search (alg=, default rave) with the heavy playout policy "
        "(playout= bits, default 7), tree reuse, priors and pruning keys of the algorithm",
        True,
    ),
}

# Named full specs, e.g. "uct-fast": "uct:c=0.7,iterations=500".  Presets may name
# any bot of BOTS or any search algorithm.
PRESETS: dict[str, str] = {
    # The Go bot `miai gtp` plays by default (the GTP clock can only lower `seconds`):
    # RAVE with Go-knowledge priors over heavy playouts, the tree kept between moves
    # (docs/results.md has the comparisons behind it).
    # The prior's visits are the Go bot's by board (bots.go_bot: 10 with the learned
    # model on 9x9, 20 with the line and ladder rules elsewhere).
    "go9": "gobot:alg=rave,playout=7,knowledge=1,seconds=2",
    # The same for any board size.
    "go": "gobot:alg=rave,playout=7,knowledge=1,seconds=5",
    # GGP (issue 31): UCT with the MCTS-Solver, its proofs used at once (a proven root
    # ends the search: engine.search.Search.solved), and MAST playouts learning which
    # moves are good during the match.  Each part is a key (solver=0, mast=0 turn it
    # off).  Games with more than two roles fall back to UCT with the same keys but
    # the solver's (bots.search_bot.uct_fallback).  docs/ggp.md, "Strength".
    "ggp": "uct:c=0.4,solver=1,mast=1",
}


def resolve(spec: str | BotSpec) -> BotSpec:
    """The spec with a preset's name replaced by its own spec (given keys win)."""
    parsed = as_spec(spec)
    preset = PRESETS.get(parsed.name)
    if preset is None:
        return parsed
    base = parse_spec(preset)
    return BotSpec(base.name, {**base.params, **parsed.params})


def takes_budget(spec: str | BotSpec) -> bool:
    entry = BOTS.get(resolve(spec).name)
    return entry is None or entry.takes_budget


def with_budget(spec: str | BotSpec, *, iterations: int | None = None,
                seconds: float | None = None) -> BotSpec:
    """The spec with its per-move budget replaced when ``iterations`` or ``seconds``
    is given (bots without a budget, like ``random``, are returned unchanged)."""
    parsed = resolve(spec)
    if (iterations is None and seconds is None) or not takes_budget(parsed):
        return parsed
    return parsed.without(BUDGET_KEYS).with_params(iterations=iterations, seconds=seconds)


def with_threads(spec: str | BotSpec, threads: int, game: Game | None = None) -> BotSpec:
    """The spec searching with ``threads`` threads (``threads=`` added) where it is a
    search bot whose algorithm has threads, else unchanged.  A spec that names
    ``threads`` itself keeps its value.  With ``game`` the bot is made once on it to
    check that it takes the threads (the front-ends' default of all cores must not
    refuse an algorithm without threads: docs/search.md "Threads")."""
    parsed = resolve(spec)
    if threads <= 1 or "threads" in parsed.params:
        return parsed
    if parsed.name in BOTS and parsed.name != "gobot":
        return parsed
    threaded = parsed.with_params(threads=threads)
    if game is not None:
        try:
            make_bot(threaded, game).close()
        except MiaiError:
            return parsed
    return threaded


def make_bot(spec: str | BotSpec, game: Game, *, seed: int | None = None) -> Bot:
    """The bot named by ``spec`` for ``game``; ``seed`` is used when the spec has none."""
    if isinstance(spec, str) and spec.strip().startswith(GTP_PREFIX):
        # External engines take a whole command line, not key=value parameters.
        return make_gtp_bot(spec.strip()[len(GTP_PREFIX):], game)
    resolved = resolve(spec)
    seeded = resolved
    if seed is not None and "seed" not in resolved.params:
        seeded = resolved.with_params(seed=seed)
    entry = BOTS.get(resolved.name)
    if entry is not None:
        return entry.factory(seeded, game)
    return _make_search_bot(seeded, resolved, game)


def _make_search_bot(seeded: BotSpec, spec: BotSpec, game: Game) -> Bot:
    known = ", ".join(sorted({*BOTS, *PRESETS}))
    try:
        from engine.gdl.prover_game import ProverGame

        if isinstance(game, ProverGame):
            from bots.prover_bot import ProverSearchBot

            return ProverSearchBot(seeded, game)
        return make_search_bot(seeded, game)
    except ImportError:
        raise UnknownNameError(
            f"unknown bot {spec.name!r} in spec {spec.text!r} (bots: {known}; search "
            "algorithms are unavailable: engine.search is not built)"
        ) from None
    except UnknownNameError as exc:
        raise UnknownNameError(
            f"bot spec {spec.text!r}: {exc} (bots besides the search algorithms: {known})"
        ) from None


def describe() -> list[tuple[str, str]]:
    """(name, summary) of every hand-written bot and preset."""
    rows = [(name, entry.summary) for name, entry in sorted(BOTS.items())]
    rows += [(name, f"preset for {text}") for name, text in sorted(PRESETS.items())]
    return rows
