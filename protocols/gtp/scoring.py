"""Scoring for GTP: dead stones from ownership, final_score, final_status_list,
whether passing wins, and the clean-up move of kgs-genmove_cleanup.

Dead stones are estimated as in most MCTS engines: a stone whose point ends owned by the
opponent in most random playouts from the position is dead.  Area (Chinese) scoring
with komi is computed in C with those stones removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.games import State

if TYPE_CHECKING:
    from protocols.gtp.session import GoSession

OWNERSHIP_PLAYOUTS = 400


def dead_stones(state: State) -> set[int]:
    """Stones whose groups the playouts give to the opponent (seeded by the position,
    so the same position always gets the same answer)."""
    from engine import go

    return set(go.dead_stones(state, OWNERSHIP_PLAYOUTS, seed=state.key & 0xFFFFFFFF))


ESTIMATE_ITERATIONS = 4000


@dataclass(frozen=True)
class Estimate:
    """The result of a game still in progress, from one search of the position: the
    stones its playouts give up, the area margin with them removed, the expected
    margin of its playouts and black's win rate."""

    dead: frozenset[int]
    area_margin: float
    expected_margin: float
    black_win_rate: float

    @property
    def margin(self) -> float:
        """The area margin with the dead stones removed when it names the winner
        the search names; else the playouts' expected margin (to the half point)
        when that does; else the search's winner by half a point.  So the estimate
        never names a winner the search gives under half the games."""
        black_wins = self.black_win_rate > 0.5
        for margin in (self.area_margin, round(self.expected_margin * 2) / 2):
            if margin != 0 and (margin > 0) == black_wins:
                return margin
        return 0.5 if black_wins else -0.5


def search_estimate(state: State, iterations: int = ESTIMATE_ITERATIONS,
                    seed: int = 0) -> Estimate:
    """Dead stones and the result of an unfinished game from a RAVE search with the
    full playout policy: the ownership of its own playouts (Huang et al.'s eq. 16,
    a stone's group dead when its mean is the opponent's) and its win rate."""
    from engine import go
    from engine.search import RAVE, Search
    from engine.search.go_pruning import root_territory, territory_value

    game = go.policy_game(state.game, go.POLICY_FULL)
    # Territory counting on, and a pruning that never fires (no Phi is exactly 0
    # while another is not, in one batch at the end).
    alg = RAVE(prior=20, knowledge=True, prune="territory", t_low=0.0, t_high=0.0,
               every=iterations)
    search = Search(go.in_game(state, game), alg, iterations=iterations, seed=seed)
    result = search.run()
    n_points = go.board_size(game) ** 2
    counts = root_territory(search, n_points)
    total = sum(counts.visits)
    black = [sum(row[q] for row in counts.black) for q in range(n_points)]
    white = [sum(row[q] for row in counts.white) for q in range(n_points)]
    own = territory_value(black, white, max(1, total))
    board = go.colors(state)
    dead: set[int] = set()
    for group in _strings(board, go.board_size(game)):
        mean = sum(own[p] for p in group) / len(group)
        if (mean < 0) if board[group[0]] == go.BLACK else (mean > 0):
            dead.update(group)
    black_rate = result.root_value if result.role == 0 else 1.0 - result.root_value
    return Estimate(frozenset(dead), go.score(state, dead).margin,
                    sum(own) - go.komi(game), black_rate)


def _strings(board: list[int], size: int,
             points: set[int] | None = None) -> list[list[int]]:
    """The strings (connected stones of one colour) of a board, in board order of
    their first point; with ``points``, of those stones only (a string split by a
    point outside them counts as two)."""
    seen: set[int] = set()
    out = []
    for p, c in enumerate(board):
        if c == 0 or p in seen or (points is not None and p not in points):
            continue
        group, todo = [], [p]
        seen.add(p)
        while todo:
            q = todo.pop()
            group.append(q)
            r, col = divmod(q, size)
            for n, ok in ((q - size, r > 0), (q + size, r < size - 1),
                          (q - 1, col > 0), (q + 1, col < size - 1)):
                if (ok and n not in seen and board[n] == c
                        and (points is None or n in points)):
                    seen.add(n)
                    todo.append(n)
        out.append(group)
    return out


def final_margin(session: GoSession) -> float:
    """Black's area minus White's area minus komi, dead stones removed.  After two
    passes the dead stones come from light playouts (dead_stones); in a game still in
    progress (a resignation point, a time loss) from a search's own playouts, its
    margin made consistent with its win rate (search_estimate)."""
    from engine import go

    state = session.state
    if state.is_terminal() or not session.moves:
        return go.score(state, dead_stones(state)).margin
    return search_estimate(state).margin


def status_list(session: GoSession, status: str) -> set[int]:
    from engine import go

    board = go.colors(session.state)
    stones = {p for p, c in enumerate(board) if c != go.EMPTY}
    state = session.state
    if state.is_terminal() or not session.moves:
        dead = dead_stones(state)
    else:  # a game in progress: the same estimate as final_score's
        dead = set(search_estimate(state).dead)
    if status == "dead":
        return dead
    if status == "alive":
        return stones - dead
    return set()  # seki is not told apart: such stones are listed as alive


def status_groups(session: GoSession, status: str) -> list[list[int]]:
    """The stones of ``status`` as strings (connected stones of one colour), each
    sorted, the strings in board order: ``final_status_list`` answers one string per
    line (GTP 2, as GNU Go does)."""
    from engine import go

    points = status_list(session, status)
    board = go.colors(session.state)
    return [sorted(group) for group in _strings(board, session.size, points)]


def passing_wins(session: GoSession, state: State, role: int) -> bool:
    """The opponent just passed and the game, scored now, is won by ``role``."""
    if not session.moves or session.moves[-1][1] != session.pass_move:
        return False
    if session.moves[-1][0] == role:
        return False
    from engine import go

    margin = go.score(state, dead_stones(state)).margin
    return margin > 0 if role == 0 else margin < 0


def dead_opponent_stones(state: State, role: int) -> set[int]:
    """The opponent's stones (of ``role``) that the estimate gives up."""
    from engine import go

    opponent = go.WHITE if role == 0 else go.BLACK
    board = go.colors(state)
    return {p for p in dead_stones(state) if board[p] == opponent}


def cleanup_move(session: GoSession, state: State, move: int, report: Any) -> int:
    """Under clean-up, do not pass while dead opponent stones remain: instead of a
    pass, or of any move when the opponent just passed (no threat to answer), a legal
    move on a liberty of theirs (the most visited such move when the search saw one),
    else the most visited non-pass move."""
    opponent_passed = bool(session.moves) and session.moves[-1][1] == session.pass_move
    if move != session.pass_move and not opponent_passed:
        return move
    dead = dead_opponent_stones(state, state.to_move)
    if not dead:
        return move
    legal = set(state.legal_moves()) - {session.pass_move}
    size = session.size
    near: list[int] = []  # legal points next to dead stones
    for p in sorted(dead):
        r, c = divmod(p, size)
        for q in (p - size if r else -1, p + size if r < size - 1 else -1,
                  p - 1 if c else -1, p + 1 if c < size - 1 else -1):
            if q in legal and q not in near:
                near.append(q)
    ranked = [int(s.move) for s in report.moves] if report is not None else []
    for q in ranked:
        if q in near:
            return q
    if near:
        return near[0]
    if move != session.pass_move:
        return move
    for q in ranked:
        if q in legal:
            return q
    return move
