"""Random guessing: the baseline every other predictor has to beat (Egnor 1999)."""
from __future__ import annotations

import random

from ..moves import Move


class RandomGuess:
    """Predict a uniformly random move from an injected random source."""

    name = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        self._prediction: Move | None = None

    def update(self, my_move: Move, their_move: Move) -> None:
        self._prediction = self._rng.randrange(3)

    def predict(self) -> Move | None:
        return self._prediction
