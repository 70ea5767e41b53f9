"""GDL games on the C propnet: ``load(text)`` gives an ``engine.games.Game``.

The rules are parsed, checked, grounded and compiled into a propositional network
that C evaluates (csrc/gdl/propnet.c), so states, playouts and the search run with no
Python in the loop.  ``load_for_play`` falls back to the reference prover (and says
why) when grounding is over its bound or building the net fails.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from engine.core import check, ffi, lib
from engine.errors import InvalidArgumentError, LimitError
from engine.games import Game, State
from engine.gdl.checks import Program, load_program
from engine.gdl.errors import GdlError
from engine.gdl.ground import DEFAULT_BOUNDS, Bounds, ground
from engine.gdl.propnet import FlatPropnet, build
from engine.gdl.prover_game import ProverGame
from engine.gdl.terms import to_text
from engine.gdl.tolerant import tolerant_program
from engine.playouts import PlayoutRun

log = logging.getLogger(__name__)
DEFAULT_MAX_PLIES = 10_000
# The C playout engines miai_gdl_playout_check can test (gdl_api.h).
PLAYOUT_ENGINES = {"auto": lib.MIAI_GDL_ENGINE_AUTO, "diff": lib.MIAI_GDL_ENGINE_DIFF,
                   "diff-clear": lib.MIAI_GDL_ENGINE_DIFF_CLEAR,
                   "bits": lib.MIAI_GDL_ENGINE_BITS}


@dataclass(frozen=True)
class BuildInfo:
    ground_seconds: float   # parse + check + ground + build + optimise, wall-clock
    stats: dict[str, int]
    ground_cpu_seconds: float = 0.0  # the same, CPU time of the process


@dataclass(frozen=True)
class LanePlayout:
    """A playout of the lanes (GdlGame.lane_playouts): per ply, each role's move and
    number of legal moves (the first ``cap`` plies), and the rewards it ended with."""
    plies: int
    moves: list[tuple[int, ...]]
    counts: list[tuple[int, ...]]
    rewards: tuple[float, ...]


class GdlGame(Game):
    """A Game whose rules are a GDL description, evaluated by a C propnet."""

    def __init__(self, ptr: Any, name: str, net: FlatPropnet, info: BuildInfo) -> None:
        super().__init__(ptr, name, {})
        self.roles = [to_text(r) for r in net.roles]
        self.moves = [[to_text(m) for m in ms] for ms in net.moves]
        self.bases = [to_text(b) for b in net.bases]
        self.info = info
        self.warnings: list[str] = []  # what a tolerant reading changed (load_for_play)

    @property
    def spec(self) -> str:
        return self.name

    @property
    def playout_engine(self) -> str:
        """The C engine of this game's random playouts: "bits", "diff", "diff-clear"
        (check_playout) or "generic" (the loop over play(): net too big)."""
        engine = ffi.new("int *")
        check(lib.miai_gdl_playout_engine(self.ptr, engine), "playout engine")
        names = {v: k for k, v in PLAYOUT_ENGINES.items()}
        return names.get(engine[0], "generic")

    @property
    def lanes_min_batch(self) -> int:
        """The least batch of playouts (engine.playouts.playout_run) that runs in the
        lanes, up to 64 games at a time, one per bit of a word (csrc/gdl/pn_lanes.c),
        because a ply there costs less than the batch's plies one by one; 0 when no
        batch does."""
        n = ffi.new("uint32_t *")
        check(lib.miai_gdl_lanes_min_batch(self.ptr, n), "lanes")
        return int(n[0])

    @property
    def lanes_blocks(self) -> tuple[int, int, int]:
        """The lanes' guarded blocks, the gates in them, and the work a ply of the lanes
        counts with them (csrc/gdl/pn_internal.h; all 0 on a net without lanes)."""
        blocks, gates = ffi.new("uint32_t *"), ffi.new("uint32_t *")
        work = ffi.new("uint64_t *")
        check(lib.miai_gdl_lanes_blocks(self.ptr, blocks, gates, work), "lanes")
        return int(blocks[0]), int(gates[0]), int(work[0])

    def lane_playouts(self, state: State, n: int, seed: int,
                      cap: int) -> list[LanePlayout]:
        """``n`` playouts from ``state`` by the lanes, whether or not batches use them,
        each with its legal-move counts and moves for its first ``cap`` plies: what a
        test replays by the plain play.  Raises LimitError on a net too big for them."""
        limit = int(lib.MIAI_GDL_LANE_TRACE_MAX)
        for what, value in (("n", n), ("cap", cap)):
            if not isinstance(value, int) or not 0 <= value <= limit:
                raise InvalidArgumentError(f"{what} must be an int in [0, {limit}]")
        if not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise InvalidArgumentError(f"seed must be an int in [0, 2**64), not {seed!r}")
        nr = self.n_roles
        moves = ffi.new("miai_move[]", max(1, n * cap * nr))
        counts = ffi.new("uint32_t[]", max(1, n * cap * nr))
        plies = ffi.new("uint32_t[]", max(1, n))
        rewards = ffi.new("double[]", max(1, n * nr))
        code = lib.miai_gdl_lane_playouts(self.ptr, state.ptr, n, seed, cap, moves, counts,
                                          plies, rewards)
        if code == lib.MIAI_ELIMIT:
            raise LimitError("net too big for the lanes")
        check(code, "lane playouts")
        out = []
        for i in range(n):
            at = [(i * cap + k) * nr for k in range(min(int(plies[i]), cap))]
            out.append(LanePlayout(
                plies=int(plies[i]),
                moves=[tuple(int(moves[a + r]) for r in range(nr)) for a in at],
                counts=[tuple(int(counts[a + r]) for r in range(nr)) for a in at],
                rewards=tuple(float(rewards[i * nr + r]) for r in range(nr))))
        return out

    def diff_playouts(self, state: State, n: int, seed: int, *,
                      restart: bool = False) -> PlayoutRun:
        """``n`` playouts from ``state`` on one work block of the differential engine,
        as the batches the lanes leave run (csrc/gdl/pn_diff.c, pn_diff_playouts):
        each after the first starts from where the last one ended -- always with
        ``restart``, else where that is closer than the snapshot.  The same result as
        ``playout_run(state, n, seed, batch=False)``; a test compares them.  Raises
        LimitError on a net without the differential engine."""
        if not isinstance(n, int) or not 0 <= n <= int(lib.MIAI_GDL_BATCH_MAX):
            raise InvalidArgumentError(
                f"n must be an int in [0, {int(lib.MIAI_GDL_BATCH_MAX)}], not {n!r}")
        if not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise InvalidArgumentError(f"seed must be an int in [0, 2**64), not {seed!r}")
        sums = ffi.new("double[]", self.n_roles)
        plies = ffi.new("uint64_t *")
        code = lib.miai_gdl_diff_playouts(self.ptr, state.ptr, n, seed, int(restart), sums,
                                          self.n_roles, plies)
        if code == lib.MIAI_ELIMIT:
            raise LimitError("no differential engine on this net")
        check(code, "differential batch")
        means = tuple(sums[r] / n if n else 0.0 for r in range(self.n_roles))
        return PlayoutRun(means, n, int(plies[0]))

    @property
    def family_groups(self) -> tuple[int, int]:
        """(groups, guarded ANDs) through which the differential engine follows the
        mutex families (engine/gdl/mutex.py); (0, 0) when it follows none."""
        groups, guarded = ffi.new("uint32_t *"), ffi.new("uint32_t *")
        check(lib.miai_gdl_family_stats(self.ptr, groups, guarded), "family stats")
        return int(groups[0]), int(guarded[0])

    def true_facts(self, state: State) -> list[str]:
        """The base propositions true in ``state``, as sorted KIF texts."""
        out = ffi.new("uint8_t[]", max(1, len(self.bases)))
        check(lib.miai_gdl_state_bases(self.ptr, state.ptr, out, len(out)), "state bases")
        return sorted(b for i, b in enumerate(self.bases) if out[i])

    def rule_moves(self, state: State, role: int) -> list[int]:
        """Legal moves of ``role`` as the rules give them, whoever is to move (a role
        that is not to move usually has one: its noop)."""
        self._check_role(role)
        cap = max(1, len(self.moves[role]))
        out, n = ffi.new("miai_move[]", cap), ffi.new("uint32_t *")
        check(lib.miai_gdl_state_legal_all(self.ptr, state.ptr, role, out, cap, n),
              "legal moves")
        return [int(out[i]) for i in range(n[0])]

    def check_playout(self, state: State, seed: int, engine: str = "auto") -> int | None:
        """Run a C playout engine from ``state`` checking every ply against the plain
        evaluation (the state; for the differential engine also every node value and
        gate counter against a plain evaluation of the whole net), and the whole playout
        against the generic loop with the same ``seed``; the playout's length, or None
        when this net has no such engine (too big; "bits": a cyclic range too).
        ``engine``: "auto" (the one playouts use), "diff" (differential, the joint
        move kept on between plies), "diff-clear" (differential, the joint move
        cleared before the bases propagate) or "bits" (word-parallel, nets of at most 128
        nodes without a cycle).  Raises
        CorruptStateError on a difference."""
        if not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise InvalidArgumentError(f"seed must be an int in [0, 2**64), not {seed!r}")
        if engine not in PLAYOUT_ENGINES:
            raise InvalidArgumentError(
                f"engine must be one of {sorted(PLAYOUT_ENGINES)}, not {engine!r}")
        plies = ffi.new("uint32_t *")
        code = lib.miai_gdl_playout_check(self.ptr, state.ptr, seed,
                                          PLAYOUT_ENGINES[engine], plies)
        if code == lib.MIAI_ELIMIT:
            return None
        check(code, f"{engine!r} playout engine against the plain evaluation")
        return int(plies[0])

    def check_mast_playouts(self, state: State, seed: int, engine: str = "auto",
                            n: int = 64, eps: float = 0.4, temp: float = 0.0) -> int | None:
        """Run ``n`` MAST playouts (csrc/core/mast.h; the table learning from each
        playout, epsilon-greedy with ``eps`` or Gibbs at ``temp`` > 0) on a C playout
        engine and on the generic loop over play() with the same ``seed``; their plies
        in all, or None when this net has no such engine.  Raises CorruptStateError
        where the moves, the final states or the tables differ."""
        if not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise InvalidArgumentError(f"seed must be an int in [0, 2**64), not {seed!r}")
        if engine not in PLAYOUT_ENGINES:
            raise InvalidArgumentError(
                f"engine must be one of {sorted(PLAYOUT_ENGINES)}, not {engine!r}")
        plies = ffi.new("uint64_t *")
        code = lib.miai_gdl_mast_check(self.ptr, state.ptr, seed, PLAYOUT_ENGINES[engine],
                                       n, float(eps), float(temp), plies)
        if code == lib.MIAI_ELIMIT:
            return None
        check(code, f"MAST playouts of the {engine!r} engine against the generic loop")
        return int(plies[0])

    def __repr__(self) -> str:
        return f"GdlGame({self.name!r}, roles={self.roles}, nodes={self.info.stats['nodes']})"


def compile_propnet(net: FlatPropnet, name: str, max_plies: int) -> Any:
    """The C game of a flat propnet (the C side validates every array again)."""
    keep: list[Any] = []

    def arr(ctype: str, values: list[int]) -> Any:
        a = ffi.new(f"{ctype}[]", values if values else [0])
        keep.append(a)
        return a

    def offsets(lists: list[list[int]]) -> tuple[Any, Any]:
        """A list of lists as C arrays: offsets (one more than lists), then the items."""
        first = [0]
        for items in lists:
            first.append(first[-1] + len(items))
        return arr("uint32_t", first), arr("uint32_t", [x for items in lists for x in items])

    def texts(values: list[str]) -> Any:
        bufs = [ffi.new("char[]", v.encode()) for v in values]
        keep.extend(bufs)
        return arr("char *", bufs) if bufs else arr("char *", [ffi.NULL])

    if not 1 <= len(net.roles) <= int(lib.MIAI_MAX_ROLES):
        raise LimitError(f"{len(net.roles)} roles (miai plays 1..{int(lib.MIAI_MAX_ROLES)})")
    d = ffi.new("miai_gdl_desc *")
    d.n_nodes = len(net.kind)
    d.kind = arr("uint8_t", net.kind)
    d.arg = arr("uint32_t", net.arg)
    d.first_in = arr("uint32_t", net.first_in)
    setattr(d, "in", arr("uint32_t", net.inputs))
    d.n_ranges = len(net.ranges)
    d.range_lo = arr("uint32_t", [lo for lo, _ in net.ranges])
    d.range_hi = arr("uint32_t", [hi for _, hi in net.ranges])
    d.n_base = len(net.bases)
    d.next_node = arr("uint32_t", net.next_node)
    d.init = arr("uint8_t", net.init)
    d.base_text = texts([to_text(b) for b in net.bases])
    d.n_roles = len(net.roles)
    d.n_moves = arr("uint32_t", [len(ms) for ms in net.moves])
    d.legal_node = arr("uint32_t", net.legal_node)
    if net.legal_guard:
        d.legal_guard = arr("uint32_t", net.legal_guard)
        d.legal_guarded = arr("uint8_t", net.legal_guarded)
    d.move_text = texts([to_text(m) for ms in net.moves for m in ms])
    d.n_sets = len(net.sets)
    d.set_first, d.set_move = offsets(net.sets)
    d.terminal_node = net.terminal
    d.n_goals = len(net.goals)
    d.goal_role = arr("uint32_t", [g[0] for g in net.goals])
    d.goal_value = arr("uint32_t", [g[1] for g in net.goals])
    d.goal_node = arr("uint32_t", [g[2] for g in net.goals])
    d.n_families = len(net.families)
    d.family_first, d.family_base = offsets(net.families)
    d.n_gate_families = len(net.gate_families)
    d.gate_family_first, d.gate_family_node = offsets(net.gate_families)
    d.max_plies = max_plies
    d.seed = net.seed
    name_buf = ffi.new("char[]", name.encode()[: int(lib.MIAI_NAME_LEN) - 1])
    d.name = name_buf
    out = ffi.new("miai_game **")
    check(lib.miai_gdl_create(d, out), f"build propnet of {name}")
    return ffi.gc(out[0], lib.miai_game_free)


def load(text: str, name: str = "gdl", bounds: Bounds = DEFAULT_BOUNDS,
         max_plies: int = DEFAULT_MAX_PLIES) -> GdlGame:
    """GDL text to a C propnet game.  Raises GdlError on bad rules and
    GroundingLimitError (a LimitError) when grounding is over ``bounds``."""
    _check_max_plies(max_plies)
    start, cpu_start = time.perf_counter(), time.process_time()
    return _build(load_program(text), name, bounds, max_plies, start, cpu_start)


def _check_max_plies(max_plies: int) -> None:
    if not isinstance(max_plies, int) or max_plies < 1:
        raise InvalidArgumentError(f"max_plies must be a positive int, not {max_plies!r}")


@dataclass
class BuiltNet:
    """A grounded, built net not yet compiled (``build_net``): plain data, picklable,
    so a child process can build it and the parent compile it (``from_net``)."""
    net: FlatPropnet
    info: BuildInfo
    warnings: list[str]


@dataclass
class NoNet:
    """``build_net`` found no net the bounds allow (or building one failed): the
    prover plays, for ``reason``."""
    reason: str
    warnings: list[str]


def _build_net(program: Program, bounds: Bounds, start: float, cpu_start: float,
               warnings: list[str]) -> BuiltNet:
    """Ground and build a checked program (``start``, ``cpu_start``: when the
    loading began, wall-clock and CPU, for BuildInfo); LimitError past the bounds."""
    net = build(ground(program, bounds))
    if len(net.kind) > int(lib.MIAI_PN_MAX_NODES):
        raise LimitError(f"propnet of {len(net.kind)} nodes is over the bound "
                         f"{int(lib.MIAI_PN_MAX_NODES)}")
    info = BuildInfo(time.perf_counter() - start, net.stats,
                     time.process_time() - cpu_start)
    return BuiltNet(net, info, warnings)


def from_net(built: BuiltNet, name: str = "gdl",
             max_plies: int = DEFAULT_MAX_PLIES) -> GdlGame:
    """The C propnet game of a built net (``build_net``, maybe in another process)."""
    _check_max_plies(max_plies)
    ptr = compile_propnet(built.net, name, max_plies)
    game = GdlGame(ptr, name, built.net, built.info)
    game.warnings = list(built.warnings)
    return game


def _build(program: Program, name: str, bounds: Bounds, max_plies: int, start: float,
           cpu_start: float) -> GdlGame:
    return from_net(_build_net(program, bounds, start, cpu_start, []), name, max_plies)


def _program(text: str, name: str, tolerant: bool) -> tuple[Program, list[str]]:
    if not tolerant:
        return load_program(text), []
    program, warnings = tolerant_program(text)
    if warnings:
        log.warning("GDL game %s: read tolerantly: %s", name, "; ".join(warnings))
    return program, warnings


def build_net(text: str, name: str = "gdl", bounds: Bounds = DEFAULT_BOUNDS, *,
              tolerant: bool = False) -> BuiltNet | NoNet:
    """Parse, check, ground and build the net of GDL text, not compiled: the
    part of ``load_for_play`` a child process runs (protocols/ggp/ground_worker.py).
    NoNet when grounding is over its bound or building fails in another way; rules
    that break GDL raise GdlError (with ``tolerant``, only when even the tolerant
    reading fails)."""
    start, cpu_start = time.perf_counter(), time.process_time()
    program, warnings = _program(text, name, tolerant)
    return _built_or_not(program, name, bounds, start, cpu_start, warnings)


def _built_or_not(program: Program, name: str, bounds: Bounds, start: float,
                  cpu_start: float, warnings: list[str]) -> BuiltNet | NoNet:
    try:
        return _build_net(program, bounds, start, cpu_start, warnings)
    except LimitError as exc:
        log.warning("GDL game %s: %s; falling back to the (slow) reference prover",
                    name, exc)
        return NoNet(str(exc), warnings)
    except GdlError:
        raise  # the rules break GDL (e.g. a goal value out of 0..100)
    except Exception as exc:  # any other failure of the build: the prover plays
        reason = f"building the propnet failed ({type(exc).__name__}: {exc})"
        log.exception("GDL game %s: %s; falling back to the (slow) reference prover",
                      name, reason)
        return NoNet(reason, warnings)


def load_for_play(text: str, name: str = "gdl", bounds: Bounds = DEFAULT_BOUNDS,
                  max_plies: int = DEFAULT_MAX_PLIES, *, tolerant: bool = False,
                  program: Program | None = None) -> GdlGame | ProverGame:
    """The propnet game, or the reference prover when grounding is over its bound or
    grounding and building the net fail in any other way (a bug there must not cost a
    match the prover can play): logged as a warning, with the reason in the returned
    game's ``fallback_reason``.  Rules that do not parse or pass the checks raise
    GdlError, as the prover would not read them either; with ``tolerant``, rules the
    strict checks reject are read as engine.gdl.tolerant says (logged as a warning,
    the notes in the game's ``warnings``) and raise only when even that reading fails.
    ``program``: the rules already checked (the text is then not read again)."""
    _check_max_plies(max_plies)
    start, cpu_start = time.perf_counter(), time.process_time()
    warnings: list[str] = []
    if program is None:
        program, warnings = _program(text, name, tolerant)
    built = _built_or_not(program, name, bounds, start, cpu_start, warnings)
    if isinstance(built, BuiltNet):
        try:
            return from_net(built, name, max_plies)
        except LimitError as exc:
            built = NoNet(str(exc), warnings)
        except Exception as exc:  # a failure to compile: the prover plays
            built = NoNet(f"building the propnet failed ({type(exc).__name__}: {exc})",
                          warnings)
            log.exception("GDL game %s: %s; falling back to the (slow) reference "
                          "prover", name, built.reason)
    game = ProverGame(text, name, max_plies, program=program)
    game.fallback_reason = built.reason
    game.warnings = warnings
    return game
