"""Plain-Python RAVE (Gelly & Silver's MC-RAVE AMAF rule, Fuego's value mix of
accelerated-uct.txt eq. 8): the truth csrc/search/rave.c is tested against."""

from __future__ import annotations

from tests.reference import ucb


def amaf_moves(seq: list[int], roles: list[int], k: int) -> set[int]:
    """Moves whose first occurrence in seq[k:] was made by roles[k]'s role."""
    first: dict[int, int] = {}
    for j in range(k, len(seq)):
        first.setdefault(seq[j], roles[j])
    return {m for m, r in first.items() if r == roles[k]}


def fuego_weight(amaf_n: float, w_init: float, w_final: float) -> float:
    """Fuego's unnormalised RAVE weight W = m / (1/w_init + m/w_final)."""
    return amaf_n / (1.0 / w_init + amaf_n / w_final) if amaf_n > 0 else 0.0


def rave_value(n: int, total: float, amaf_n: float, amaf_total: float, *, w_init: float,
               w_final: float, fpu: float, c: float = 0.0, parent: int = 0) -> float:
    """Eq. 8: n/(n+W) r + W/(n+W) r_rave, plus c sqrt(ln N / n) for visited edges."""
    w = fuego_weight(amaf_n, w_init, w_final)
    if n + w <= 0:
        return fpu
    r = total / n if n else 0.0
    r_rave = amaf_total / amaf_n if amaf_n else 0.0
    value = n / (n + w) * r + w / (n + w) * r_rave
    if c > 0 and n > 0:
        value += ucb.bonus(c, parent, n)
    return value
