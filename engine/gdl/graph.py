"""Graph walks of the GDL pipeline: the nodes reachable from some starts, and strongly
connected components (Tarjan's algorithm, iterative so deep graphs cannot overflow
Python's stack), in dependency order."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

N = TypeVar("N", bound=Hashable)


def reachable(starts: Iterable[N], succ: Callable[[N], Iterable[N]]) -> set[N]:
    """The starts and every node reachable from them."""
    seen: set[N] = set()
    todo = list(starts)
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(succ(n))
    return seen


def strongly_connected(nodes: Sequence[N], succ: Callable[[N], Iterable[N]]) -> list[list[N]]:
    """SCCs of the graph; a component comes after every component it has an edge to
    (so with ``succ`` = "depends on", dependencies come first)."""
    index: dict[N, int] = {}
    low: dict[N, int] = {}
    on_stack: set[N] = set()
    stack: list[N] = []
    out: list[list[N]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[N, Iterable[N]]] = []
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work.append((root, iter(succ(root))))
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(succ(w))))
                    advanced = True
                    break
                if w in on_stack and index[w] < low[v]:
                    low[v] = index[w]
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[v] < low[parent]:
                    low[parent] = low[v]
            if low[v] == index[v]:
                comp: list[N] = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out
