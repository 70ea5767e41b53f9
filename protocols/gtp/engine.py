"""A GTP version 2 engine over miai's Go game and any bot.

``GtpEngine.handle(line)`` takes one input line and returns the complete response
(``=id result\\n\\n`` or ``?id message\\n\\n``), or ``""`` for blank and comment lines.
Every command either succeeds or answers ``? message`` with the engine's state
unchanged: commands work on copies (see session.py) and commit at the end.

The bot thinks through a Thinker (bots/thinker.py): genmove asks it for a move by the
clock's budget (protocols/gtp/genmove.py), played moves advance it, and with
``ponder`` its search goes on during the opponent's time after our move; every command
first pauses it, so commands never see a running search.  This module is the only one
of protocols/gtp that imports the others (genmove and gogui take what they need as
arguments).

Only GTP goes to stdout (server.py); logging goes to stderr.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bots.base import Bot
from bots.report import Report
from bots.thinker import Thinker
from engine import games
from engine.errors import IllegalMoveError, MiaiError
from protocols.gtp import framing, genmove, gogui
from protocols.gtp.session import COLOUR_NAMES, MAX_SIZE, GoSession, parse_colour
from protocols.gtp.timecontrol import TimeControl

log = logging.getLogger("miai.gtp")

PROTOCOL_VERSION = "2"
NO_ARGUMENTS = frozenset((
    "protocol_version", "name", "version", "list_commands", "quit", "clear_board", "undo",
    "final_score", "showboard", "gogui-analyze_commands", "cputime",
))
PAUSE_SECONDS = 10.0  # a command waits this long for the search to pause, at most


class GtpError(Exception):
    """A command failed: the message goes into ``? message``."""


@dataclass
class GtpOptions:
    bot_spec: str = "go9"
    resign_threshold: float = 0.1  # resign below this win rate; 0 disables
    resign_min_visits: int = 500
    gfx: bool = True  # gogui-gfx live output on stderr during genmove
    default_seconds: float | None = None  # without time settings: the bot's own budget
    ponder: bool = False  # search on the opponent's time (search bots)


class GtpEngine:
    def __init__(
        self,
        options: GtpOptions | None = None,
        bot_factory: Callable[[str, games.Game], Bot] | None = None,
        stderr: Callable[[str], None] | None = None,
    ) -> None:
        self.options = options or GtpOptions()
        self.session = GoSession()
        self.clock = TimeControl()
        self._bot_factory = bot_factory or _default_bot_factory
        self._stderr = stderr or (lambda text: None)
        self._thinker: Thinker | None = None
        self._bot_game: games.Game | None = None
        self._last_search: gogui.LastSearch | None = None
        self._arrived = 0.0  # when the command being answered arrived (clock.now)
        self.quit_requested = False
        self.commands: dict[str, Callable[[Sequence[str]], str]] = {
            "protocol_version": lambda a: PROTOCOL_VERSION,
            "name": lambda a: "miai",
            "version": lambda a: _version(),
            "known_command": self.cmd_known_command,
            "list_commands": lambda a: "\n".join(sorted(self.commands)),
            "quit": self.cmd_quit,
            "boardsize": self.cmd_boardsize,
            "clear_board": self.cmd_clear_board,
            "komi": self.cmd_komi,
            "play": self.cmd_play,
            "genmove": self.cmd_genmove,
            "reg_genmove": self.cmd_reg_genmove,
            "kgs-genmove_cleanup": self.cmd_genmove_cleanup,
            "undo": self.cmd_undo,
            "fixed_handicap": self.cmd_fixed_handicap,
            "place_free_handicap": self.cmd_place_free_handicap,
            "set_free_handicap": self.cmd_set_free_handicap,
            "final_score": self.cmd_final_score,
            "final_status_list": self.cmd_final_status_list,
            "time_settings": self.cmd_time_settings,
            "kgs-time_settings": self.cmd_kgs_time_settings,
            "time_left": self.cmd_time_left,
            "showboard": self.cmd_showboard,
            "loadsgf": self.cmd_loadsgf,
            "cputime": lambda a: f"{time.process_time():.3f}",
            "printsgf": self.cmd_printsgf,
        }
        gogui.register(self.commands, self)

    # -- dispatch -------------------------------------------------------------
    def handle(self, line: str) -> str:
        command = framing.parse(line)
        if command is None:
            return ""
        self._arrived = self.clock.now()  # the controller's clock runs from here
        self._pause()  # every command sees a search at rest
        handler = self.commands.get(command.name.lower()) if command.name else None
        if handler is None:
            return framing.failure(command.id, "unknown command")
        if command.name.lower() in NO_ARGUMENTS and command.args:
            return framing.failure(command.id, "syntax error")
        try:
            return framing.success(command.id, handler(command.args))
        except (GtpError, MiaiError) as exc:
            return framing.failure(command.id, str(exc).split(": ")[-1] if _is_c_error(exc)
                                   else str(exc))
        except Exception as exc:  # a bug must not kill the engine mid-game
            log.exception("internal error in %s", command.name)
            return framing.failure(command.id, f"internal error: {exc}")

    # -- administrative -------------------------------------------------------
    def cmd_known_command(self, args: Sequence[str]) -> str:
        _arity(args, 1)
        return "true" if args[0].lower() in self.commands else "false"

    def cmd_quit(self, args: Sequence[str]) -> str:
        self.quit_requested = True
        self.close()
        return ""

    def close(self) -> None:
        thinker, self._thinker = self._thinker, None
        if thinker is not None:
            thinker.close(timeout=PAUSE_SECONDS)  # closes the bot too

    # -- setup ----------------------------------------------------------------
    def cmd_boardsize(self, args: Sequence[str]) -> str:
        _arity(args, 1)
        size = _int(args[0])
        self.session.set_size(size)
        self._invalidate_bot()
        return ""

    def cmd_clear_board(self, args: Sequence[str]) -> str:
        self.session.clear()
        self._invalidate_bot()
        return ""

    def cmd_komi(self, args: Sequence[str]) -> str:
        _arity(args, 1)
        komi = _float(args[0])  # GTP: any float (GNU Go takes 6.25 too)
        self.session.set_komi(komi)
        self._invalidate_bot()
        return ""

    def cmd_fixed_handicap(self, args: Sequence[str]) -> str:
        from engine import go

        _arity(args, 1)
        n = _int(args[0])
        try:
            points = go.fixed_handicap_points(self.session.game, n)
        except MiaiError as exc:
            raise GtpError("invalid number of stones") from exc
        self.session.place_setup(0, points)
        self._invalidate_bot()
        return " ".join(self.session.vertex(p) for p in points)

    def cmd_place_free_handicap(self, args: Sequence[str]) -> str:
        from engine import go

        _arity(args, 1)
        n = _int(args[0])
        max_free = self.session.size * self.session.size - 1
        if n < 2 or n > max_free:
            raise GtpError("invalid number of stones")
        try:
            points = go.fixed_handicap_points(self.session.game, min(n, 9))
        except MiaiError:
            points = []
        rest = [p for p in range(self.session.size**2) if p not in points]
        random.Random(n).shuffle(rest)
        points = (points + rest)[:n]
        self.session.place_setup(0, points)
        self._invalidate_bot()
        return " ".join(self.session.vertex(p) for p in points)

    def cmd_set_free_handicap(self, args: Sequence[str]) -> str:
        if len(args) < 2:
            raise GtpError("invalid number of stones")
        points = [self._vertex_arg(a) for a in args]
        self.session.place_setup(0, points)
        self._invalidate_bot()
        return ""

    # -- moves ------------------------------------------------------------------
    def _vertex_arg(self, text: str) -> int:
        try:
            return self.session.parse_vertex(text)
        except MiaiError as exc:
            raise GtpError("invalid coordinate") from exc

    def cmd_play(self, args: Sequence[str]) -> str:
        _arity(args, 2)
        try:
            role = parse_colour(args[0])
        except MiaiError as exc:
            raise GtpError("invalid color") from exc
        move = self._vertex_arg(args[1])
        before = self.session.state.copy()
        try:
            self.session.play(role, move)
        except IllegalMoveError as exc:
            raise GtpError("illegal move") from exc
        self._observe(before, move, role)
        return ""

    def cmd_undo(self, args: Sequence[str]) -> str:
        try:
            self.session.undo()
        except MiaiError as exc:
            raise GtpError("cannot undo") from exc
        self._invalidate_bot()
        return ""

    def cmd_genmove(self, args: Sequence[str]) -> str:
        return self._genmove(args, commit=True, cleanup=False)

    def cmd_reg_genmove(self, args: Sequence[str]) -> str:
        return self._genmove(args, commit=False, cleanup=False)

    def cmd_genmove_cleanup(self, args: Sequence[str]) -> str:
        return self._genmove(args, commit=True, cleanup=True)

    def _genmove(self, args: Sequence[str], commit: bool, cleanup: bool) -> str:
        _arity(args, 1)
        try:
            role = parse_colour(args[0])
        except MiaiError as exc:
            raise GtpError("invalid color") from exc
        thinker = self.thinker()
        progress = None
        if self.options.gfx:
            def progress(report: Report) -> None:
                text = gogui.live_gfx(self, report)
                if text:
                    self.emit_stderr(text)
        decision = genmove.decide(self.session, self.clock, self.options, thinker, role,
                                  cleanup=cleanup, progress=progress)
        if decision.fallback:
            self.abandon_bot()  # it may still be thinking: never reuse it
        if commit:  # the own clock: charged as the controller charges it
            self.clock.charge("BW"[role], self.clock.now() - self._arrived)
        played = commit and not decision.resign
        if played:
            before = self.session.state.copy()
            self.session.play(role, decision.move)
            self._observe(before, decision.move, role)
        self._last_search = None if decision.report is None else gogui.LastSearch(
            decision.report, decision.move if played else None, self.session.state.key)
        if decision.resign:
            return "resign"
        if played and self.options.ponder and self._thinker is not None:
            self._thinker.resume()  # the opponent's time: the search goes on
        return self.session.vertex(decision.move)

    # -- scoring --------------------------------------------------------------
    def cmd_final_score(self, args: Sequence[str]) -> str:
        from protocols.gtp import scoring

        margin = scoring.final_margin(self.session)
        if margin == 0:
            return "0"
        return f"B+{_fmt(margin)}" if margin > 0 else f"W+{_fmt(-margin)}"

    def cmd_final_status_list(self, args: Sequence[str]) -> str:
        from protocols.gtp import scoring

        _arity(args, 1)
        status = args[0].lower()
        if status not in ("alive", "dead", "seki"):
            raise GtpError("syntax error")
        groups = scoring.status_groups(self.session, status)
        return "\n".join(" ".join(self.session.vertex(p) for p in group) for group in groups)

    # -- time -----------------------------------------------------------------
    def cmd_time_settings(self, args: Sequence[str]) -> str:
        _arity(args, 3)
        main, byo, stones = _float(args[0]), _float(args[1]), _int(args[2])
        self.clock.set_gtp(main, byo, stones)
        return ""

    def cmd_kgs_time_settings(self, args: Sequence[str]) -> str:
        if not args:
            raise GtpError("syntax error")
        self.clock.set_kgs(args[0], list(args[1:]))
        return ""

    def cmd_time_left(self, args: Sequence[str]) -> str:
        _arity(args, 3)
        role = parse_colour(args[0])
        self.clock.time_left(COLOUR_NAMES[role], _float(args[1]), _int(args[2]))
        return ""

    # -- board I/O ------------------------------------------------------------
    def cmd_showboard(self, args: Sequence[str]) -> str:
        return "\n" + self.session.state.render().rstrip("\n")

    def cmd_loadsgf(self, args: Sequence[str]) -> str:
        from protocols.gtp import sgf

        if not 1 <= len(args) <= 2:
            raise GtpError("syntax error")
        move_number = _int(args[1]) if len(args) == 2 else None
        sgf.load(self.session, args[0], move_number)
        self._invalidate_bot()
        return ""

    def cmd_printsgf(self, args: Sequence[str]) -> str:
        from protocols.gtp import sgf

        text = sgf.dump(self.session)
        if args:
            try:
                with open(args[0], "w", encoding="utf-8") as fh:
                    fh.write(text)
            except OSError as exc:
                raise GtpError(f"cannot write {args[0]}: {exc.strerror}") from exc
            return ""
        return text.strip()

    # -- the bot --------------------------------------------------------------
    def thinker(self) -> Thinker:
        """The thinker of the bot for the current game (made lazily, remade after
        setup changes)."""
        if self._thinker is None or self._bot_game is not self.session.game:
            self.close()
            bot = self._bot_factory(self.options.bot_spec, self.session.game)
            bot.reset(self.session.game)
            self._thinker = Thinker(bot, ponder=self.options.ponder,
                                    fallback=genmove.fallback_move)
            self._bot_game = self.session.game
        return self._thinker

    @property
    def pondering(self) -> bool:
        """True while the bot's search runs on the opponent's time."""
        return self._thinker is not None and self._thinker.pondering

    def last_search(self) -> gogui.LastSearch | None:
        """The search of the last genmove, kept for GoGui's analyze commands while the
        position is the one it left (see gogui.shown_search)."""
        return self._last_search

    def abandon_bot(self) -> None:
        """Forget the bot without waiting for it (it missed its deadline): its worker
        ends once the bot returns; the bot is not closed under it."""
        thinker, self._thinker = self._thinker, None
        self._bot_game = None
        if thinker is not None:
            thinker.close(timeout=0, close_bot=False)

    def _pause(self) -> None:
        thinker = self._thinker
        if thinker is not None and not thinker.pause(PAUSE_SECONDS):
            log.error("the search did not pause: the bot is abandoned")
            self.abandon_bot()

    def _invalidate_bot(self) -> None:
        """Setup changed under the bot: it restarts from the current position."""
        self._last_search = None
        if self._thinker is not None:
            self._thinker.reset(self.session.game)

    def _observe(self, before: games.State, move: int, role: int) -> None:
        thinker = self._thinker
        if thinker is None:
            return
        if (before.to_move != role or before.is_terminal()
                or self.session.state.ply != before.ply + 1):
            thinker.reset(self.session.game)  # implicit pass, clean-up or rebase: resync
            return
        try:
            ok = thinker.advance(move, timeout=PAUSE_SECONDS, before=before)
        except MiaiError:
            ok = False
        if not ok:
            thinker.reset(self.session.game)

    def emit_stderr(self, text: str) -> None:
        self._stderr(text)


def _default_bot_factory(spec: str, game: games.Game) -> Bot:
    from bots.registry import make_bot

    return make_bot(spec, game)


def _is_c_error(exc: Exception) -> bool:
    return isinstance(exc, MiaiError) and ": " in str(exc)


def _arity(args: Sequence[str], n: int) -> None:
    if len(args) != n:
        raise GtpError("syntax error")


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise GtpError("syntax error") from None


def _float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise GtpError("syntax error") from None
    if not math.isfinite(value):
        raise GtpError("syntax error")
    return value


def _fmt(x: float) -> str:
    """A score as written by GTP engines: ``7``, ``0.5``, ``18.75`` (no float noise)."""
    return f"{x:.6f}".rstrip("0").rstrip(".")


def _version() -> str:
    import engine

    return engine.__version__


__all__ = ["GtpEngine", "GtpError", "GtpOptions", "MAX_SIZE"]
