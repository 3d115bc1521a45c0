"""A largest matching of a graph (Edmonds' blossom algorithm, cardinality only).

The seating uses it to find a round's pairs: the players are the vertices, an edge joins two who
have not met yet, so a largest matching seats the most tables without a repeat, and every
player it leaves out must meet someone again. A greedy draw can paint itself into a corner (the
last four players all met each other) where another draw would not; the blossom algorithm
cannot: it finds the largest matching there is, in O(n^3), which for a club's sixty players
is a few milliseconds.

>>> largest_matching([[1], [0, 2], [1, 3], [2]])
[1, 0, 3, 2]
>>> largest_matching([[1, 2], [0, 2], [0, 1]]).count(-1)
1
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

__all__ = ["largest_matching"]


def largest_matching(adjacent: Sequence[Sequence[int]]) -> list[int]:
    """For each vertex its partner in a largest matching of the graph, or -1 if unmatched.

    *adjacent* lists each vertex's neighbours (the graph is undirected: ``j in adjacent[i]``
    exactly when ``i in adjacent[j]``). Vertices are tried in their order, neighbours in the
    order given, so a shuffled graph gives a shuffled matching of the same size.
    """
    n = len(adjacent)
    match = [-1] * n
    for v in range(n):  # a greedy start: the search below only has to improve on it
        if match[v] == -1:
            for w in adjacent[v]:
                if match[w] == -1 and w != v:
                    match[v], match[w] = w, v
                    break
    for root in range(n):
        if match[root] == -1:
            _augment(adjacent, match, root)
    return match


def _augment(adjacent: Sequence[Sequence[int]], match: list[int], root: int) -> None:
    """Grow an alternating tree from the free vertex *root*; flip the path to a free vertex
    if there is one (the matching then has one more edge)."""
    n = len(adjacent)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, stop: int, child: int, blossom: list[bool]) -> None:
        while base[v] != stop:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while queue:
        v = queue.popleft()
        for to in adjacent[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                # an odd cycle: shrink it into its base and search on from every vertex in it
                stop = common_base(v, to)
                blossom = [False] * n
                mark(v, stop, to, blossom)
                mark(to, stop, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = stop
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    while to != -1:  # flip the path back to the root
                        before = parent[to]
                        after = match[before]
                        match[to], match[before] = before, to
                        to = after
                    return
                used[match[to]] = True
                queue.append(match[to])
