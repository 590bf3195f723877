"""Counting windows: which window of a side's recent moves an opponent counts, and how.

An opponent that beats the most (or the least) frequent of our last N moves can use any N.
Rather than one predictor per window, this one follows every window from 1 to ``max_window``
at once: a side's counts over all those windows are packed into one big integer per move (a
field per window), kept up to date in O(1) big-integer operations a round (the last N moves
are the new one and the last N - 1 before it, so every field takes the next smaller window's
count, one field up, plus the new move). Every round it checks, for all windows at once,
whether the opponent's move beat a move leading (or trailing) that window's counts, ties
included, and keeps a decayed score of those hits per window and target. It follows the
best-scoring window and target; where that window's counts tie, it learns which of the tied
moves the opponent picks, keyed by the order in which the moves present entered the window
and by which tied move was seen last (a fixed order, the first seen as
``Counter.most_common`` has it, the last seen, or a ``set``'s order), backing off to the
order in which the tied moves alone entered it, then to the tied moves alone, until a finer
context is seen (as prediction by partial matching does, Cleary & Witten 1984). Billings
1999, the "freqbot" family, with the window, the target and the tie rule left open; packed
fields as in the ensemble's scores.
"""
from __future__ import annotations

import sys
from array import array

from ..moves import Move
from .base import WorksInOneHalf, check_half, check_positive, check_source

FIELD = 16  # bits a window's field takes: counts and scores stay under 2 ** 15
GUARD_BIT = FIELD - 1
HIT = 1 << 10  # a hit's weight in the decayed score
DECAY_SHIFT = 4  # the score decays by 1/16 a round: about the last 16 rounds count
MOST, LEAST = 0, 1
# TIED[mask]: the moves whose bit is set in mask, in order
TIED = tuple(tuple(m for m in range(3) if mask >> m & 1) for mask in range(8))


