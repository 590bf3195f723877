"""The plain twin of :class:`roshambo.engine.kernel.packed.PackedFields`: one list element a field.

Every operation has the packed one's name, arguments and meaning, on lists instead of
packed integers; a property test (tests/test_kernel.py) replays random operation sequences
on both and compares them field by field. Read this to know what a packed operation does.
"""

from __future__ import annotations

from collections.abc import Iterable

from .packed import check_layout

Fields = list[int]


class PlainFields:
    """``count`` fields of ``width`` bits, as a list (see :class:`PackedFields`)."""

    def __init__(self, width: int, count: int) -> None:
        self.width, self.count = check_layout(width, count)
        self.guard_bit = width - 1
        self.limit = 1 << self.guard_bit
        self.mask = (1 << width) - 1
        self.ones = [1] * count
        self.guards = [self.limit] * count
        self.below_guards = [self.limit - 1] * count
        self.full = [self.mask] * count

    def __eq__(self, other: object) -> bool:
        """Layouts are values: equal when their width and count are."""
        if not isinstance(other, PlainFields):
            return NotImplemented
        return (self.width, self.count) == (other.width, other.count)

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.width, self.count))

    def pack(self, values: Iterable[int]) -> Fields:
        fields = list(values)
        return fields + [0] * (self.count - len(fields))

    def unpack(self, packed: Fields) -> list[int]:
        return list(packed)

    def field(self, packed: Fields, index: int) -> int:
        return packed[index]

    def placed(self, value: int, index: int) -> Fields:
        return [value if i == index else 0 for i in range(self.count)]

    def section(self, packed: Fields, start: int, count: int) -> Fields:
        return self.pack(packed[start : start + count])

    def spread(self, value: int) -> Fields:
        return [value] * self.count

    def segment(self, values: Iterable[int]) -> Fields:
        return list(values)

    def joined(self, segments: Iterable[Fields]) -> Fields:
        return self.pack(value for segment in segments for value in segment)

    def shifted(self, packed: Fields, places: int) -> Fields:
        return ([0] * places + list(packed))[: self.count]

    def add(self, a: Fields, b: Fields) -> Fields:
        return [x + y for x, y in zip(a, b)]

    def sub(self, a: Fields, b: Fields) -> Fields:
        return [x - y for x, y in zip(a, b)]

    def decayed(self, packed: Fields, shift: int) -> Fields:
        return [x - (x >> shift) for x in packed]

    def halved(self, packed: Fields) -> Fields:
        return [x // 2 for x in packed]

    def lowered(self, packed: Fields, amount: int) -> Fields:
        return [max(0, x - amount) for x in packed]

    def at_least(self, a: Fields, b: Fields) -> Fields:
        return [self.limit if x >= y else 0 for x, y in zip(a, b)]

    def leads(self, value: int, packed: Fields) -> bool:
        return all(value >= x for x in packed)

    def zeros(self, packed: Fields) -> Fields:
        return [1 if x == 0 else 0 for x in packed]

    def bit_flags(self, packed: Fields, bit: int) -> Fields:
        return [(x >> bit) & 1 for x in packed]

    def first_set(self, flags: Fields) -> int:
        return next((i for i, x in enumerate(flags) if x), -1)

    def low_flags(self, guard_flags: Fields) -> Fields:
        return [1 if x else 0 for x in guard_flags]

    def guard_flags(self, low_flags: Fields) -> Fields:
        return [self.limit if x else 0 for x in low_flags]

    def filled(self, low_flags: Fields) -> Fields:
        return [self.mask if x else 0 for x in low_flags]

    def largest(self, packed: Fields) -> int:
        return max(packed)

    def argmax(self, packed: Fields) -> int:
        return packed.index(max(packed))
