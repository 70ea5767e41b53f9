"""A GGP player: one match at a time, answered on time whatever the search does.

``GgpPlayer.handle(message, arrival)`` answers one parsed request (protocols.ggp.kif)
and is called by the HTTP server.  Clocks are measured from ``arrival`` (the loop
time the request reached the server) minus ``margin`` seconds for the network and
the reply.  Every step that might take long (grounding, pausing the search) runs on a
thread and is awaited only until the deadline; a late or failed step falls back to a
uniformly random legal move, so a move reply is always legal and on time.

Grounding: ``preview`` starts parsing, checking and grounding the rules on a thread
and keeps the result in a bounded cache (protocols.ggp.grounding_cache) keyed by the
hash of the normalised rules; a ``start`` with the same rules takes it from there.
Rules whose grounding is over its bound are played on the reference prover;
``status()`` and the log say which reasoner plays each match and where each move
came from.

The bot spec (``--bot``) is made into a bot for the match's game with
``bots.make_bot``: a search algorithm of ``engine.search`` (``uct``, ``ucd``, ...) on a
propnet is a search bot; on the prover the same spec searches with the prover search
(decoupled UCT, bots/prover_bot.py); a hand-written bot (``random``, ``mc``) chooses
its own moves.  The bot thinks through a Thinker (bots/thinker.py): a search ponders
continuously on its worker thread (``ponder``), a hand-written bot is asked to choose
with the time left.  Where the C search refuses the spec's algorithm for a game, the
match is searched with UCT of the same ``c``.  In GGP ``c`` is on the engine's 0..1
reward scale (goals / 100): the UCD paper's c = 40 (section 4.4) is ``c=0.4``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import logging
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from bots import make_bot, with_budget
from bots.registry import resolve, with_threads
from bots.search_bot import uct_fallback
from bots.spec import BotSpec
from bots.thinker import Thinker, Thought
from engine import games
from engine.errors import InvalidArgumentError, MiaiError
from engine.gdl.errors import GdlError
from engine.gdl.game import BuiltNet, GdlGame, NoNet, from_net
from engine.gdl.prover import ProverGuard, ProverStopped, resident_bytes
from engine.gdl.prover_game import ProverGame, ProverState
from engine.gdl.reasoner_choice import choose
from protocols.ggp import kif
from protocols.ggp.ground_worker import GroundingStopped, GroundJob, default_memory
from protocols.ggp.grounding_cache import GroundingCache, rules_key
from protocols.ggp.rules import (
    AnyGame,
    AnyState,
    apply_joint,
    legal_texts,
    load_rules,
    move_text,
    native_joint,
    native_move,
)

log = logging.getLogger(__name__)

DEFAULT_BOT = "uct:c=0.4"
# The UCD paper's GGP setting (section 4.4): c = 40 with goals 0..100, i.e. 0.4 on
# the engine's 0..1 scale; (d1, d2, d3) = (2, 1, 2), its best for Connect 4.
GGP_UCD = "ucd:c=0.4,d1=2,d2=1,d3=2"
PRESETS = {"ggp-ucd": GGP_UCD}
MIN_THINK = 0.01
GROUND_SECONDS = 30.0  # least time bound of grounding before the prover is used
BOT_SLACK = 0.2  # seconds a hand-written bot may overrun its budget by
FALLBACK_SECONDS = 0.5  # kept for the prover's legal moves if grounding is late
THINK_SLACK = 0.05  # seconds a think may take past its answer time (thread hand-over)
# the net and the prover are measured for this share of the start clock, within bounds
CHOICE_SHARE, CHOICE_MIN, CHOICE_MAX = 0.1, 0.2, 2.0
EXPIRY_PLAY_CLOCKS = 3  # a match with no message for start clock + 3 play clocks is over
MAX_PREVIEWS = 2  # preview groundings at once (more previews are answered, not grounded)
# The player's thread pools (rule steps, search control, grounding, hand-written bots)
# (loading: a match waits there for its grounding and compiles its net; one left behind
# by an ended match never delays the next START)
POOL_SIZES = {"rules": 2, "search": 2, "ground": 2, "think": 1, "load": 3}
# Threads a player may keep between matches beyond its idle count: the pools' workers.
# Everything else a match starts (its search's threads, its grounding child) ends with it.
POOL_THREADS = sum(POOL_SIZES.values())
LATE_GRACE = 0.3  # seconds a PLAY whose body came late still gets for its legal moves
WATCH_SECONDS = 1.0  # how often the player looks for an expired match


class Unavailable(MiaiError):
    """The player cannot serve the request now (out of memory or threads): the
    server answers 503."""


@dataclass
class PlayerConfig:
    bot: str = DEFAULT_BOT
    name: str = "miai"
    margin: float = 0.6         # seconds kept back from every clock
    max_think: float | None = None  # cap on thinking seconds per move (tests, quick
    # matches); rule steps and the search's advance still get the clock's time
    ponder: bool = True         # search on the opponents' time and between requests
    seed: int = 0
    ground_seconds: float | None = None  # grounding time bound (default: from the clocks)
    ground_atoms: int | None = None      # grounding atom bound (default: the grounder's)
    prover_iterations: int | None = None  # per-position budget of the prover search
    choice_seconds: float | None = None  # measuring net vs prover (default: from the
    # start clock; 0: no measurement, a net that grounds plays)
    ground_memory: int | None = None  # bytes a grounding child may use (default: a
    # quarter of the machine's memory, protocols/ggp/ground_worker.py)
    threads: int = 1  # search threads on a net (where the spec's algorithm has them)


@dataclass
class Match:
    match_id: str
    role_name: str
    rules: str
    start_clock: int
    play_clock: int
    history: list[tuple[str, ...]] = field(default_factory=list)
    game: AnyGame | None = None
    state: AnyState | None = None
    role: int = -1
    thinker: Thinker | None = None
    loading: asyncio.Future | None = None
    error: str | None = None
    prover: ProverGame | None = None  # legal moves while grounding is not done
    prover_state: ProverState | None = None  # its position after prover_plies joint moves
    prover_plies: int = 0
    prover_lock: threading.Lock = field(default_factory=threading.Lock)
    # guards game, state, history; notified when a joint move joins the history
    lock: threading.Condition = field(default_factory=threading.Condition)
    received: int = 0  # joint moves the game master sent (event loop only)
    # the joint moves in the order the game master sent them (appended by the event
    # loop only); _apply moves them into history in this order, whichever rule thread
    # runs first -- two rule threads waiting on the lock take it in any order
    sent: list[tuple[str, ...]] = field(default_factory=list)
    moves_answered: int = 0
    fallbacks: int = 0
    reasoner: str = "grounding"  # then "propnet" or "prover"
    grounding_cached: bool = False  # the rules came from the preview cache
    moves_by: Counter = field(default_factory=Counter)  # move source -> count
    choice: dict | None = None  # the net vs prover measurement (reasoner_choice)
    job: GroundJob | None = None  # the grounding child of this match, if any
    last_seen: float = 0.0  # loop time of the match's last message
    ended: bool = False
    rss_at_start: int = field(default_factory=lambda: resident_bytes() or 0)


class GgpPlayer:
    def __init__(self, config: PlayerConfig | None = None,
                 loader: Callable[[str, str, float], AnyGame] | None = None,
                 cache: GroundingCache | None = None) -> None:
        self.config = config or PlayerConfig()
        _check_config(self.config)
        _limit_arenas()
        # (rules, name, time limit) -> game; tests slow it down
        self._loader = loader  # None: ground in a child process (ground_worker)
        self._jobs: set[GroundJob] = set()  # running grounding children
        self._watchdog: asyncio.Task | None = None
        # Rule steps (moves, legal moves), search control (advance, pause), grounding
        # and hand-written bots get their own threads, so a bot that overruns its
        # budget or a search that does not pause never delays a reply or the legal
        # moves, and a preview's grounding never holds up a start's.
        # Their threads start on demand and stay between matches: POOL_THREADS in all.
        self._rules_pool = ThreadPoolExecutor(POOL_SIZES["rules"], "ggp-rules")
        self._search_pool = ThreadPoolExecutor(POOL_SIZES["search"], "ggp-search-control")
        self._ground_pool = ThreadPoolExecutor(POOL_SIZES["ground"], "ggp-ground")
        self._think_pool = ThreadPoolExecutor(POOL_SIZES["think"], "ggp-think")
        self._load_pool = ThreadPoolExecutor(POOL_SIZES["load"], "ggp-load")
        self.cache = cache or GroundingCache()
        self.counters: Counter = Counter()  # previews, move sources, over all matches
        self.spec: BotSpec = resolve(PRESETS.get(self.config.bot, self.config.bot))
        # fail now, not in a match, on a bad spec: its bot is made once for a C game
        make_bot(self.spec, games.create("tictactoe")).close()
        self.match: Match | None = None
        self._lock = asyncio.Lock()
        self._rng = random.Random(self.config.seed)
        self.matches_played = 0

    # -- entry point -----------------------------------------------------------------

    async def handle(self, message: kif.Message, arrival: float) -> str:
        """The reply to one message.  Out of resources (memory, threads) a PLAY gets
        an emergency legal move, anything else raises Unavailable (HTTP 503)."""
        try:
            return await self._handle(message, arrival)
        except (MemoryError, RuntimeError, OSError) as exc:
            log.error("out of resources answering %s: %s", type(message).__name__, exc)
            match = self.match
            if isinstance(message, kif.Play) and match is not None \
                    and match.match_id == message.match_id:
                move = self._emergency_move(match)
                if move is not None:
                    self._count(match, "emergency")
                    return move
            raise Unavailable(f"out of resources: {type(exc).__name__}: {exc}") from exc

    async def _handle(self, message: kif.Message, arrival: float) -> str:
        self._expire()
        if isinstance(message, kif.Info):
            return kif.info_reply(self.config.name, "busy" if self.match else "available")
        if isinstance(message, kif.Preview):
            return await self._preview(message, arrival)
        self._watch_expiry()
        async with self._lock:
            if isinstance(message, kif.Start):
                return await self._start(message, arrival)
            match = self.match
            if match is None or message.match_id != match.match_id:
                return "busy"
            match.last_seen = asyncio.get_running_loop().time()
            if isinstance(message, kif.Play):
                return await self._play(match, message, arrival)
            if isinstance(message, kif.Stop):  # the last joint move needs no search
                self._end("stop")
                return "done"
            self._end("abort")
            return "aborted"

    def _emergency_move(self, match: Match) -> str | None:
        """A legal move with no thread or search: from the loaded game, else the
        prover from the history (None when neither gives one)."""
        try:
            with match.lock:
                if match.game is not None and match.state is not None:
                    legal = legal_texts(match.game, match.state, match.role)
                    return legal[0] if legal else None
                history = list(match.history)
            game, state = self._prover_position(match, history, "emergency")
            legal = list(state.rule_moves(game.roles.index(match.role_name)))
            return legal[0] if legal else None
        except (MiaiError, MemoryError, RuntimeError, ValueError) as exc:
            log.error("match %s: no emergency move: %s", match.match_id, exc)
            return None

    # -- match lifecycle -------------------------------------------------------------

    def _expired(self, match: Match, now: float) -> bool:
        return now - match.last_seen > match.start_clock \
            + EXPIRY_PLAY_CLOCKS * match.play_clock

    def _expire(self) -> None:
        """End the match when the game master has abandoned it (no message for
        start clock + 3 play clocks)."""
        match = self.match
        if match is not None and self._expired(match, asyncio.get_running_loop().time()):
            log.warning("match %s: no message for %.0f s, it is over", match.match_id,
                        asyncio.get_running_loop().time() - match.last_seen)
            self._end("expired")

    def _watch_expiry(self) -> None:
        """Start the task that ends abandoned matches (once, on the serving loop)."""
        if self._watchdog is None or self._watchdog.done():
            self._watchdog = asyncio.get_running_loop().create_task(self._watch_loop())

    async def _watch_loop(self) -> None:
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            if self.match is not None and not self._lock.locked():
                self._expire()

    def close(self) -> None:
        self._end("close")
        for job in list(self._jobs):
            job.cancel("the player is closing")
        if self._watchdog is not None:
            self._watchdog.cancel()
        self._rules_pool.shutdown(wait=False, cancel_futures=True)
        self._search_pool.shutdown(wait=False, cancel_futures=True)
        self._ground_pool.shutdown(wait=False, cancel_futures=True)
        self._think_pool.shutdown(wait=False, cancel_futures=True)
        self._load_pool.shutdown(wait=False, cancel_futures=True)

    def status(self) -> dict[str, object]:
        """What the player is doing, for logs, tests and ``GET /status``."""
        match = self.match
        out: dict[str, object] = {
            "name": self.config.name, "bot": str(self.spec),
            "matches_played": self.matches_played, "counters": dict(self.counters),
            "grounding_cache": {"entries": len(self.cache), **vars(self.cache.stats)},
        }
        if match is not None:
            thinker = match.thinker
            game = match.game
            out["match"] = {
                "id": match.match_id, "role": match.role_name, "reasoner": match.reasoner,
                "prover_reason": game.fallback_reason if isinstance(game, ProverGame)
                else None,
                "grounding_cached": match.grounding_cached, "moves": dict(match.moves_by),
                "warnings": list(getattr(game, "warnings", [])),
                "reasoner_choice": match.choice,
                "iterations": thinker.iterations() if thinker is not None else 0,
                "error": match.error}
        return out

    # -- grounding -------------------------------------------------------------------

    def _load_rules(self, rules: str, name: str, time_limit: float) -> AnyGame:
        """Grounding in this process (``in_process`` loaders, tests)."""
        return load_rules(rules, name, time_limit, max_atoms=self.config.ground_atoms)

    def _ground_limit(self, start_clock: int, play_clock: int) -> float:
        """Seconds grounding may take before the prover is used: the knob, else the
        larger of GROUND_SECONDS and the start clock plus ten play clocks."""
        if self.config.ground_seconds is not None:
            return self.config.ground_seconds
        return max(GROUND_SECONDS, start_clock + 10 * play_clock)

    def _grounding(self, rules: str, name: str, time_limit: float, *, count: bool,
                   preview: bool = False) -> tuple[Future, bool, GroundJob | None]:
        """The future of the loaded rules (from the cache, or grounding now: in a
        child process, or with a given loader on the grounding threads), whether the
        cache had it, and the grounding child started for it (if one was)."""
        started: list[GroundJob] = []

        def submit(limit: float) -> Future:
            if self._loader is not None:
                return self._ground_pool.submit(self._loader, rules, name, limit)
            memory = self.config.ground_memory or default_memory()
            job = GroundJob(rules, name, seconds=limit, memory=memory,
                            max_atoms=self.config.ground_atoms, nice=preview)
            self._jobs.add(job)
            job.future.add_done_callback(lambda _f: self._jobs.discard(job))
            try:
                job.start()
            except (OSError, RuntimeError, MiaiError) as exc:  # the prover plays
                job.cancel(f"cannot start a grounding process: {exc}")
            started.append(job)
            return job.future

        future, cached = self.cache.get_or_build(rules_key(rules), time_limit, submit,
                                                 count=count)
        return future, cached, started[0] if started else None

    def _running_previews(self) -> list[GroundJob]:
        return [job for job in list(self._jobs) if job.nice and job.running]

    async def _preview(self, msg: kif.Preview, arrival: float) -> str:
        """Ground the rules for a later start, answering ``ready`` by the preview
        clock (the grounding goes on after that if it needs to); ``busy`` during a
        match, as ggp-base players answer."""
        if self.match is not None:
            return "busy"
        key = rules_key(msg.rules)
        if key not in self.cache and len(self._running_previews()) >= MAX_PREVIEWS:
            self.counters["preview.skipped"] += 1
            log.info("preview: %d previews grounding already, not this one", MAX_PREVIEWS)
            return "ready"
        future, cached, _job = self._grounding(msg.rules, "ggp-preview",
                                               self._ground_limit(msg.clock, 0),
                                               count=False, preview=True)
        self.counters["preview"] += 1
        log.info("preview: %s", "rules already in the cache" if cached else "grounding")
        await _wait_until(_watch(future), arrival + msg.clock - self.config.margin)
        return "ready"

    # -- start -----------------------------------------------------------------------

    async def _start(self, msg: kif.Start, arrival: float) -> str:
        if self.match is not None:
            return "busy"
        for job in self._running_previews():  # a preview never delays a start
            job.cancel("a match started")
        match = Match(msg.match_id, msg.role, msg.rules, msg.start_clock, msg.play_clock)
        loop = asyncio.get_running_loop()
        match.last_seen = loop.time()
        self.match = match
        grounding, match.grounding_cached, match.job = self._grounding(
            msg.rules, f"ggp-{msg.match_id}",
            self._ground_limit(msg.start_clock, msg.play_clock), count=True)
        log.info("match %s: %s", match.match_id, "rules from the preview cache"
                 if match.grounding_cached else "grounding the rules")
        # its own pool: _load waits for the grounding, rule threads must not
        match.loading = loop.run_in_executor(self._load_pool, self._load, match, grounding)
        deadline = arrival + msg.start_clock - self.config.margin
        await _wait_until(match.loading, deadline)
        self._pause_pondering(match)
        return "ready"

    def _load(self, match: Match, grounding: Future) -> None:
        """Wait for the grounding and start thinking (worker thread)."""
        try:
            loaded = self._loaded(match, grounding)
            if match.ended:
                return
            game = self._choose_reasoner(match, loaded)
            if match.ended:
                return
            if match.role_name not in game.roles:
                raise MiaiError(f"role {match.role_name} is not in the rules {game.roles}")
            role = game.roles.index(match.role_name)
            # The history is replayed outside the lock (on the prover a ply can take
            # a second, and every PLAY's legal moves wait for the lock), then the moves
            # that came meanwhile, until none is left to replay under the lock.
            state, replayed = game.initial_state(), 0
            while True:
                with match.lock:  # _apply may add joint moves meanwhile
                    history = match.history[replayed:]
                    if not history:
                        match.game, match.role, match.state = game, role, state
                        match.reasoner = ("prover" if isinstance(game, ProverGame)
                                          else "propnet")
                        break
                if match.ended:
                    return
                for joint in history:
                    apply_joint(game, state, joint)
                replayed += len(history)
            self._start_search(match)
            if isinstance(game, ProverGame):
                thinker = match.thinker
                log.warning("match %s: playing on the reference prover (%s), %s",
                            match.match_id, game.fallback_reason or "no propnet",
                            "with the prover search" if thinker is not None
                            and thinker.searching else f"with {self.spec}")
            if self.match is not match and match.thinker is not None:  # aborted meanwhile
                match.thinker.close(timeout=0)
                match.thinker = None
        except (GroundingStopped, ProverStopped):  # the match ended meanwhile
            return
        except (MiaiError, ValueError, MemoryError, RuntimeError) as exc:
            log.warning("match %s: cannot play the rules: %s", match.match_id, exc)
            match.error = str(exc)

    def _loaded(self, match: Match, grounding: Future) -> AnyGame:
        """The grounding's game; the reference prover when the grounding failed in a
        way load_for_play did not catch (e.g. a loader's own error): any rules the
        prover reads are played.  Rules that break GDL (GdlError) raise."""
        name = f"ggp-{match.match_id}"
        try:
            result = grounding.result()
            if isinstance(result, BuiltNet):
                return from_net(result, name)
            if not isinstance(result, NoNet):
                return result
            reason = result.reason
        except GdlError:
            raise
        except GroundingStopped as exc:
            reason = str(exc)
            log.warning("match %s: %s", match.match_id, reason)
        except Exception as exc:  # a failure of grounding: the prover plays
            reason = f"loading the rules failed ({type(exc).__name__}: {exc})"
            log.exception("match %s: %s", match.match_id, reason)
        if match.ended:
            raise GroundingStopped("the match is over")
        game = self._prover_game(match, name)
        game.fallback_reason = reason
        return game

    def _prover_position(self, match: Match, history: list[tuple[str, ...]], name: str
                         ) -> tuple[ProverGame, ProverState]:
        """The match's prover (made on first use) and a copy of its position after
        ``history``: the prover's position is kept from one call to the next, so each
        call plays only the joint moves new since the last (a ply on the prover can
        take a second; replaying the whole history at every PLAY grew with it)."""
        with match.prover_lock:
            if match.prover is None or match.prover_state is None:
                match.prover = self._prover_game(match, name)
                match.prover_state, match.prover_plies = match.prover.initial_state(), 0
            game, state = match.prover, match.prover_state
            if len(history) < match.prover_plies:  # never: the history only grows
                raise MiaiError("the history is shorter than the prover's position")
            for joint in history[match.prover_plies:]:
                apply_joint(game, state, joint)
                match.prover_plies += 1
            return game, state.copy()

    def _prover_game(self, match: Match, name: str) -> ProverGame:
        """The match's rules on the reference prover, bounded: it stops (ProverStopped)
        once the match is over, and raises LimitError once the process's resident
        size passes its size at the match's start by the grounding's memory budget
        (``--ground-memory``): the prover runs in this process, where no rlimit can
        bound it alone."""
        return ProverGame(match.rules, name, tolerant=True, guard=ProverGuard(
            max_rss=match.rss_at_start + (self.config.ground_memory or default_memory()),
            stopped=lambda: match.ended))

    def _choose_reasoner(self, match: Match, game: AnyGame) -> AnyGame:
        """The net, or the prover where random playouts run faster on it, measured
        for a slice of the start clock (engine/gdl/reasoner_choice.py)."""
        seconds = self.config.choice_seconds
        if seconds is None:
            seconds = min(CHOICE_MAX, max(CHOICE_MIN, CHOICE_SHARE * match.start_clock))
        if not isinstance(game, GdlGame) or seconds <= 0:
            return game
        choice = choose(game, lambda: self._prover_game(match, f"ggp-{match.match_id}"),
                        seconds, self.config.seed)
        match.choice = choice.as_dict()
        log.info("match %s: %s", match.match_id, choice.describe())
        if choice.reasoner != "prover" or choice.prover is None:
            return game
        choice.prover.fallback_reason = f"faster than the net: {choice.describe()}"
        return choice.prover

    def _thinker(self, game: AnyGame, state: AnyState, role: int) -> Thinker:
        """The match's bot (``make_bot``) thinking about ``state`` for ``role`` on its
        worker, started at once; UCT (same c) where the C search refuses the spec's
        algorithm for the game (e.g. the papers' algorithms other than UCD take one or
        two roles only; docs/ggp.md)."""
        try:
            return self._started(self.spec, game, state, role)
        except InvalidArgumentError as exc:
            fallback = uct_fallback(self.spec) if not isinstance(game, ProverGame) else None
            if fallback is None:
                raise
            log.warning("%s does not take %s (%s): searching with %s", self.spec, game.name,
                        exc, fallback)
            return self._started(fallback, game, state, role)

    def _started(self, spec: BotSpec, game: AnyGame, state: AnyState, role: int
                 ) -> Thinker:
        match = self.match
        if match is not None:  # the play clock is the budget (a bot's counts go)
            spec = with_budget(spec, seconds=float(match.play_clock))
        if self.config.threads > 1 and not isinstance(game, ProverGame):
            spec = with_threads(spec, self.config.threads, game)
        bot = make_bot(spec, game, seed=self.config.seed + self.matches_played)
        bot.reset(game)
        # The clock decides, except on the prover with its per-move iteration budget.
        iterations = self.config.prover_iterations if isinstance(game, ProverGame) \
            else None
        thinker = Thinker(bot, ponder=self.config.ponder, iterations=iterations,
                          puzzle_lines=True, seed=self.config.seed + self.matches_played)
        try:
            thinker.start(state, role)
        except MiaiError:
            thinker.close(timeout=0)
            raise
        thinker.resume()  # it searches from now on (the start clock included)
        return thinker

    # -- play ------------------------------------------------------------------------

    def _apply(self, match: Match) -> None:
        """Move the joint moves received into the history, in the order they were
        sent, and, when the game is loaded, play them (any thread)."""
        with match.lock:
            while len(match.history) < len(match.sent):
                moves = match.sent[len(match.history)]
                match.history.append(moves)
                if match.game is None or match.state is None:
                    continue  # _load replays the history once the game is ready
                try:
                    apply_joint(match.game, match.state, moves)
                except MiaiError as exc:
                    match.error = f"the game master's joint move {moves}: {exc}"
                    log.warning("match %s: %s", match.match_id, match.error)
                    match.state = None  # we no longer know the position: fallbacks only
                    if match.thinker is not None:
                        match.thinker.close(timeout=0)
                        match.thinker = None
            match.lock.notify_all()

    async def _observe(self, match: Match, moves: tuple[str, ...] | None,
                       deadline: float) -> None:
        if moves is None:
            return
        loop = asyncio.get_running_loop()
        match.received += 1
        match.sent.append(moves)
        work = loop.run_in_executor(self._rules_pool, self._apply, match)
        if not await _wait_until(work, deadline):
            # The search cannot follow a move it is not given: left as it is, it would
            # search the old position.  A fresh search once the move is applied.
            thinker = match.thinker
            if thinker is not None:
                self._drop_search(match, thinker, "the joint move was not applied in time")
                work.add_done_callback(lambda _: self._restart_soon(match))
            return
        thinker = match.thinker
        if thinker is not None and match.game is not None:
            timeout = max(MIN_THINK, deadline - loop.time())
            work = loop.run_in_executor(self._search_pool, _advance, thinker, match.game,
                                        moves, timeout)
            ok = await _wait_until(work, deadline + 0.05)
            if not ok or not work.result():
                self._drop_search(match, thinker, thinker.failed or "no advance in time")
                self._restart_soon(match)

    def _drop_search(self, match: Match, thinker: Thinker, why: str) -> None:
        log.warning("match %s: search restarted (%s)", match.match_id, why)
        if match.thinker is thinker:
            match.thinker = None
        thinker.close(timeout=0)

    def _restart_soon(self, match: Match) -> None:
        if self.match is match:
            asyncio.get_running_loop().run_in_executor(self._rules_pool, self._restart, match)

    def _restart(self, match: Match) -> None:
        """A fresh search from the match's position (after a failed advance)."""
        try:
            self._start_search(match)
        except MiaiError as exc:
            log.warning("match %s: no search: %s", match.match_id, exc)

    def _start_search(self, match: Match, tries: int = 3) -> None:
        """The match's thinker, made from a copy of its position (worker thread).  The
        bot is made and started outside the match's lock, which the rule threads and
        the legal moves of a PLAY wait for (making a bot and its search can take a
        while on a loaded machine); a position that moved on meanwhile gets another
        try."""
        for _ in range(tries):
            with match.lock:
                game, state = match.game, match.state
                if (self.match is not match or match.thinker is not None or game is None
                        or state is None or state.is_terminal()):
                    return
                position, seen = state.copy(), len(match.history)
            thinker = self._thinker(game, position, match.role)
            with match.lock:
                if (self.match is match and match.thinker is None and match.state is state
                        and len(match.history) == seen):
                    match.thinker = thinker
                    return
            thinker.close(timeout=0)

    async def _play(self, match: Match, msg: kif.Play, arrival: float) -> str:
        loop = asyncio.get_running_loop()
        # a request whose body came late (the clock runs from its first line) still
        # gets LATE_GRACE seconds for the legal moves: a move then, not nil
        deadline = max(arrival + match.play_clock - self.config.margin,
                       loop.time() + min(LATE_GRACE, match.play_clock / 4))
        # max_think caps the thinking only: the rule steps and the search's advance
        # keep the clock's time (with a small cap they would get none, and a search
        # never told of the moves would think about the old position)
        think_until = deadline
        if self.config.max_think is not None:
            think_until = min(deadline, arrival + self.config.max_think)
        fallback_at = deadline - min(FALLBACK_SECONDS, match.play_clock / 4)
        await self._observe(match, msg.moves, fallback_at)
        if match.loading is not None and not match.loading.done():
            # a quarter of the time for the grounding to end; then the prover's search
            now = loop.time()
            await _wait_until(match.loading, now + 0.25 * max(0.0, think_until - now))
        match.moves_answered += 1
        legal = await self._legal(match, deadline)
        if not legal:
            match.fallbacks += 1
            self._count(match, "nil")
            return "nil"  # nothing legal is known in time: the game master picks one
        if len(legal) == 1:
            self._pause_pondering(match)
            self._count(match, "only")
            return legal[0]
        move: str | None = None
        source = "random"
        thinker = match.thinker
        if thinker is not None and match.game is not None:
            move = await self._think(match, thinker, legal, think_until)
            source = f"{match.reasoner}-search" if thinker.searching else "bot"
            self._pause_pondering(match)
        elif match.game is not None or match.prover is not None:
            # still grounding, or loaded but its thinker not yet made (making it can
            # take a while on a loaded machine): a search for this move alone
            move, source = await self._interim_think(match, legal, think_until)
        if move is None or move not in legal:
            match.fallbacks += 1
            move = self._rng.choice(legal)
            source = "random"
        self._count(match, source)
        return move

    async def _think(self, match: Match, thinker: Thinker, legal: list[str],
                     think_until: float) -> str | None:
        """The thinker's move (text) by ``think_until`` (loop time, which is monotonic
        time), or None when it has none in time."""
        loop = asyncio.get_running_loop()
        game, role = match.game, match.role
        left = think_until - loop.time()
        if thinker.searching:  # the search answers from its statistics at once
            seconds = max(0.0, left)
        else:  # a bot choosing gets a little less than the time left
            seconds = max(MIN_THINK, left - min(BOT_SLACK, 0.2 * left))
        try:
            allowed = [native_move(game, text, role) for text in legal]
        except MiaiError:
            return None
        work = loop.run_in_executor(self._think_pool, lambda: thinker.think(
            seconds, legal=allowed, answer_by=think_until))
        if not await _wait_until(work, think_until + THINK_SLACK):
            return None
        try:
            thought: Thought = work.result()
        except MiaiError as exc:
            log.warning("match %s: no move from %s: %s", match.match_id, self.spec, exc)
            return None
        return None if thought.fallback else move_text(game, thought.move, role)

    async def _interim_think(self, match: Match, legal: list[str], think_until: float
                             ) -> tuple[str | None, str]:
        """A thinker for this move alone, for the time left, when the match has none:
        on the loaded game once it is loaded (its own thinker is still being made),
        else (the rules still grounding) on the prover from the position of the
        history.  The move (None when there is none in time) and its source."""
        loop = asyncio.get_running_loop()
        with match.lock:
            game, state, role = match.game, match.state, match.role
            position = state.copy() if game is not None and state is not None else None
        source = f"{match.reasoner if game is not None else 'prover'}-search"
        prover = match.prover
        if position is None and (prover is None or match.role_name not in prover.roles):
            return None, source

        def think() -> str | None:
            if game is not None and position is not None:
                on, at, seat = game, position, role
            else:
                assert prover is not None
                with match.lock:
                    history = list(match.history)
                on, at = self._prover_position(match, history, "fallback")
                seat = prover.roles.index(match.role_name)
            thinker = self._thinker(on, at, seat)
            try:
                left = think_until - time.monotonic()
                seconds = max(0.0, left) if thinker.searching \
                    else max(MIN_THINK, left - min(BOT_SLACK, 0.2 * left))
                allowed = [native_move(on, text, seat) for text in legal]
                thought = thinker.think(seconds, legal=allowed, answer_by=think_until)
            finally:
                thinker.close(timeout=0)
            return None if thought.fallback else move_text(on, thought.move, seat)

        work = loop.run_in_executor(self._think_pool, think)
        if not await _wait_until(work, think_until + THINK_SLACK):
            return None, source
        try:
            return work.result(), source
        except (MiaiError, ValueError) as exc:
            log.warning("match %s: no move from a search for this move: %s",
                        match.match_id, exc)
            return None, source

    def _count(self, match: Match, source: str) -> None:
        """Record where a move came from: propnet-search, prover-search (also while
        the rules are still grounding), bot, random (a fallback), only (the one legal
        move), emergency (out of resources), nil."""
        match.moves_by[source] += 1
        self.counters[f"move.{source}"] += 1

    def _pause_pondering(self, match: Match) -> None:
        """Without pondering, ask the search to pause (on a search-control thread:
        the event loop never waits for the search)."""
        thinker = match.thinker
        if not self.config.ponder and thinker is not None:
            self._search_pool.submit(thinker.halt)

    async def _legal(self, match: Match, deadline: float) -> list[str]:
        """Our legal moves, from the loaded game, else from the reference prover
        (when grounding is still running); [] when neither answers by ``deadline``.
        Only once every joint move received is in the history: a rule step still
        waiting for a thread must not leave us answering for the position before."""
        loop = asyncio.get_running_loop()
        received = match.received
        end = time.monotonic() + (deadline - loop.time())

        def from_rules() -> list[str]:
            with match.lock:
                if not match.lock.wait_for(lambda: len(match.history) >= received,
                                           end - time.monotonic()):
                    return []
                if match.game is not None and match.state is not None:
                    if match.state.is_terminal():
                        return []
                    return legal_texts(match.game, match.state, match.role)
                history = list(match.history)
            if match.error is not None:
                return []
            game, state = self._prover_position(match, history, "fallback")
            if match.role_name not in game.roles:
                return []
            return [] if state.is_terminal() else list(
                state.rule_moves(game.roles.index(match.role_name)))

        work = loop.run_in_executor(self._rules_pool, from_rules)
        if await _wait_until(work, deadline):
            try:
                return work.result()
            except MiaiError as exc:
                log.warning("match %s: no legal moves: %s", match.match_id, exc)
        return []

    def _end(self, why: str) -> None:
        """End the match (STOP, ABORT, expiry, closing): its grounding child is
        killed, its search stopped, its games dropped, and the memory they held
        given back."""
        match = self.match
        if match is None:
            return
        self.match = None
        match.ended = True
        self.matches_played += 1
        self.counters[f"end.{why}"] += 1
        if match.job is not None and match.job.running:
            match.job.cancel(f"the match is over ({why})")
        with match.lock:
            thinker, match.thinker = match.thinker, None
            match.prover = None
        if thinker is not None:
            thinker.close(timeout=0.2)
        log.info("match %s ended (%s): %s, moves by source %s", match.match_id, why,
                 match.reasoner, dict(match.moves_by))
        with contextlib.suppress(RuntimeError):
            self._search_pool.submit(_release_memory)


M_ARENA_MAX = -8  # glibc's mallopt parameter
ARENA_MAX = 2


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


def _limit_arenas() -> None:
    """At most ARENA_MAX malloc arenas: glibc gives each thread that allocates an
    arena of its own (up to 8 per core), and the player's many short-lived thread
    jobs (rule steps, searches, grounding watches) left their freed blocks spread
    over them: a player measured in-process for 48 matches grew 60 -> 64 MB with
    the default and stayed at 57 MB with 2 arenas."""
    libc = _libc()
    if libc is not None:
        with contextlib.suppress(AttributeError):
            libc.mallopt(M_ARENA_MAX, ARENA_MAX)


def _release_memory() -> None:
    """Give the memory of an ended match back: collect cycles, then ask glibc to
    return free heap pages (pymalloc's arenas and the C nets' blocks; without it the
    resident size of a long-running player only grows)."""
    gc.collect()
    libc = _libc()
    if libc is not None:
        with contextlib.suppress(AttributeError):
            libc.malloc_trim(0)


def _check_config(config: PlayerConfig) -> None:
    for name in ("ground_atoms", "prover_iterations", "ground_memory"):
        value = getattr(config, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise InvalidArgumentError(f"{name} must be None or an int >= 1, not {value!r}")
    seconds = config.ground_seconds
    if seconds is not None and not (isinstance(seconds, int | float) and seconds > 0):
        raise InvalidArgumentError(f"ground_seconds must be None or > 0, not {seconds!r}")
    seconds = config.choice_seconds
    if seconds is not None and not (isinstance(seconds, int | float) and seconds >= 0):
        raise InvalidArgumentError(f"choice_seconds must be None or >= 0, not {seconds!r}")


def _advance(thinker: Thinker, game: AnyGame, moves: tuple[str, ...],
             timeout: float) -> bool:
    """Tell the thinker of a joint move (texts); False when it could not follow."""
    try:
        return thinker.advance(native_joint(game, moves), timeout)
    except MiaiError as exc:
        thinker.failed = f"advance: {exc}"
        return False


def _watch(future: Future) -> asyncio.Future:
    """An asyncio future of a thread's future whose exception (if any) counts as
    retrieved (the loader's errors are reported where its result is used)."""
    wrapped = asyncio.wrap_future(future)
    wrapped.add_done_callback(lambda f: f.cancelled() or f.exception())
    return wrapped


async def _wait_until(work: asyncio.Future, deadline: float) -> bool:
    """Await ``work`` until the loop time ``deadline``; True if it finished (the work
    is left running otherwise: threads cannot be cancelled)."""
    left = deadline - asyncio.get_running_loop().time()
    if left > 0:
        await asyncio.wait({work}, timeout=left)
    if not work.done():  # its outcome, when it comes, is nobody's: read it quietly
        work.add_done_callback(_left_behind)
    return work.done()


def _left_behind(work: asyncio.Future) -> None:
    """A work given up at its deadline ended: its error (e.g. the prover stopped at
    the match's end) is logged at debug level, not as an unretrieved exception."""
    if not work.cancelled() and work.exception() is not None:
        log.debug("work left behind at its deadline ended: %r", work.exception())

