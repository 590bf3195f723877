"""The strategy board: every strategy's score as if it had been played, and the best one per
window.

Each round every selectable strategy earns +1, 0 or -1 (kept as reward + 1) by what its
half expected and what the opponent played. The board keeps one packed integer of
cumulative scores (a field of :mod:`roshambo.engine.kernel` per strategy) and a ring of past
totals, so that a window's scores are one subtraction away and its best strategy one
knockout over all fields at once; since the best mostly stays the best, last round's
winner is first checked against every field.

A field's sort key, from its top bits down: the window's score, the longest window's score
(ties go to the longer record), the winning streak, and the strategy's position reversed
(so the largest key is unique and names the first strategy among equals). A silent best
gives way to the best strategy that speaks when that one is level with it or clearly beats
a coin: by more than 2 sqrt(n) over the window's n rounds (a coin's record has a standard
deviation of sqrt(2n / 3)). Naive strategies (k = 0) start with a small credit that the
sliding windows soon forget (Occam). The board also keeps, over the opening, each
strategy's accuracy (how often the move it expects is played), which caution reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import chain, repeat

from .kernel import PackedFields
from .lineup import LineUp
from .moves import NO_MOVE, Move

FIELD_BITS = 56  # a strategy's packed field (the keys need 50 bits)
STREAK_BITS = 20  # winning streaks are kept below 2 ** 20 rounds
# a run of fields, for the tables below: each half's part is three fields, looked up by what
# it expected and concatenated into the packed scores in one pass (see gather)
SEGMENTS = PackedFields(FIELD_BITS, 3)
GUARD = SEGMENTS.guard_bit  # packed fields stay below their top bit
FIELD_ONES = SEGMENTS.mask  # a field of all ones

Parts = tuple[Callable[[Move | None], bytes], Callable[[Move | None], bytes]]


def _packed(*fields: int) -> bytes:
    return SEGMENTS.segment(fields)


def _sides(table: tuple[bytes, ...]) -> Parts:
    """Look-ups of ``table`` (indexed by the opponent move a half expects, a silent half's
    part last) by what the halves' predictors said: a direct half expects the move its
    predictor names, a mirrored one the move that beats our predicted move."""
    direct: dict[Move | None, bytes] = {e: table[e] for e in range(3)}
    mirrored: dict[Move | None, bytes] = {q: table[(q + 1) % 3] for q in range(3)}
    direct[None] = mirrored[None] = table[NO_MOVE]
    return direct.__getitem__, mirrored.__getitem__


def gather(parts: Parts, direct: list[Move | None], mirrored: list[Move | None], idle: int) -> int:
    """One packed integer of every half's part: the working direct halves', the working
    mirrored ones', then ``idle`` silent halves' parts."""
    of_direct, of_mirrored = parts
    return SEGMENTS.joined(
        chain(map(of_direct, direct), map(of_mirrored, mirrored), repeat(of_direct(None), idle))
    )


# PATTERN[d]: (reward + 1) of strategies k = 0, 1, 2 when the opponent played e + d, with e
# the half's expected move: k = d wins (+1), k = d + 1 loses (-1), k = d + 2 ties (0).
PATTERN = tuple(_packed(*((2, 0, 1)[(k - d) % 3] for k in range(3))) for d in range(3))
SILENT = _packed(1, 1, 1)  # a half without a prediction earns 0 with all three
# ACCURACY[d]: per strategy k = 0, 1, 2 of a half, 3 when the opponent played e + d (the move
# strategy k expects when k = d), else 0; a silent half adds 1 to all three. A field then
# holds 3 * (rounds its expectation was right) + (rounds it was silent), which is twice the
# accuracy record plus the number of rounds: the same offset for every strategy.
ACCURACY = tuple(_packed(*(3 if k == d else 0 for k in range(3))) for d in range(3))
# BELIEVERS[b]: a field of all ones where strategy k of a half expecting e expects b
BELIEVERS = tuple(
    _sides(
        tuple(_packed(*(FIELD_ONES if (e + k) % 3 == b else 0 for k in range(3))) for e in range(3))
        + (_packed(0, 0, 0),)
    )
    for b in range(3)
)
# SPEAKING: all ones in the three fields of a half that expects a move, zeros if it is silent
SPEAKING = _sides((_packed(FIELD_ONES, FIELD_ONES, FIELD_ONES),) * 3 + (_packed(0, 0, 0),))


def _by_their_move(table: tuple[bytes, ...]) -> tuple[Parts, ...]:
    """``table[d]`` (d: their move minus the expected one), per their move, looked up by
    each half's prediction (a silent half's part is ``SILENT``)."""
    return tuple(
        _sides(tuple(table[(theirs - e) % 3] for e in range(3)) + (SILENT,)) for theirs in range(3)
    )


class StrategyBoard:
    """The scores of ``lineup``'s strategies over sliding ``windows`` of rounds."""

    def __init__(self, lineup: LineUp, windows: tuple[int, ...], naive_prior: int) -> None:
        self._lineup = lineup
        self.windows = windows
        self.naive_prior = naive_prior
        strategies = self.strategies = lineup.strategies
        n = len(lineup.factories)
        # the idle halves are always silent, so their strategies' keys differ only by
        # position and naive credit: the first idle half's k = 0 (selectable ones first)
        # outranks every other idle strategy in every window, and that half alone is kept
        # for them all (a quarter of the fields fewer; the bests are the same)
        working = len(lineup.slots) - lineup.idle
        idle = lineup.slots[working:]
        slots = list(lineup.slots[:working])
        if idle:
            slots.append(min(idle, key=lambda h: (6 * h[0] >= strategies, 2 * h[0] + h[1])))
        self._idle = len(slots) - working  # the silent halves gathered: none or one
        # strategy s = 6 i + 3 m + k sits in the three fields of its half's slot (an idle
        # half's in the kept idle half's)
        slot = {half: position for position, half in enumerate(slots)}
        kept = [(i, m) in slot for i in range(n) for m in range(2) for _ in range(3)]
        fields = [
            3 * slot.get((i, m), len(slots) - 1) + k
            for i in range(n)
            for m in range(2)
            for k in range(3)
        ]
        self._field_of = tuple(fields)
        board = self._fields = PackedFields(FIELD_BITS, 3 * len(slots))
        # only selectable strategies are scored (the others' keys stay 0, never compared)
        self._selectable = board.pack(
            board.mask if field in fields[:strategies] else 0 for field in range(board.count)
        )
        # a window's field holds at most 2 per round plus the credit: ``shift`` bits
        self._span = max(windows) + 1
        self._shift = (2 * self._span + naive_prior).bit_length()
        self._index_bits = max(1, (strategies - 1).bit_length())
        if 2 * self._shift + STREAK_BITS + self._index_bits > GUARD:
            raise ValueError(f"invalid windows {windows!r}: the longest is too long to pack")
        positions = [0] * board.count
        for s, f in enumerate(fields[:strategies]):
            if kept[s]:
                positions[f] = strategies - 1 - s
        self._positions = board.pack(positions)
        # scores are kept where a key holds them, shifted up past the key's lower parts, so
        # that a window's keys are one subtraction away
        self._key_shift = self._shift + STREAK_BITS + self._index_bits
        credits = [naive_prior if k == 0 else 0 for _ in slots for k in range(3)]
        self._prior = (board.pack(credits) & self._selectable) << self._key_shift
        self._patterns = _by_their_move(PATTERN)
        self._accuracy_patterns = _by_their_move(ACCURACY)
        self._streak_step = board.ones << self._index_bits  # one more round of every streak
        self.reset()

    def reset(self) -> None:
        self.rounds = 0
        self._total = self._prior  # packed cumulative (reward + 1), shifted by key_shift
        self._streaks = 0  # packed winning streaks, where a key holds them
        self._ring: list[int] = [self._prior] * self._span  # past totals, by round mod span
        self._winners: list[int] = [-1] * len(self.windows)  # last winners' fields per window
        self._accuracy = 0  # packed accuracy records (see ACCURACY)

    def record(
        self, theirs: Move, direct: list[Move | None], mirrored: list[Move | None], accuracy: bool
    ) -> None:
        """Score every strategy on the round (what its half said, and ``theirs``); with
        ``accuracy``, the accuracy records too."""
        idle = self._idle
        if accuracy:
            self._accuracy += gather(self._accuracy_patterns[theirs], direct, mirrored, idle)
        rewards = gather(self._patterns[theirs], direct, mirrored, idle) & self._selectable
        self.rounds += 1
        self._total += rewards << self._key_shift
        if self.rounds % (1 << (STREAK_BITS - 1)) == 0:
            self._streaks = 0  # keep every streak below 2 ** STREAK_BITS
        # a strategy won where its field holds 2 (bit 1): all ones there, zeros elsewhere
        won = self._fields.filled(self._fields.bit_flags(rewards, 1))
        self._streaks = (self._streaks + self._streak_step) & won
        self._ring[self.rounds % self._span] = self._total

    def bests(self, direct: list[Move | None], mirrored: list[Move | None]) -> list[int]:
        """The best strategy of every window (see the module docstring)."""
        rounds, total, ring, span = self.rounds, self._total, self._ring, self._span
        longest = span - 1
        expects = self._lineup.expects
        index_bits = self._index_bits
        # the longest window's score fits between a key's score and its streak
        tiebreak = total if longest >= rounds else total - ring[(rounds - longest) % span]
        tiebreak = tiebreak >> self._shift | self._streaks | self._positions
        whole = total + tiebreak  # the keys of a window as long as the match
        board = self._fields
        last = self.strategies - 1
        index_mask = (1 << index_bits) - 1
        speaking = 0  # fields of all ones where the strategy speaks, gathered if needed
        records = STREAK_BITS + index_bits  # a key shifted by this: the two scores
        winners = self._winners
        bests = []
        for a, window in enumerate(self.windows):
            keys = whole if window >= rounds else whole - ring[(rounds - window) % span]
            winner = winners[a]  # usually still leads: checked before a whole knockout
            top = board.field(keys, winner) if winner >= 0 else -1
            if top < 0 or not board.leads(top, keys):
                top = board.largest(keys)
            best = last - (top & index_mask)
            winners[a] = self._field_of[best]
            if expects(best) == NO_MOVE:  # a silent winner: the best speaking key, maybe
                if not speaking:
                    parts = gather(SPEAKING, direct, mirrored, self._idle)
                    speaking = parts & self._selectable
                rival = board.largest(keys & speaking)
                if rival:
                    strategy = last - (rival & index_mask)
                    if rival >> records == top >> records or self._beats_chance(
                        rival, strategy, window
                    ):
                        best = strategy
            bests.append(best)
        return bests

    def _beats_chance(self, key: int, strategy: int, window: int) -> bool:
        """Whether ``strategy``'s record over ``window`` (its ``key`` there) beats a coin's by
        more than 2 sqrt(n) over the window's n rounds, its naive credit aside."""
        seen = min(window, self.rounds)
        bar = seen + 2.0 * math.sqrt(seen)  # a key's score is the rounds seen plus the record
        if window >= self.rounds and strategy % 3 == 0:
            bar += self.naive_prior  # the window still holds the naive strategies' credit
        return key >> self._key_shift > bar

    def streak(self, strategy: int) -> int:
        """How many rounds running ``strategy`` has won."""
        return self._fields.field(self._streaks, self._field_of[strategy]) >> self._index_bits

    def best_accuracy(
        self, move: Move, direct: list[Move | None], mirrored: list[Move | None]
    ) -> int:
        """The best accuracy record among the strategies that expect ``move`` (twice the
        record plus the rounds: the same offset for all; 0 if none expects it)."""
        believers = gather(BELIEVERS[move], direct, mirrored, self._idle)
        return self._fields.largest(self._accuracy & self._selectable & believers)
