"""Tournament statistics: scores per pairing with their intervals, and Elo ratings.

Scores: a game gives each player its reward (two-player games: win 1, draw 1/2,
loss 0); the interval of a mean score between players is Wilson's
(``bots.report.score_interval``, conservative with draws).  One-player series (a
reward per game anywhere in [0, 1], like LeftRight's share of Left moves) use the
normal approximation with the sample standard deviation instead,
mean +- z s / sqrt(n): Wilson's would treat every game as a coin flip and be far too
wide.

Elo: the Bradley-Terry model on Elo's scale, P(i beats j) = 1 / (1 + 10^((R_j - R_i)
/ 400)), fitted by maximum likelihood to every pairwise result (a draw counts as half
a win for each side; a game with more than two roles gives one result per pair of
roles, from the order of their rewards).  The ratings are centred on mean 0.  Their
95% intervals come from the Fisher information at the maximum (the observed
information of the logistic likelihood, inverted on the centred subspace by the
Moore-Penrose pseudo-inverse).  The maximum exists only if the "scored against"
graph is strongly connected (Zermelo 1929; Ford 1957); when it is not (a player that
never dropped a point, say), :func:`elo` adds ``prior`` virtual draws to every played
pairing -- a Bayesian prior in the manner of BayesElo -- and says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from bots.report import Z95, score_interval
from engine.errors import InvalidArgumentError

ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per unit of the natural logit
DEFAULT_PRIOR_DRAWS = 1.0

__all__ = ["Z95", "score_interval", "Result", "EloFit", "elo", "pairwise_results",
           "mean_interval", "normal_interval"]


@dataclass(frozen=True)
class Result:
    """Player ``a``'s score against player ``b`` over ``games`` games."""

    a: str
    b: str
    score: float  # in [0, games]
    games: float


@dataclass(frozen=True)
class EloFit:
    players: tuple[str, ...]
    ratings: tuple[float, ...]  # Elo, mean 0
    half_widths: tuple[float, ...]  # 95% interval half-widths
    covariance: tuple[tuple[float, ...], ...]  # Elo^2
    prior_draws: float  # virtual draws per pairing used (0: plain maximum likelihood)
    connected: bool  # every player linked to every other by played games

    def rating(self, player: str) -> float:
        return self.ratings[self.players.index(player)]

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """R_a - R_b and the half-width of its 95% interval."""
        i, j = self.players.index(a), self.players.index(b)
        var = self.covariance[i][i] + self.covariance[j][j] - 2 * self.covariance[i][j]
        return self.ratings[i] - self.ratings[j], Z95 * math.sqrt(max(0.0, var))


def mean_interval(total: float, n: float) -> tuple[float, float, float]:
    """(mean, low, high) of ``n`` outcomes in [0, 1] summing to ``total``."""
    if n <= 0:
        return 0.0, 0.0, 1.0
    mean = total / n
    low, high = score_interval(mean, n)
    return mean, low, high


def normal_interval(total: float, squares: float, n: float) -> tuple[float, float, float]:
    """(mean, low, high): mean +- z s / sqrt(n) with s the sample standard deviation
    of ``n`` outcomes summing to ``total`` with squares summing to ``squares``
    (clipped to [0, 1]); fewer than two outcomes give Wilson's interval."""
    if n < 2:
        return mean_interval(total, n)
    mean = total / n
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = Z95 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def pairwise_results(players: Sequence[str], rewards: Sequence[float]
                     ) -> list[tuple[str, str, float]]:
    """(a, b, a's score in [0, 1]) for every pair of roles of one game: 1 if a's
    reward is higher, 1/2 if equal, 0 if lower."""
    out = []
    for i in range(len(players)):
        for j in range(i + 1, len(players)):
            if players[i] == players[j]:
                continue
            ri, rj = rewards[i], rewards[j]
            out.append((players[i], players[j], 1.0 if ri > rj else 0.5 if ri == rj else 0.0))
    return out


