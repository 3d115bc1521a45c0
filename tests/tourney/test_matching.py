"""The blossom matching finds a largest matching: checked against every matching of small
random graphs."""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.tourney.matching import largest_matching


def largest_by_search(n: int, edges: frozenset[tuple[int, int]]) -> int:
    """The size of a largest matching, by trying every one (small graphs only)."""

    @functools.cache
    def best(free: frozenset[int]) -> int:
        if not free:
            return 0
        v = min(free)
        rest = free - {v}
        options = [best(rest)]
        options += [1 + best(rest - {u}) for u in rest if (min(u, v), max(u, v)) in edges]
        return max(options)

    return best(frozenset(range(n)))


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, frozenset[tuple[int, int]]]:
    n = draw(st.integers(0, 11))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    return n, frozenset(chosen)


@settings(max_examples=400, deadline=None)
@given(graphs())
def test_the_matching_is_a_largest_one(graph: tuple[int, frozenset[tuple[int, int]]]) -> None:
    n, edges = graph
    adjacent: list[list[int]] = [[] for _ in range(n)]
    for i, j in sorted(edges):
        adjacent[i].append(j)
        adjacent[j].append(i)
    partner = largest_matching(adjacent)
    for v, u in enumerate(partner):
        if u != -1:
            assert partner[u] == v and (min(u, v), max(u, v)) in edges
    assert sum(u != -1 for u in partner) // 2 == largest_by_search(n, edges)


def test_an_odd_cycle_is_matched_through_its_blossom() -> None:
    # a five-cycle 0-1-2-3-4 with a tail 0-5: the greedy start takes 0-1 and 2-3 and leaves
    # 4 and 5 out, and the only path that seats them runs round the odd cycle
    five_cycle_with_tail = [[1, 4, 5], [0, 2], [1, 3], [2, 4], [3, 0], [0]]
    partner = largest_matching(five_cycle_with_tail)
    assert sum(u != -1 for u in partner) // 2 == 3
