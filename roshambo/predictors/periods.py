"""Periods: a side that repeats itself every p moves, found for every p at once, noise and all.

A cycle of length p is predicted by history matching once its context has recurred, but a
few random moves among the cycle's break the contexts, and matching starts over. This
predictor reads the cycle by its period instead: for every p from 1 to ``max_period`` it
keeps a decayed score of how often a move equalled the move p rounds before (all periods at
once, in packed fields, as :mod:`.windows` does for counting windows), follows the best
period, and predicts the majority of the moves one to seven periods back, so that up to
three random moves among them do not mislead it (with a fifth of a cycle's moves random, the
majority of three periods back is wrong about one time in twenty, of seven under one in a
hundred). Billings 1999 (the cycling bots of the first RoShamBo competition, some with
noise) read by period, in O(1) big-integer operations a round.
"""
from __future__ import annotations

import sys
from array import array

from ..moves import Move
from .base import WorksInOneHalf, check_half, check_positive, check_source

FIELD = 16  # bits a period's field takes: scores stay under 2 ** 15
HIT = 1 << 10  # a hit's weight in the decayed score
DECAY_SHIFT = 4  # the score decays by 1/16 a round: about the last 16 rounds count
LOOKBACK = 7  # periods voted on


class PeriodicMoves(WorksInOneHalf):
    """Predict a side's next move from the moves one to seven periods back, for the
    period from 1 to ``max_period`` that has explained its recent moves best.

    ``source`` is the side read ("their": a cycling opponent); silent until the best period's
    decayed hit rate reaches ``min_rate`` (a random side's is a third; about 15 hits running
    reach 0.6, and a cycle with a fifth of its moves random holds about 0.7).
    """

    def __init__(self, source: str = "their", max_period: int = 16, min_rate: float = 0.6,
                 half: str = "both") -> None:
        self.source = check_source(source)
        if source == "both":
            raise ValueError(f"invalid source {source!r}: a period is read off one side's moves")
        self.max_period = check_positive(max_period, "max_period")
        if isinstance(min_rate, bool) or not isinstance(min_rate, (int, float)) or not 0 < min_rate < 1:
            raise ValueError(f"invalid min_rate {min_rate!r}: expected a number in (0, 1)")
        self.min_rate = float(min_rate)
        self.name = f"period{max_period}-{source}"
        self._mine = source == "mine"
        self.half = check_half(half)
        self._fields = LOOKBACK * self.max_period  # moves remembered, one field each
        self._ones = sum(1 << (FIELD * j) for j in range(self.max_period))
        self._mask = (1 << (FIELD * self._fields)) - 1
        self._low = self._ones * ((1 << (FIELD - DECAY_SHIFT)) - 1)
        self._threshold = int((HIT << DECAY_SHIFT) * self.min_rate)
        self.reset()

    def reset(self) -> None:
        # _recent[m]: field j is 1 if the move j + 1 rounds back was m
        self._recent = [0, 0, 0]
        self._score = 0  # field p - 1: a decayed score of "a move equalled the one p back"
        self._best = 0  # the best period, minus one
        self._seen = 0
        self._prediction: Move | None = None
        self._idle = False  # set by share() in the half this predictor does not work in

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle:
            return None
        move = my_move if self._mine else their_move
        recent = self._recent
        hits = recent[move] & self._ones
        score = self._score
        self._score = score = score - ((score >> DECAY_SHIFT) & self._low) + hits * HIT
        best = self._best
        # a period that hits stays ahead of the rest; while none is good enough to speak, look
        # for a better one every fourth round only (a random side would have us look always)
        if not (hits >> (FIELD * best)) & 1 and (
                self._seen % 4 == 0 or (score >> (FIELD * best)) & 0xFFFF >= self._threshold):
            fields = array("H", score.to_bytes(2 * self.max_period, sys.byteorder))
            self._best = fields.index(max(fields))
        for m in range(3):
            recent[m] = (recent[m] << FIELD) & self._mask
        recent[move] |= 1
        self._seen += 1
        self._prediction = self._predict()
        return self._prediction

    def _predict(self) -> Move | None:
        period = self._best + 1
        if (self._score >> (FIELD * self._best)) & 0xFFFF < self._threshold or self._seen < period:
            return None
        votes = [0, 0, 0]
        first = None
        for back in range(1, LOOKBACK + 1):
            if back * period > self._seen:
                break
            shift = FIELD * (back * period - 1)
            move = next(m for m in range(3) if (self._recent[m] >> shift) & 1)
            votes[move] += 1
            if first is None:
                first = move
        top = max(votes)
        return first if votes[first] == top else votes.index(top)

    def predict(self) -> Move | None:
        return self._prediction
