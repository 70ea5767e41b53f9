"""Monte-Carlo tree search over the reference prover, for GDL games that could not be
grounded.

The C search runs on C games only, so a GDL game whose grounding is over its bound
(played with ``engine.gdl.prover_game.ProverGame``) is searched by this pure-Python
MCTS instead.  It is a tree (no transposition detection) with one node per position
reached by a joint move.  Every node keeps, for every role, each of that role's legal
moves' visit count and reward sum: decoupled statistics, so at a simultaneous node
each role chooses from its own statistics (decoupled UCT) and at an alternating node,
where the roles not to move have a single move, it is plain UCT.  Any number of
roles; rewards are goals / 100, each role's own.

Every node keeps its state, so the descent costs no prover step; the tree holds at
most ``max_nodes`` nodes below the root (past that the search samples without
expanding).  One iteration: from the root choose each role's move by UCB1 (unvisited
moves first, ties at random) down to the first joint move not yet followed, add its
node, play
uniformly random joint moves to the end of the game (at most ``max_plies``; a playout
cut there scores 0 for everyone), and add each role's reward to that role's
statistics along the path.  The move to play is the
most visited move of the asking role at the root (ties: the higher mean).

One-player games (puzzles): every playout that reaches the end is a complete line; the
best one found (highest goal) is kept (``best_line``) and followed while its goal is
at least the root's best mean, as the C search's player does.

Threads: one thread calls ``iterate``, one other may call ``advance``, any may call
``best_move`` or ``root_visits``.  ``advance`` computes the new root outside the lock,
then swaps it in and bumps a generation number under a short lock; an iteration that
began under an older generation is dropped.  A playout calls ``should_stop`` before
every step, so pausing never waits for a whole playout even where one prover step is
slow.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Sequence

from engine.errors import InvalidArgumentError, MiaiError, StateError
from engine.gdl.prover_game import ProverGame, ProverState

DEFAULT_C = 0.4  # the UCD paper's GGP constant (section 4.4), 40 on the 0..100 scale
DEFAULT_MAX_NODES = 200_000  # each node keeps its state: a bound on memory


def ucb1(total: float, visits: int, parent: int, c: float) -> float:
    """The UCT value, uct-star.txt eq. 1 (= ucd.txt eq. 2): w_i/n_i + c sqrt(ln N / n_i);
    the C search's is csrc/search/uct.c, this is the prover search's.  Unvisited moves
    are worth +infinity."""
    if visits == 0:
        return math.inf
    return total / visits + c * math.sqrt(math.log(max(parent, 1)) / visits)


class Node:
    """A position of the tree: its state (so a descent needs no prover step), each
    role's legal moves and their statistics."""

    __slots__ = ("state", "moves", "visits", "totals", "children", "rewards")

    def __init__(self, state: ProverState) -> None:
        n_roles = state.game.n_roles
        self.state = state.copy()
        self.rewards: tuple[float, ...] | None = state.rewards() if state.is_terminal() \
            else None
        self.moves: list[list[str]] = [] if self.rewards is not None else [
            state.rule_moves(r) for r in range(n_roles)]
        self.visits = [[0] * len(ms) for ms in self.moves]
        self.totals = [[0.0] * len(ms) for ms in self.moves]
        self.children: dict[tuple[int, ...], Node] = {}

    def joint_texts(self, joint: Sequence[int]) -> list[str]:
        return [self.moves[r][i] for r, i in enumerate(joint)]


class BestLine:
    """The best complete line of a one-player game found so far: the goal it reaches
    and its moves (texts) from the current root."""

    def __init__(self) -> None:
        self.goal = -1.0
        self.moves: list[str] = []

    def offer(self, goal: float, moves: list[str]) -> None:
        if goal > self.goal:
            self.goal, self.moves = goal, list(moves)

    def advance(self, move: str) -> None:
        """The root moved by ``move``: keep the line if it started with it."""
        if self.moves and self.moves[0] == move:
            self.moves.pop(0)
        else:
            self.goal, self.moves = -1.0, []


