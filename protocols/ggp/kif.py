"""GGP messages in KIF: parse a request body, write replies.

The forms game masters send (ggp-base, Tiltyard, the Dresden server), case-insensitive,
any whitespace::

    (info)
    (preview (RULES...) CLOCK)
    (start ID ROLE (RULES...) STARTCLOCK PLAYCLOCK)
    (play ID MOVES)          MOVES is nil on the first move, else (m_1 ... m_n),
    (stop ID MOVES)          one move per role in the order of the role facts
    (abort ID)

As in ggp-base's request factory, ``start`` may carry arguments after the play clock
(room the protocol keeps for later standard fields); they are ignored.

Tokens come from engine.gdl's tokeniser (symbols lower-cased); every malformed body
raises :class:`KifError` (a ParseError) and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import ParseError
from engine.gdl.errors import GdlError
from engine.gdl.parser import read_sexprs

MAX_CLOCK = 86_400  # seconds; longer clocks are refused as malformed


class KifError(ParseError):
    """A request body that is not one of the GGP message forms."""


Node = str | list  # a symbol, or a list of nodes


@dataclass(frozen=True)
class Info:
    pass


@dataclass(frozen=True)
class Preview:
    rules: str
    clock: int


@dataclass(frozen=True)
class Start:
    match_id: str
    role: str
    rules: str
    start_clock: int
    play_clock: int


@dataclass(frozen=True)
class Play:
    match_id: str
    moves: tuple[str, ...] | None  # None: the first move (nil)


@dataclass(frozen=True)
class Stop:
    match_id: str
    moves: tuple[str, ...] | None


@dataclass(frozen=True)
class Abort:
    match_id: str


Message = Info | Preview | Start | Play | Stop | Abort


def _strip(node: tuple[object, int]) -> Node:
    value, _line = node
    if isinstance(value, str):
        return value
    return [_strip(child) for child in value]  # type: ignore[union-attr]


def to_text(node: Node) -> str:
    """KIF text of a node: ``(mark 1 2)``, ``noop``."""
    if isinstance(node, str):
        return node
    return "(" + " ".join(to_text(child) for child in node) + ")"


def _symbol(node: Node, what: str) -> str:
    if not isinstance(node, str):
        raise KifError(f"{what} must be a symbol, not {to_text(node)[:80]}")
    return node


def _clock(node: Node, what: str) -> int:
    text = _symbol(node, what)
    if not text.isdigit() or not 0 < int(text) <= MAX_CLOCK:
        raise KifError(f"{what} must be a whole number of seconds in [1, {MAX_CLOCK}], "
                       f"not {text[:40]!r}")
    return int(text)


def _rules(node: Node) -> str:
    if not isinstance(node, list):
        raise KifError("the rules must be a list of sentences")
    return "\n".join(to_text(sentence) for sentence in node)


def _moves(node: Node) -> tuple[str, ...] | None:
    if node == "nil":
        return None
    if not isinstance(node, list) or not node:
        raise KifError(f"moves must be nil or a list of moves, not {to_text(node)[:80]}")
    return tuple(to_text(m) for m in node)


_ARITY = {"info": 0, "preview": 2, "start": 5, "play": 2, "stop": 2, "abort": 1}


def parse_message(body: str) -> Message:
    """The message of a request body; raises KifError when it is none of the forms."""
    try:
        nodes = read_sexprs(body)
    except GdlError as exc:
        raise KifError(f"malformed KIF: {exc}") from None
    if len(nodes) != 1 or not isinstance(nodes[0][0], list) or not nodes[0][0]:
        raise KifError("a request is exactly one non-empty list")
    items = _strip(nodes[0])
    head, args = items[0], items[1:]
    if not isinstance(head, str) or head not in _ARITY:
        raise KifError(f"unknown message {to_text(head)[:40]!r}")
    if len(args) != _ARITY[head] and not (head == "start" and len(args) > _ARITY[head]):
        raise KifError(f"({head} ...) takes {_ARITY[head]} arguments, got {len(args)}")
    if head == "info":
        return Info()
    if head == "preview":
        return Preview(_rules(args[0]), _clock(args[1], "preview clock"))
    if head == "start":
        return Start(_symbol(args[0], "match id"), _symbol(args[1], "role"), _rules(args[2]),
                     _clock(args[3], "start clock"), _clock(args[4], "play clock"))
    if head == "play":
        return Play(_symbol(args[0], "match id"), _moves(args[1]))
    if head == "stop":
        return Stop(_symbol(args[0], "match id"), _moves(args[1]))
    return Abort(_symbol(args[0], "match id"))


# -- writing requests (the game master's side) ----------------------------------------

def rules_text(rules: str) -> str:
    """Rules as one line of KIF per sentence, comments dropped (a ``;`` comment on
    the last line of a rule sheet would otherwise swallow the message's ``)``)."""
    try:
        nodes = read_sexprs(rules)
    except GdlError as exc:
        raise KifError(f"malformed rules: {exc}") from None
    return "\n".join(to_text(_strip(node)) for node in nodes)


def start_text(match_id: str, role: str, rules: str, start_clock: int, play_clock: int) -> str:
    return f"(start {match_id} {role} ({rules_text(rules)}) {start_clock} {play_clock})"


def moves_text(moves: tuple[str, ...] | list[str] | None) -> str:
    return "nil" if moves is None else "(" + " ".join(moves) + ")"


def play_text(match_id: str, moves: tuple[str, ...] | list[str] | None) -> str:
    return f"(play {match_id} {moves_text(moves)})"


def stop_text(match_id: str, moves: tuple[str, ...] | list[str] | None) -> str:
    return f"(stop {match_id} {moves_text(moves)})"


def abort_text(match_id: str) -> str:
    return f"(abort {match_id})"


def info_reply(name: str, status: str) -> str:
    return f"((name {name}) (status {status}))"


def parse_move_reply(body: str) -> str:
    """A player's move reply to canonical KIF text; raises KifError when it is not
    exactly one term."""
    try:
        nodes = read_sexprs(body)
    except GdlError as exc:
        raise KifError(f"malformed move: {exc}") from None
    if len(nodes) != 1:
        raise KifError(f"a move reply is one term, got {len(nodes)}")
    return to_text(_strip(nodes[0]))