def _tables(players: Sequence[str], results: Iterable[Result]
            ) -> tuple[np.ndarray, np.ndarray]:
    """Score matrix S[i, j] (i's points against j) and games matrix G (symmetric)."""
    index = {p: k for k, p in enumerate(players)}
    n = len(players)
    score = np.zeros((n, n))
    count = np.zeros((n, n))
    for r in results:
        if r.a not in index or r.b not in index:
            raise InvalidArgumentError(f"result between unknown players {r.a!r}, {r.b!r}")
        if r.a == r.b:
            continue
        if not 0.0 <= r.score <= r.games:
            raise InvalidArgumentError(f"score {r.score} outside [0, {r.games}]")
        i, j = index[r.a], index[r.b]
        score[i, j] += r.score
        score[j, i] += r.games - r.score
        count[i, j] += r.games
        count[j, i] += r.games
    return score, count


def _reach(adjacent: np.ndarray) -> np.ndarray:
    """Transitive closure (reflexive) of a boolean adjacency matrix."""
    reach = adjacent | np.eye(len(adjacent), dtype=bool)
    while True:
        nxt = reach | ((reach.astype(int) @ reach.astype(int)) > 0)
        if (nxt == reach).all():
            return reach
        reach = nxt


def _strongly_connected(score: np.ndarray) -> bool:
    return bool(_reach(score > 0).all())


def _connected(count: np.ndarray) -> bool:
    return bool(_reach(count > 0).all())


def elo(players: Sequence[str], results: Iterable[Result], *,
        prior: float = DEFAULT_PRIOR_DRAWS, max_iter: int = 200) -> EloFit:
    """Bradley-Terry ratings (Elo scale, mean 0) with 95% Fisher intervals."""
    names = tuple(players)
    n = len(names)
    if n == 0:
        raise InvalidArgumentError("Elo needs players")
    score, count = _tables(names, results)
    connected = _connected(count)
    used_prior = 0.0
    if not _strongly_connected(score):
        if prior <= 0:
            raise InvalidArgumentError(
                "the maximum-likelihood Elo does not exist (some players never scored "
                "against the others): give a prior")
        used_prior = prior
        played = count > 0
        score = score + 0.5 * prior * played
        count = count + prior * played
    theta = _fit(score, count, max_iter)
    info = _information(theta, count)
    cov = np.linalg.pinv(info)
    # Project on the centred subspace (the ratings' mean is fixed at 0).
    centre = np.eye(n) - np.full((n, n), 1.0 / n)
    cov = centre @ cov @ centre
    ratings = tuple(float(t * ELO_SCALE) for t in theta)
    cov_elo = cov * ELO_SCALE * ELO_SCALE
    half = tuple(float(Z95 * math.sqrt(max(0.0, cov_elo[i, i]))) for i in range(n))
    return EloFit(names, ratings, half,
                  tuple(tuple(float(x) for x in row) for row in cov_elo),
                  used_prior, connected)


def _information(theta: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Fisher information of the log-likelihood in theta (natural logit units):
    sum over pairs of g_ij p_ij (1 - p_ij) (e_i - e_j)(e_i - e_j)^T."""
    p = _win_prob(theta)
    w = np.triu(count, 1) * p * (1.0 - p)
    w = w + w.T
    return np.diag(w.sum(axis=1)) - w


def _win_prob(theta: np.ndarray) -> np.ndarray:
    """p_ij = 1 / (1 + exp(theta_j - theta_i)), the Bradley-Terry win probability."""
    return 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))


def _fit(score: np.ndarray, count: np.ndarray, max_iter: int) -> np.ndarray:
    """Newton's method on the concave log-likelihood
    L = sum_ij S_ij log p_ij, with step halving, centred at mean 0."""
    n = len(score)
    theta = np.zeros(n)
    if n == 1:
        return theta

    def loglik(t: np.ndarray) -> float:
        p = _win_prob(t)
        mask = count > 0
        return float((score[mask] * np.log(p[mask])).sum())

    current = loglik(theta)
    for _ in range(max_iter):
        p = _win_prob(theta)
        grad = (score - count * p).sum(axis=1)
        info = _information(theta, count)
        step = np.linalg.pinv(info) @ grad
        scale = 1.0
        while True:
            trial = theta + scale * step
            trial -= trial.mean()
            value = loglik(trial)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale *= 0.5
        theta, previous, current = trial, current, value
        if np.abs(scale * step).max() < 1e-12 or abs(current - previous) < 1e-15:
            break
    return theta
