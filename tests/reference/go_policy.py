"""Plain-Python reference of the Go playout policy's rules and prior knowledge
(csrc/games/go_policy.c), written from the rules on the flood-fill board of
tests/reference/go_rules.py: no pattern table, no pseudo-liberties.

Points are move ids, colours 0 empty, 1 black, 2 white, ``ko`` a move id or None.
"""

from __future__ import annotations

from tests.reference.go_rules import EMPTY, after_move, group, is_own_eye, neighbours

# The MoGo 3x3 patterns (Gelly et al., INRIA RR-6062, 2006), centre = the candidate.
# '.' empty, 'X'/'O' the two colours either way round, '#' off board, '?' anything,
# 'x' not X, 'o' not O.
PATTERNS = [
    ("XOX", "...", "???"), ("XO.", "...", "?.?"), ("XO?", "X..", "x.?"), (".O.", "X..", "..."),
    ("XO?", "O.o", "?o?"), ("XO?", "O.X", "???"), ("?X?", "O.O", "ooo"), ("OX?", "o.O", "???"),
    ("X.?", "O.?", "##?"), ("OX?", "X.O", "###"), ("?X?", "x.O", "###"), ("?XO", "x.x", "###"),
    ("?OX", "X.O", "###"),
]
EDGE = 3


def cell(size: int, board: list[int], m: int, dr: int, dc: int) -> int:
    r, c = divmod(m, size)
    r, c = r + dr, c + dc
    if not (0 <= r < size and 0 <= c < size):
        return EDGE
    return board[r * size + c]


def _cell_ok(ch: str, value: int, x: int) -> bool:
    o = 3 - x
    return {
        ".": value == EMPTY, "X": value == x, "O": value == o, "#": value == EDGE,
        "x": value != x, "o": value != o, "?": True,
    }[ch]


def _transforms() -> list[tuple[tuple[int, int], ...]]:
    """The 8 symmetries of the square as (a, b, c, d): (dr, dc) -> (a dr + b dc, c dr + d dc)."""
    out = []
    for a, b, c, d in ((1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0)):
        out.append(((a, b), (c, d)))
        out.append(((a, -b), (c, -d)))  # then mirror the columns
    return out


def pattern_match(size: int, board: list[int], m: int) -> bool:
    """Empty m matches a pattern under some symmetry and colour assignment."""
    for pat in PATTERNS:
        for (a, b), (c, d) in _transforms():
            for x in (1, 2):
                if all(_cell_ok(pat[pr + 1][pc + 1],
                                cell(size, board, m, a * pr + b * pc, c * pr + d * pc), x)
                       for pr in (-1, 0, 1) for pc in (-1, 0, 1) if (pr, pc) != (0, 0)):
                    return True
    return False


def playout_ok(size: int, board: list[int], m: int, color: int, ko: int | None,
               fill_eyes: bool = False) -> bool:
    if board[m] != EMPTY or m == ko:
        return False
    if not fill_eyes and is_own_eye(size, board, m, color):
        return False
    return after_move(size, board, m, color) is not None


def libs_after(size: int, board: list[int], m: int, color: int) -> int:
    res = after_move(size, board, m, color)
    return 0 if res is None else len(group(size, res[0], m)[1])


def bad_self_atari(size: int, board: list[int], m: int, color: int) -> bool:
    """A move that captures nothing and leaves its group of two or more stones with
    one liberty (suicide counts too)."""
    res = after_move(size, board, m, color)
    if res is None:
        return True
    if res[1]:
        return False
    stones, libs = group(size, res[0], m)
    return len(stones) >= 2 and len(libs) < 2


def captures(size: int, board: list[int], m: int, color: int) -> bool:
    res = after_move(size, board, m, color)
    return res is not None and res[1] > 0


def atari_replies(size: int, board: list[int], last: int | None, color: int,
                  ko: int | None, fill_eyes: bool = False) -> set[int]:
    """Capture a group in atari at or next to the last move; save an own one (extend
    to two liberties, or capture an enemy group in atari next to it)."""
    if last is None or board[last] == EMPTY:
        return set()
    out: set[int] = set()

    def ok(p: int) -> bool:
        return playout_ok(size, board, p, color, ko, fill_eyes)

    for q in [last, *neighbours(size, last)]:
        if board[q] == EMPTY:
            continue
        stones, libs = group(size, board, q)
        if len(libs) != 1:
            continue
        (lib,) = libs
        if board[q] != color:
            if ok(lib):
                out.add(lib)
            continue
        if ok(lib) and libs_after(size, board, lib, color) >= 2:
            out.add(lib)
        for s in stones:
            for n in neighbours(size, s):
                if board[n] == 3 - color:
                    _, elibs = group(size, board, n)
                    if len(elibs) == 1:
                        (el,) = elibs
                        if ok(el):
                            out.add(el)
    return out


