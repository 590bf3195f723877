"""Packed fields: many small counters in one Python integer, worked on all at once.

Field i of a packed integer is bits ``width * i`` to ``width * (i + 1) - 1``. A field's top
bit is its guard: values stay below ``2 ** (width - 1)``, so that a field-wise comparison
can set the guard bit, subtract, and read the guard back without borrowing from the next
field. Adding or subtracting two packed integers with ``+`` and ``-`` is field-wise as long
as no field leaves ``[0, 2 ** (width - 1))``; :meth:`PackedFields.add` and
:meth:`PackedFields.sub` name those operations for the plain twin's sake.

Flags are packed integers too: *guard flags* hold a field's guard bit (what a comparison
returns), *low flags* its lowest bit (``zeros``, masks to multiply by); ``&``, ``|`` and
``^`` combine flags of one kind. :class:`roshambo.engine.kernel.plain.PlainFields` does the same on
lists, one element a field: it is this module's specification, and a property test replays
random operation sequences on both.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Sequence

# array type codes by field width in bits, for unpacking by the C loop of array()
_ARRAY_CODES = {8: "B", 16: "H", 32: "I" if array("I").itemsize == 4 else "L", 64: "Q"}


def check_layout(width: object, count: object) -> tuple[int, int]:
    """``width`` and ``count`` as a layout of fields, or a ``ValueError`` naming the bad one."""
    if type(width) is not int or width < 2:
        raise ValueError(f"invalid width {width!r}: expected at least 2 bits a field")
    if type(count) is not int or count < 1:
        raise ValueError(f"invalid count {count!r}: expected at least one field")
    return width, count


class PackedFields:
    """``count`` fields of ``width`` bits in one integer (see the module docstring)."""

    def __init__(self, width: int, count: int) -> None:
        self.width, self.count = check_layout(width, count)
        self.guard_bit = width - 1
        self.limit = 1 << self.guard_bit  # every field stays below this
        self.mask = (1 << width) - 1  # one field, all ones
        self.ones = sum(1 << (width * i) for i in range(count))  # 1 in every field
        self.guards = self.ones << self.guard_bit  # every field's guard bit
        self.below_guards = self.ones * (self.limit - 1)  # every bit but the guards
        self.full = (1 << (width * count)) - 1
        self._bytes = width // 8 if width % 8 == 0 else 0  # bytes a field, if whole
        self._code = _ARRAY_CODES.get(width)
        self._rounds = self._knockout_rounds()

    def __repr__(self) -> str:
        return f"PackedFields(width={self.width}, count={self.count})"

    def __eq__(self, other: object) -> bool:
        """Layouts are values: equal when their width and count are."""
        if not isinstance(other, PackedFields):
            return NotImplemented
        return (self.width, self.count) == (other.width, other.count)

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.width, self.count))

    # building and reading

    def pack(self, values: Iterable[int]) -> int:
        """The packed integer of ``values`` (field 0 first), each in ``[0, limit)``."""
        packed, shift, width = 0, 0, self.width
        for value in values:
            packed |= value << shift
            shift += width
        return packed

    def unpack(self, packed: int) -> Sequence[int]:
        """Every field of ``packed``, field 0 first (an ``array`` where it can be one)."""
        if self._code is not None:
            fields = array(self._code, packed.to_bytes(self._bytes * self.count, "little"))
            if sys.byteorder == "big":
                fields.byteswap()
            return fields
        width, mask = self.width, self.mask
        return [(packed >> (width * i)) & mask for i in range(self.count)]

    def field(self, packed: int, index: int) -> int:
        """Field ``index`` of ``packed``."""
        return (packed >> (self.width * index)) & self.mask

    def placed(self, value: int, index: int) -> int:
        """``value`` in field ``index``, every other field 0."""
        return value << (self.width * index)

    def section(self, packed: int, start: int, count: int) -> int:
        """Fields ``start`` to ``start + count - 1`` of ``packed``, as fields 0 to count - 1."""
        return (packed >> (self.width * start)) & ((1 << (self.width * count)) - 1)

    def spread(self, value: int) -> int:
        """``value`` in every field."""
        return value * self.ones

    def segment(self, values: Iterable[int]) -> bytes:
        """A run of fields (field widths a whole number of bytes) for :meth:`joined`: the
        parts of a packed integer looked up from tables and concatenated in one pass."""
        size = self._bytes
        return b"".join(value.to_bytes(size, "little") for value in values)

    def joined(self, segments: Iterable[bytes]) -> int:
        """The packed integer of ``segments`` (see :meth:`segment`), the first lowest."""
        return int.from_bytes(b"".join(segments), "little")

    def shifted(self, packed: int, places: int) -> int:
        """Every field moved ``places`` fields up (field i to i + places), the lowest
        ``places`` fields 0 and those moved past the last dropped."""
        return (packed << (self.width * places)) & self.full

    # arithmetic, field by field

    def add(self, a: int, b: int) -> int:
        """Field-wise a + b (no field may reach ``limit``)."""
        return a + b

    def sub(self, a: int, b: int) -> int:
        """Field-wise a - b (no field of b may exceed a's)."""
        return a - b

    def decayed(self, packed: int, shift: int) -> int:
        """Field-wise x - (x >> shift): a decay by ``2 ** -shift``, rounded up."""
        return packed - ((packed >> shift) & (self.ones * ((1 << (self.width - shift)) - 1)))

    def halved(self, packed: int) -> int:
        """Field-wise x >> 1."""
        return (packed >> 1) & self.below_guards

    def lowered(self, packed: int, amount: int) -> int:
        """Field-wise max(0, x - amount), ``amount`` below ``limit``: where the guard bit
        survives the subtraction, the field was at least ``amount``."""
        guarded = (packed | self.guards) - amount * self.ones
        return guarded & (((guarded >> self.guard_bit) & self.ones) * (self.limit - 1))

    # comparisons and flags

    def at_least(self, a: int, b: int) -> int:
        """Guard flags where a's field is at least b's."""
        guards = self.guards
        return ((a | guards) - b) & guards

    def leads(self, value: int, packed: int) -> bool:
        """Whether ``value`` is at least every field of ``packed``."""
        guards = self.guards
        return ((value * self.ones | guards) - packed) & guards == guards

    def zeros(self, packed: int) -> int:
        """Low flags where the field is 0."""
        guards = self.guards
        return (guards ^ (((packed | guards) - self.ones) & guards)) >> self.guard_bit

    def bit_flags(self, packed: int, bit: int) -> int:
        """Low flags where bit ``bit`` of the field is set."""
        return (packed >> bit) & self.ones

    def first_set(self, flags: int) -> int:
        """The index of the lowest field with a flag (of either kind) set, -1 if none is."""
        return ((flags & -flags).bit_length() - 1) // self.width if flags else -1

    def low_flags(self, guard_flags: int) -> int:
        """Guard flags moved to the fields' lowest bits."""
        return guard_flags >> self.guard_bit

    def guard_flags(self, low_flags: int) -> int:
        """Low flags moved to the fields' guard bits."""
        return low_flags << self.guard_bit

    def filled(self, low_flags: int) -> int:
        """Low flags widened to whole fields of ones (what masks a field-wise selection)."""
        return low_flags * self.mask

    # the largest field

    def largest(self, packed: int) -> int:
        """The largest field's value. Unpacked by ``array`` where a field is 8 to 64 bits,
        else by a knockout: each round pits the upper half of the fields against the lower
        half, and ``upper - lower`` with the guard bits set keeps, where the guard survives,
        the difference that lifts the lower field to the upper one."""
        if self._code is not None:
            return max(self.unpack(packed))
        guard_bit = self.guard_bit
        for bits, low, guards in self._rounds:
            upper = packed >> bits
            packed &= low
            difference = (upper | guards) - packed
            wins = difference & guards
            packed += difference & (wins - (wins >> guard_bit))
        return packed

    def argmax(self, packed: int) -> int:
        """The index of the largest field, the first among equals."""
        fields = self.unpack(packed)
        return fields.index(max(fields))

    def _knockout_rounds(self) -> tuple[tuple[int, int, int], ...]:
        rounds = []
        fields = self.count
        while fields > 1:
            low = (fields + 1) // 2  # the lower half; the upper one has ``fields - low``
            bits = self.width * low
            rounds.append((bits, (1 << bits) - 1, self.guards & ((1 << bits) - 1)))
            fields = low
        return tuple(rounds)