class CountingWindows(WorksInOneHalf):
    """Predict their move as a reaction to the leading (or trailing) moves of one side's
    last N moves, for whichever N from 1 to ``max_window`` has explained their moves best.

    ``source`` is the side whose moves are counted ("mine": an opponent counting our moves);
    silent until a window has scored ``min_score`` hits' worth (about four hits running).
    """

    def __init__(self, source: str = "mine", max_window: int = 64, min_score: int = 4,
                 half: str = "both") -> None:
        self.source = check_source(source)
        if source == "both":
            raise ValueError(f"invalid source {source!r}: a window counts one side's moves")
        self.max_window = check_positive(max_window, "max_window")
        self.min_score = check_positive(min_score, "min_score")
        self.name = f"windows{max_window}-{source}"
        self._mine = source == "mine"
        self.half = check_half(half)
        fields = self.max_window
        self._ones = sum(1 << (FIELD * j) for j in range(fields))
        self._guard = self._ones << GUARD_BIT
        self._mask = (1 << (FIELD * fields)) - 1
        self._low = self._ones * ((1 << (FIELD - DECAY_SHIFT)) - 1)  # the bits a decay shift keeps
        full_score = HIT << DECAY_SHIFT
        self._threshold = int(full_score * (1 - (1 - 2 ** -DECAY_SHIFT) ** min_score)) - 1
        self.reset()

    def reset(self) -> None:
        # _counts[m]: field j holds how often m is among the last j + 1 moves
        self._counts = [0, 0, 0]
        self._scores = [0, 0]  # per target (MOST, LEAST): a decayed hit score per window
        self._best = (MOST, 0)  # the best-scoring target and window
        self._positions: tuple[list[int], ...] = ([], [], [])  # recent positions of each move
        self._seen = 0
        self._ties: dict[int, Move] = {}  # tie context (see _predict) -> the tied move last targeted
        self._pending: tuple[int, int, int, tuple[Move, ...]] | None = None
        self._prediction: Move | None = None
        self._idle = False  # set by share() in the half this predictor does not work in

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle:
            return None
        counts = self._counts
        guard = self._guard
        if self._seen:
            # score every window: did their move beat a move leading (trailing) its counts?
            target = (their_move - 1) % 3
            beaten, a, b = counts[target], counts[their_move], counts[(their_move + 1) % 3]
            guarded = beaten | guard  # a guard bit per field: it survives x - y iff x >= y
            most = ((guarded - a) & (guarded - b) & guard) >> GUARD_BIT
            least = (((a | guard) - beaten) & ((b | guard) - beaten) & guard) >> GUARD_BIT
            scores, low = self._scores, self._low
            scores[MOST] = scores[MOST] - ((scores[MOST] >> DECAY_SHIFT) & low) + most * HIT
            scores[LEAST] = scores[LEAST] - ((scores[LEAST] >> DECAY_SHIFT) & low) + least * HIT
            kind, window = self._best
            if not ((most, least)[kind] >> (FIELD * window)) & 1:
                self._best = self._rescan()  # a window that hits stays ahead of every other
            if self._pending is not None and target in self._pending[3]:
                fine, middle, coarse, _ = self._pending
                self._ties[fine] = self._ties[middle] = self._ties[coarse] = target
        move = my_move if self._mine else their_move
        # the last j + 1 moves are the new one and the last j before it: each window's counts
        # are the next smaller window's, one field up, plus the new move
        mask = self._mask
        counts[0] = (counts[0] << FIELD) & mask
        counts[1] = (counts[1] << FIELD) & mask
        counts[2] = (counts[2] << FIELD) & mask
        counts[move] += self._ones
        positions = self._positions[move]
        positions.append(self._seen)
        if len(positions) > 2 * self.max_window:
            del positions[:self.max_window]
        self._seen += 1
        self._prediction = self._predict()
        return self._prediction

    def _rescan(self) -> tuple[int, int]:
        """The best-scoring target and window (the first, smallest window on ties)."""
        # both targets' scores in one array, MOST's first: the first largest field is the answer
        fields = array("H", (self._scores[LEAST] << (FIELD * self.max_window) | self._scores[MOST])
                       .to_bytes(4 * self.max_window, sys.byteorder))
        best = fields.index(max(fields))
        return divmod(best, self.max_window)

    def _predict(self) -> Move | None:
        self._pending = None
        best_kind, best_window = self._best
        shift = FIELD * best_window
        if (self._scores[best_kind] >> shift) & 0xFFFF < self._threshold:
            return None
        c0, c1, c2 = counts = ((self._counts[0] >> shift) & 0x7FFF, (self._counts[1] >> shift) & 0x7FFF,
                               (self._counts[2] >> shift) & 0x7FFF)
        extreme = max(counts) if best_kind == MOST else min(counts)
        mask = (c0 == extreme) | (c1 == extreme) << 1 | (c2 == extreme) << 2
        tied = TIED[mask]
        if len(tied) == 1:
            return (tied[0] + 1) % 3
        # a tie: read it by the order the moves present entered the window, and the last seen,
        # backing off to the order of the tied moves alone, then to the tied moves; a move's
        # first position in the window is its count-th latest (its positions keep at least
        # ``max_window`` of its latest)
        positions = self._positions
        order = 0  # the moves present, earliest first, as base-4 digits 1..3
        tied_order = 0  # the tied moves present, earliest first (0 if they are absent)
        for _, m in sorted([(positions[m][-counts[m]], m) for m in range(3) if counts[m]]):
            order = order * 4 + m + 1
            if mask >> m & 1:
                tied_order = tied_order * 4 + m + 1
        last = max(tied, key=lambda m: positions[m][-1] if counts[m] else -1)
        # the contexts as integers: the coarse one (target, tied moves) in 0..15, the fine one
        # (also the order of every move present and the last seen) from 16 up, the middle one
        # (the coarse one and the tied moves' order) negative
        coarse = best_kind << 3 | mask
        fine = ((order << 2 | last) << 4 | coarse) + 16
        middle = -(tied_order << 4 | coarse) - 1
        self._pending = (fine, middle, coarse, tied)
        ties = self._ties
        chosen = ties.get(fine)
        if chosen is None:
            chosen = ties.get(middle)
            if chosen is None:
                chosen = ties.get(coarse, tied[0])
        return (chosen + 1) % 3

    def predict(self) -> Move | None:
        return self._prediction
