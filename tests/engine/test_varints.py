"""The counts' varints read back exactly what was written."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pegboard.engine.varints import Reader, put_block, put_ints, put_text

counts = st.integers(min_value=0, max_value=2**40)
triples = st.lists(st.tuples(st.integers(0, 130), st.integers(0, 130), counts), max_size=40)


@given(st.lists(counts, max_size=20), st.text(max_size=20), triples)
def test_what_is_written_reads_back(
    values: list[int], text: str, block: list[tuple[int, int, int]]
) -> None:
    ordered = sorted(block)
    out = bytearray()
    put_ints(out, *values)
    put_text(out, text)
    put_block(out, ordered)
    reader = Reader(bytes(out))
    assert reader.ints(len(values)) == values
    assert reader.text() == text
    assert reader.block() == tuple(ordered)
    assert reader.at == len(out)


def test_a_small_number_is_one_byte_and_a_large_one_is_seven_bits_a_byte() -> None:
    out = bytearray()
    put_ints(out, 5, 300)
    assert bytes(out) == bytes([5, 300 & 0x7F | 0x80, 300 >> 7])