def pattern_replies(size: int, board: list[int], last: int | None, color: int,
                    ko: int | None, self_atari: bool) -> set[int]:
    if last is None or board[last] == EMPTY:
        return set()
    out = set()
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if cell(size, board, last, dr, dc) != EMPTY:
                continue
            m = last + dr * size + dc
            if not pattern_match(size, board, m) or not playout_ok(size, board, m, color, ko):
                continue
            if self_atari and bad_self_atari(size, board, m, color):
                continue
            out.add(m)
    return out


PRIOR_LINES, PRIOR_LADDER = 16, 32


def place(size: int, board: list[int], m: int, color: int) -> tuple[list[int], int | None] | None:
    """The board after ``color`` plays at empty m and the simple-ko point it leaves
    (one stone taken by a lone stone left with one liberty), or None for suicide."""
    res = after_move(size, board, m, color)
    if res is None:
        return None
    new, taken = res
    ko = None
    if taken == 1:
        stones, libs = group(size, new, m)
        if len(stones) == 1 and len(libs) == 1:
            ko = next(q for q in neighbours(size, m) if board[q] == 3 - color and new[q] == EMPTY)
    return new, ko


def ladder_captured(size: int, board: list[int], stone: int, ko: int | None,
                    steps: int = 0) -> bool:
    """The ladder as go_policy.h states it, read exhaustively on the flood-fill board:
    the group of ``stone`` (in atari, its colour to move) extends; with three or more
    liberties it escapes, with one it is taken, with two the attacker tries an atari
    at each; taking an attacker group next to it in atari escapes; 2 size + 2
    extensions in a row count as an escape."""
    e = board[stone]
    a = 3 - e
    if steps >= 2 * size + 2:
        return False
    stones, libs = group(size, board, stone)
    if len(libs) != 1:
        return False
    for s in stones:
        for n in neighbours(size, s):
            if board[n] == a and len(group(size, board, n)[1]) == 1:
                return False
    (lib,) = libs
    if lib == ko:
        return True
    res = place(size, board, lib, e)
    if res is None:
        return True
    extended = res[0]
    libs2 = group(size, extended, stone)[1]
    if len(libs2) != 2:
        return len(libs2) < 2
    for x in sorted(libs2):
        if x == res[1]:
            continue
        attacked = place(size, extended, x, a)
        if attacked is not None and ladder_captured(size, attacked[0], stone, attacked[1],
                                                    steps + 1):
            return True
    return False


def line(size: int, m: int) -> int:
    r, c = divmod(m, size)
    return 1 + min(r, c, size - 1 - r, size - 1 - c)


def empty_area(size: int, board: list[int], m: int) -> bool:
    r, c = divmod(m, size)
    return all(board[rr * size + cc] == EMPTY
               for rr in range(max(0, r - 2), min(size, r + 3))
               for cc in range(max(0, c - 2), min(size, c + 3)))


def atari_targets(size: int, board: list[int], m: int, color: int) -> list[int]:
    """A stone of each enemy group next to m whose liberties are m and one more."""
    out = []
    for n in neighbours(size, m):
        if board[n] == 3 - color:
            libs = group(size, board, n)[1]
            if len(libs) == 2 and m in libs:
                out.append(n)
    return out


def ladder_kind(size: int, board: list[int], m: int, color: int, ko: int | None) -> int:
    targets = atari_targets(size, board, m, color)
    res = place(size, board, m, color) if m != ko else None
    if targets and res is not None:
        for t in targets:
            if len(group(size, res[0], t)[1]) == 1 and ladder_captured(size, res[0], t, res[1]):
                return 1
    if captures(size, board, m, color):
        return 0
    for n in neighbours(size, m):
        if (board[n] == color and group(size, board, n)[1] == {m}
                and ladder_captured(size, board, n, ko)):
            return -1
    return 0


def prior_kind(size: int, board: list[int], m: int, color: int, last: int | None,
               ko: int | None, bits: int = 0) -> int:
    """+1 / 0 / -1 as go_prior_kinds documents (``bits``: PRIOR_LINES, PRIOR_LADDER)."""
    if m == size * size:
        return -1 if 4 * board.count(EMPTY) > size * size else 0
    if board[m] != EMPTY:
        return 0
    if is_own_eye(size, board, m, color) or bad_self_atari(size, board, m, color):
        return -1
    capture = captures(size, board, m, color)
    save = m in atari_replies(size, board, last, color, ko)
    kind = 1 if capture or save else 0
    if not kind and last is not None and board[last] != EMPTY:
        lr, lc = divmod(last, size)
        r, c = divmod(m, size)
        if abs(r - lr) <= 1 and abs(c - lc) <= 1 and pattern_match(size, board, m):
            kind = 1
    if bits & PRIOR_LINES:
        early = 2 * board.count(EMPTY) > size * size
        where = line(size, m)
        if (where <= 2 and ((where == 1 and early) or empty_area(size, board, m))
                and not capture and not save and not atari_targets(size, board, m, color)):
            kind = -1
    if bits & PRIOR_LADDER:
        kind = ladder_kind(size, board, m, color, ko) or kind
    return kind
