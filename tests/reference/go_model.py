"""Plain-Python reference of the Go move model's features (csrc/games/go_model_api.h),
written from the documented rules on the flood-fill board of tests/reference/go_rules.py
(no pseudo-liberties, no bit tricks), and of its probabilities from a table of gammas.

Points are move ids, colours 0 empty, 1 black, 2 white; ``last`` the point of the last
move or None; ``ko`` a move id or None.
"""

from __future__ import annotations

from tests.reference.go_policy import (
    EDGE,
    atari_targets,
    captures,
    cell,
    ladder_kind,
    libs_after,
    line,
)
from tests.reference.go_rules import EMPTY, after_move, group, is_own_eye, neighbours

PASS, CAPTURE, ESCAPE, SELF_ATARI, ATARI, EYE, LINE, DIST, PATTERN = range(9)
RING = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def pattern_key(size: int, board: list[int], m: int, color: int) -> int:
    """The 24-bit key: every rotation and reflection of the 3x3 window written out
    and packed, the smallest kept."""
    def value(dr: int, dc: int) -> int:
        v = cell(size, board, m, dr, dc)
        rel = v if v in (EMPTY, EDGE) else (1 if v == color else 2)
        if v not in (EMPTY, EDGE) and (dr == 0 or dc == 0):
            r, c = divmod(m, size)
            if len(group(size, board, (r + dr) * size + c + dc)[1]) == 1:
                rel |= 4
        return rel

    keys = []
    for rot in range(4):
        for mirror in (False, True):
            key = 0
            for i, (dr, dc) in enumerate(RING):
                # the cell that lands on ring position i under this symmetry
                r, c = dr, dc
                if mirror:
                    c = -c
                for _ in range(rot):
                    r, c = c, -r
                key |= value(r, c) << (3 * i)
            keys.append(key)
    return min(keys)


def features(size: int, board: list[int], m: int, color: int, last: int | None,
             ko: int | None) -> list[int]:
    out = [0] * 9
    n = size * size
    if m == n:
        empty = board.count(EMPTY)
        out[PASS] = 1 if 2 * empty > n else 2 if 4 * empty > n else 3
        return out
    if board[m] != EMPTY:
        return out
    enemy = 3 - color
    # captures
    levels = []
    for q in neighbours(size, m):
        if board[q] == enemy:
            stones, libs = group(size, board, q)
            if libs == {m}:
                saves = any(board[x] == color and len(group(size, board, x)[1]) == 1
                            for s in stones for x in neighbours(size, s))
                levels.append(1 if saves else 2 if last in stones else 3)
    out[CAPTURE] = min(levels) if levels else 0
    lk = ladder_kind(size, board, m, color, ko)
    # escape: an own group whose only liberty is m
    if any(board[q] == color and group(size, board, q)[1] == {m} for q in neighbours(size, m)):
        after = after_move(size, board, m, color)
        libs = len(group(size, after[0], m)[1]) if after else 0
        out[ESCAPE] = 1 if libs <= 1 else 4 if libs >= 3 else (2 if lk < 0 else 3)
    if not captures(size, board, m, color) and libs_after(size, board, m, color) < 2:
        out[SELF_ATARI] = 2 if any(board[q] == color for q in neighbours(size, m)) else 1
    if atari_targets(size, board, m, color):
        out[ATARI] = 2 if lk > 0 else 3 if ko is not None else 1
    out[EYE] = 1 if is_own_eye(size, board, m, color) else 0
    out[LINE] = min(line(size, m), 5)
    if last is not None:
        dr, dc = abs(m // size - last // size), abs(m % size - last % size)
        out[DIST] = min(dr + dc + max(dr, dc), 17) - 1
    out[PATTERN] = 1 + pattern_key(size, board, m, color)
    return out


def strength(f: list[int], level_gamma: list[list[float]], pattern_gamma: dict[int, float],
             rare: float) -> float:
    s = 1.0
    for k in range(PATTERN):
        if f[k]:
            s *= level_gamma[k][f[k]]
    if f[PATTERN]:
        s *= pattern_gamma.get(f[PATTERN] - 1, rare)
    return s
