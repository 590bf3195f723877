"""The engine behind one match: reset / move, with an injected random source."""
from __future__ import annotations

import random
from dataclasses import dataclass

from .moves import Move, beats, check_move


@dataclass(frozen=True)
class Belief:
    """What the engine currently trusts: the strategy on top and its record."""

    strategy: str
    family: str
    horizon: str
    score: float
    hedging: bool


class Agent:
    """One match's engine (placeholder ensemble: beats the opponent's most frequent move)."""

    name = "iocaine-ensemble"

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        self._counts = [0, 0, 0]
        self._last: Move | None = None

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
            self._counts[their_last] += 1
        if max(self._counts) == 0:
            choice = self._rng.randrange(3)
        else:
            choice = beats(self._counts.index(max(self._counts)))
        self._last = choice
        return choice

    def belief(self) -> Belief:
        return Belief("frequency.0", "frequency", "all", 0.0, False)
