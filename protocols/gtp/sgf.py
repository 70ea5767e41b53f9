"""loadsgf / printsgf through sgfmill (SGF FF[4], game GM[1]).

The root's ``PL`` (the player to move at the start) is read and, when White is to
move at the start (a handicap, or a PL[W] read), written."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgfmill import common, sgf, sgf_moves

from engine.errors import MiaiError

if TYPE_CHECKING:
    from protocols.gtp.session import GoSession

from protocols.gtp.session import MAX_SIZE, MIN_SIZE


class SgfError(MiaiError):
    """The SGF file cannot be read or does not describe a game miai can set up."""


def _point(session: GoSession, rc: tuple[int, int]) -> int:
    return session.parse_vertex(common.format_vertex(rc))


def load(session: GoSession, path: str, move_number: int | None = None) -> None:
    """Set up the game of ``path``; with ``move_number``, the position before that
    move (GTP: moves up to move_number - 1 are played)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise SgfError(f"cannot load file: {exc.strerror}") from exc
    try:
        game = sgf.Sgf_game.from_bytes(data)
        board, plays = sgf_moves.get_setup_and_moves(game)
    except ValueError as exc:
        raise SgfError(f"cannot load file: {exc}") from exc
    size = game.get_size()
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise SgfError("unacceptable size")
    komi = game.get_komi()
    if move_number is not None and move_number < 1:
        raise SgfError("invalid move number")
    from protocols.gtp.session import GoSession

    root = game.get_root()
    first = None
    if root.has_property("PL"):
        first = 0 if root.get("PL") == "b" else 1  # the player to move at the start
    trial = GoSession(size=size, komi=float(komi))
    setup = [
        (0 if colour == "b" else 1, _point(trial, (row, col)))
        for colour, (row, col) in ((c, rc) for c, rc in board.list_occupied_points())
    ]
    if setup or first is not None:
        trial.place_setup_stones(setup, first)
    limit = len(plays) if move_number is None else min(len(plays), move_number - 1)
    for colour, move in plays[:limit]:
        role = 0 if colour == "b" else 1
        trial.play(role, trial.pass_move if move is None else _point(trial, move))
    session.adopt(trial)


def dump(session: GoSession) -> str:
    """The current game (setup and moves) as SGF text."""
    game = sgf.Sgf_game(size=session.size)
    root = game.get_root()
    root.set("KM", session.komi)
    root.set("RU", "Chinese")
    root.set("AP", ("miai", "0.1"))
    black = [_rc(session, p) for r, p in session.setup if r == 0]
    white = [_rc(session, p) for r, p in session.setup if r == 1]
    if black or white:
        root.set_setup_stones(black, white)
    if black and not white:
        root.set("HA", len(black))
    if session.start_player() == 1:
        root.set("PL", "w")  # White to move at the start
    for role, move in session.moves:
        node = game.extend_main_sequence()
        node.set_move("bw"[role], None if move == session.pass_move else _rc(session, move))
    return game.serialise().decode()


def _rc(session: GoSession, point: int) -> tuple[int, int]:
    return common.move_from_vertex(session.vertex(point), session.size)
