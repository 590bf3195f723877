"""Random guessing: the baseline every other predictor has to beat (Egnor 1999)."""

from __future__ import annotations

import random

from ..moves import Move
from .base import Capabilities, PredictorBase


class RandomGuess(PredictorBase):
    """Predict a uniformly random move from an injected random source."""

    name = "random"
    # The meta-strategy never follows its strategies (so the ensemble does not score them):
    # a lucky streak of a coin is not evidence. Random play enters through the ensemble's
    # hedge instead.
    OFFERS = Capabilities(selectable=False)

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        self._prediction: Move | None = None

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        self._prediction = prediction = self._rng.randrange(3)
        return prediction

    def predict(self) -> Move | None:
        return self._prediction