class ProverSearch:
    """Decoupled UCT over a ProverGame from ``state`` (module doc)."""

    def __init__(self, game: ProverGame, state: ProverState, *, c: float = DEFAULT_C,
                 seed: int = 0, max_plies: int = 10_000,
                 max_nodes: int = DEFAULT_MAX_NODES) -> None:
        if not isinstance(game, ProverGame):
            raise InvalidArgumentError(f"a prover search needs a ProverGame, not {game!r}")
        if isinstance(c, bool) or not isinstance(c, int | float) or not math.isfinite(c) \
                or c < 0:
            raise InvalidArgumentError(f"exploration constant c must be finite and >= 0, "
                                       f"not {c!r}")
        if state.is_terminal():
            raise InvalidArgumentError("cannot search a terminal state")
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
            raise InvalidArgumentError(f"max_nodes must be a positive int, not {max_nodes!r}")
        self.game = game
        self.max_nodes = max_nodes
        self.c = float(c)
        self.max_plies = max_plies
        self.puzzle = game.n_roles == 1
        self.seed = seed
        self._lock = threading.Lock()
        self._root = Node(state)
        self.nodes = 1            # in the tree below the current root
        self._generation = 0
        self.iterations = 0       # since the last advance
        self.total_iterations = 0
        self.line = BestLine()

    # -- one iteration (the search thread) --------------------------------------------

    def _choose(self, node: Node, role: int, rng: random.Random) -> int:
        visits = node.visits[role]
        if len(visits) == 1:
            return 0
        parent = sum(visits)
        totals = node.totals[role]
        best: list[int] = []
        top = -math.inf
        for i, n in enumerate(visits):
            value = ucb1(totals[i], n, parent, self.c)
            if value > top:
                top, best = value, [i]
            elif value == top:
                best.append(i)
        return rng.choice(best)

    def iterate(self, should_stop: Callable[[], bool] = lambda: False) -> bool:
        """One iteration; False when it was dropped (stopped, or the root moved).

        A dropped iteration leaves no trace: its new node is linked into the tree
        only with its back-up, and the k-th iteration from a root draws its random
        numbers from a generator seeded by (seed, root number, k), so a search with
        an iteration budget makes the same choices however often it is paused."""
        with self._lock:
            generation, node = self._generation, self._root
            rng = random.Random((self.seed * 1_000_003 + generation) * 1_000_003
                                + self.iterations)
        if node.rewards is not None:
            return False
        path: list[tuple[Node, tuple[int, ...]]] = []
        line: list[str] = []
        added: Node | None = None
        state: ProverState | None = None  # the playout's own copy
        rewards: tuple[float, ...] | None = None
        while True:  # descent: the tree's states, no prover step until a new node
            if node.rewards is not None:
                rewards = node.rewards
                break
            if should_stop():
                return False
            joint = tuple(self._choose(node, r, rng) for r in range(len(node.moves)))
            texts = node.joint_texts(joint)
            path.append((node, joint))
            line.append(texts[0])
            child = node.children.get(joint)
            if child is not None:
                node = child
                continue
            state = node.state.copy()
            state.play_joint(texts)
            if self.nodes < self.max_nodes:  # else: sample without expanding
                added = Node(state)
                rewards = added.rewards
            break
        plies = 0
        while rewards is None and state is not None:  # random playout
            if state.is_terminal():
                rewards = state.rewards()
                break
            if plies >= self.max_plies:  # goals are undefined here: nobody scores
                rewards = (0.0,) * self.game.n_roles
                break
            if should_stop():
                return False
            texts = [rng.choice(state.rule_moves(r)) for r in range(self.game.n_roles)]
            state.play_joint(texts)
            line.append(texts[0])
            plies += 1
        if rewards is None:
            return False
        with self._lock:
            if generation != self._generation:
                return False
            if added is not None:
                last, joint = path[-1]
                last.children[joint] = added
                self.nodes += 1
            for tree_node, joint in path:  # back-up: each role's reward to its move
                for role, i in enumerate(joint):
                    tree_node.visits[role][i] += 1
                    tree_node.totals[role][i] += rewards[role]
            if self.puzzle:
                self.line.offer(rewards[0], line)
            self.iterations += 1
            self.total_iterations += 1
        return True

    # -- root (any thread) ------------------------------------------------------------

    def advance(self, joint: Sequence[str]) -> None:
        """Play a joint move (texts, one per role) at the root; the subtree below it
        is kept.  IllegalMoveError when a move is not legal.  The prover steps run
        outside the lock, so readers (``best_move``) never wait for them."""
        with self._lock:
            root = self._root
        state = root.state.copy()
        state.play_joint(list(joint))  # raises before anything changes
        texts = [state.parse_move(t) for t in joint]
        child = None
        if root.rewards is None:
            child = root.children.get(tuple(root.moves[r].index(t)
                                            for r, t in enumerate(texts)))
        if child is None:
            child = Node(state)
        nodes = _count(child)
        with self._lock:
            if self._root is not root:
                raise StateError("the root moved during advance (one advancer at a time)")
            self._root = child
            self.nodes = nodes
            self._generation += 1
            self.iterations = 0
            if self.puzzle:
                self.line.advance(texts[0])

    @property
    def state(self) -> ProverState:
        return self._root.state.copy()

    def is_terminal(self) -> bool:
        return self._root.rewards is not None

    def root_visits(self, role: int) -> dict[str, tuple[int, float]]:
        """Each root move of ``role``: (visits, mean reward)."""
        with self._lock:
            root = self._root
            if root.rewards is not None:
                return {}
            return {m: (n, t / n if n else 0.0) for m, n, t in zip(
                root.moves[role], root.visits[role], root.totals[role], strict=True)}

    def best_move(self, role: int) -> str | None:
        """The move to play for ``role``: in puzzles the best line's first move while
        its goal is at least the best mean; else the most visited (ties: higher
        mean).  None before any iteration."""
        stats = self.root_visits(role)
        if not stats or max(n for n, _ in stats.values()) == 0:
            with self._lock:
                first = self.line.moves[0] if self.puzzle and self.line.moves else None
            return first
        if self.puzzle:
            with self._lock:
                goal, line = self.line.goal, list(self.line.moves)
            if line and line[0] in stats and goal >= max(m for _, m in stats.values()):
                return line[0]
        return max(stats, key=lambda m: stats[m])


def _count(node: Node) -> int:
    """Nodes in the tree below ``node`` (itself included)."""
    total, stack = 0, [node]
    while stack:
        n = stack.pop()
        total += 1
        stack.extend(n.children.values())
    return total


def search_move(game: ProverGame, state: ProverState, role: int, iterations: int, *,
                c: float = DEFAULT_C, seed: int = 0) -> str:
    """The move ``iterations`` iterations of the prover search choose for ``role``
    (a one-shot helper for tools and tests)."""
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise InvalidArgumentError(f"iterations must be a positive int, not {iterations!r}")
    search = ProverSearch(game, state, c=c, seed=seed)
    for _ in range(iterations):
        search.iterate()
    move = search.best_move(role)
    if move is None:
        raise MiaiError("the prover search found no move")
    return move
