"""The varints the win-probability counts are stored in (``odds.Model.to_bytes``).

Counts of deals are mostly small and sparse, so each number is a varint (seven bits a byte) and
each block of (row, column, n) triples is written as steps from the triple before.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["Reader", "put_block", "put_ints", "put_text"]


def put_ints(out: bytearray, *values: int) -> None:
    """Each of *values* (0 or more) as a varint: seven bits a byte, low bits first."""
    for value in values:
        while value >= 0x80:
            out.append(value & 0x7F | 0x80)
            value >>= 7
        out.append(value)


def put_text(out: bytearray, text: str) -> None:
    """*text* as UTF-8, after its length."""
    raw = text.encode()
    put_ints(out, len(raw))
    out += raw


def put_block(out: bytearray, triples: Sequence[tuple[int, int, int]]) -> None:
    """Sorted (row, column, n) triples: each row and column as a step from the one before."""
    put_ints(out, len(triples))
    row = column = 0
    for r, c, n in triples:
        if r != row:
            column = 0
        put_ints(out, r - row, c - column, n)
        row, column = r, c


class Reader:
    """Reads back what ``put_ints``, ``put_text`` and ``put_block`` wrote, in order."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def ints(self, count: int) -> list[int]:
        values = []
        data, at = self.data, self.at
        for _ in range(count):
            value = shift = 0
            while True:
                byte = data[at]
                at += 1
                value |= (byte & 0x7F) << shift
                shift += 7
                if byte < 0x80:
                    break
            values.append(value)
        self.at = at
        return values

    def text(self) -> str:
        (size,) = self.ints(1)
        raw = self.data[self.at : self.at + size]
        self.at += size
        return raw.decode()

    def block(self) -> tuple[tuple[int, int, int], ...]:
        (count,) = self.ints(1)
        flat = self.ints(3 * count)
        triples = []
        row = column = 0
        for i in range(0, 3 * count, 3):
            step, jump, n = flat[i], flat[i + 1], flat[i + 2]
            if step:
                column = 0
            row += step
            column += jump
            triples.append((row, column, n))
        return tuple(triples)
