"""Lagged rolls: the opponent's move as a fixed turn of a move made k rounds back.

A reacting bot answers a move of ours some rounds back by rule: it beats it, copies it or
loses to it (Billings 1999, the "reaction" bots; the treePredictor's roll table reads the
same idea one round back). This predictor reads every lag from 1 to ``max_lag`` at once:
per lag k and roll r, a decayed count of the rounds where their move was the reference
side's move k rounds earlier turned by r; it predicts with the best (lag, roll). Counts are
kept as :class:`TurnCounts` do (scaled weights, the best kept as they go), so a round costs
one pass over the lags, however long the match.
"""

from __future__ import annotations

from collections import deque

from ..moves import Move
from .base import TurnCounts, WorksInOneHalf, check_decay, check_half, check_positive, check_source


class LaggedRolls(WorksInOneHalf):
    """Predict their move as the ``reference`` side's move k rounds back, turned by r, for
    the (k, r) with k from 1 to ``max_lag`` whose decayed count is the largest (the
    smallest lag on ties); silent until that count holds ``min_hits`` rounds' worth."""

    def __init__(
        self,
        reference: str = "mine",
        max_lag: int = 8,
        decay: float = 0.9,
        min_hits: float = 3.0,
        half: str = "both",
    ) -> None:
        if check_source(reference) == "both":
            raise ValueError(f"invalid reference {reference!r}: expected 'their' or 'mine'")
        self.reference = reference
        self.source = reference  # the side whose moves it reads (what a carried copy needs)
        self.max_lag = check_positive(max_lag, "max_lag")
        self.decay = check_decay(decay, "decay")
        if isinstance(min_hits, bool) or not isinstance(min_hits, (int, float)) or not min_hits > 0:
            raise ValueError(f"invalid min_hits {min_hits!r}: expected a positive number")
        self.min_hits = float(min_hits)
        self.name = f"lags{max_lag}-{reference}"
        self._mine = reference == "mine"
        self.half = check_half(half)
        self.reset()

    def reset(self) -> None:
        self._references: deque[Move] = deque(maxlen=self.max_lag)  # the latest last
        self._rolls = TurnCounts(self.max_lag, self.decay, int(self.min_hits))  # group k - 1: lag k
        self._prediction: Move | None = None
        self._idle = False  # set by join() in the half this predictor does not work in

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle:
            return None
        references = self._references
        self._rolls.count(their_move, reversed(references))  # lag 1 first
        references.append(my_move if self._mine else their_move)
        leader = self._rolls.leader()
        if leader is None:
            prediction = None
        else:
            lag, roll = leader
            # the move that will be lag + 1 rounds back next round is lag rounds back now
            prediction = (references[-1 - lag] + roll) % 3
        self._prediction = prediction
        return prediction

    def predict(self) -> Move | None:
        return self._prediction
