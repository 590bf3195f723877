"""The scoring kernel: the packed fields agree with their plain twin on random operation
sequences, and a bad layout is refused by name."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roshambo.engine.kernel import PackedFields, PlainFields

WIDTHS = (3, 8, 11, 16, 56)  # byte-sized ones (unpacked by array) and others (a knockout)


@st.composite
def layouts(draw: st.DrawFn) -> tuple[PackedFields, PlainFields]:
    width = draw(st.sampled_from(WIDTHS))
    count = draw(st.integers(min_value=1, max_value=70))
    return PackedFields(width, count), PlainFields(width, count)


def values(plain: PlainFields, top: list[int] | None = None) -> st.SearchStrategy[list[int]]:
    """A list of field values, each below the limit (below ``top``'s if given, plus one)."""
    if top is None:
        top = [plain.limit - 1] * plain.count
    return st.tuples(*(st.integers(min_value=0, max_value=t) for t in top)).map(list)


def list_of(packed: PackedFields, p: int) -> list[int]:
    return list(packed.unpack(p))


OPERATIONS = ("add", "sub", "decayed", "halved", "lowered", "spread", "joined", "pack", "shifted")


@settings(max_examples=200, deadline=None)
@given(st.data(), layouts())
def test_packed_fields_agree_with_their_plain_twin(
    data: st.DataObject, layout: tuple[PackedFields, PlainFields]
) -> None:
    packed, plain = layout
    state = data.draw(values(plain))
    p = packed.pack(state)
    assert list_of(packed, p) == plain.unpack(plain.pack(state)) == state
    for _ in range(data.draw(st.integers(min_value=1, max_value=12))):
        op = data.draw(st.sampled_from(OPERATIONS))
        if op == "add":  # a second operand that keeps every field below the limit
            other = data.draw(values(plain, [plain.limit - 1 - x for x in state]))
            p, state = packed.add(p, packed.pack(other)), plain.add(state, other)
        elif op == "sub":
            other = data.draw(values(plain, state))
            p, state = packed.sub(p, packed.pack(other)), plain.sub(state, other)
        elif op == "decayed":
            shift = data.draw(st.integers(min_value=1, max_value=packed.width - 1))
            p, state = packed.decayed(p, shift), plain.decayed(state, shift)
        elif op == "halved":
            p, state = packed.halved(p), plain.halved(state)
        elif op == "lowered":
            amount = data.draw(st.integers(min_value=0, max_value=plain.limit - 1))
            p, state = packed.lowered(p, amount), plain.lowered(state, amount)
        elif op == "spread":
            value = data.draw(st.integers(min_value=0, max_value=plain.limit - 1))
            p, state = packed.spread(value), plain.spread(value)
        elif op == "joined" and packed.width % 8 == 0:  # cut in two runs and put back together
            cut = data.draw(st.integers(min_value=0, max_value=plain.count))
            p = packed.joined([packed.segment(state[:cut]), packed.segment(state[cut:])])
            state = plain.joined([plain.segment(state[:cut]), plain.segment(state[cut:])])
        elif op == "shifted":
            places = data.draw(st.integers(min_value=0, max_value=plain.count + 1))
            p, state = packed.shifted(p, places), plain.shifted(state, places)
        elif op == "pack":  # a short list leaves the upper fields at 0
            state = data.draw(values(plain))[: data.draw(st.integers(0, plain.count))]
            p, state = packed.pack(state), plain.pack(state)
        assert list_of(packed, p) == plain.unpack(state), op
        # every reading of the new state agrees
        other = data.draw(values(plain))
        q = packed.pack(other)
        assert list_of(packed, packed.at_least(p, q)) == plain.at_least(state, other)
        assert list_of(packed, packed.low_flags(packed.at_least(p, q))) == plain.low_flags(
            plain.at_least(state, other)
        )
        assert list_of(packed, packed.zeros(p)) == plain.zeros(state)
        assert packed.first_set(packed.zeros(p)) == plain.first_set(plain.zeros(state))
        assert packed.first_set(packed.at_least(p, q)) == plain.first_set(
            plain.at_least(state, other)
        )
        bit = data.draw(st.integers(min_value=0, max_value=packed.width - 2))
        assert list_of(packed, packed.bit_flags(p, bit)) == plain.bit_flags(state, bit)
        assert list_of(packed, packed.filled(packed.zeros(p))) == plain.filled(plain.zeros(state))
        assert list_of(packed, packed.guard_flags(packed.zeros(p))) == plain.guard_flags(
            plain.zeros(state)
        )
        value = data.draw(st.integers(min_value=0, max_value=plain.limit - 1))
        assert packed.leads(value, p) == plain.leads(value, state)
        assert packed.largest(p) == plain.largest(state)
        assert packed.argmax(p) == plain.argmax(state)
        index = data.draw(st.integers(min_value=0, max_value=plain.count - 1))
        assert packed.field(p, index) == plain.field(state, index)
        assert packed.placed(value, index) == packed.pack(plain.placed(value, index))
        count = data.draw(st.integers(min_value=0, max_value=plain.count - index))
        assert packed.section(p, index, count) == packed.pack(plain.section(state, index, count))


def test_the_constants_are_the_plain_twins_lists() -> None:
    packed, plain = PackedFields(16, 5), PlainFields(16, 5)
    for name in ("ones", "guards", "below_guards", "full"):
        assert list_of(packed, getattr(packed, name)) == getattr(plain, name), name
    assert packed.limit == plain.limit == 1 << 15


@pytest.mark.parametrize(
    ("width", "count", "named"),
    [(1, 4, "width 1"), ("8", 4, "width '8'"), (8, 0, "count 0"), (8, 2.0, "count 2.0")],
)
def test_a_bad_layout_is_refused_by_name(width: object, count: object, named: str) -> None:
    for kind in (PackedFields, PlainFields):
        with pytest.raises(ValueError, match=named):
            kind(width, count)  # type: ignore[arg-type]
