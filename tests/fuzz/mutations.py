"""Valid input mutated, the hypothesis strategy every decoder's fuzz test draws from."""

from __future__ import annotations

from hypothesis import strategies as st

# A byte set to an extreme: a length or count field grown or shrunk, a sign bit, a NUL.
EXTREMES = (0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF)


@st.composite
def mutated(draw: st.DrawFn, valid: st.SearchStrategy[bytes], extremes: tuple[int, ...] = EXTREMES) -> bytes:
    """Valid bytes, then a few of: bit flips, a cut, a splice of random bytes, a byte set to one of
    ``extremes``, a duplicated or dropped span."""
    data = bytearray(draw(valid))
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["flip", "cut", "splice", "extreme", "dup", "drop"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "cut":
            del data[at:]
        elif kind == "splice":
            data[at:at] = draw(st.binary(max_size=16))
        elif kind == "extreme" and data:
            data[at] = draw(st.sampled_from(extremes))
        elif kind == "dup":
            data[at:at] = data[at:at + draw(st.integers(1, 32))]
        elif kind == "drop":
            del data[at:at + draw(st.integers(1, 8))]
    return bytes(data)
