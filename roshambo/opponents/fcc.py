"""The four freeCodeCamp bots (``RPS_game.py``) as classes with the same moves.

The fCC functions keep their state in mutable default arguments, so one process gets one
quincy, one abbey, one mrugesh, and their state runs on from match to match. The classes
reproduce that exactly and add what the functions lack:

- a fresh instance (or ``reset()``) behaves like a freshly imported ``RPS_game``;
- a second match on the same instance without ``reset()`` carries the state across, just
  like calling the functions again in the same process: ``their_last=None`` is the fCC
  ``""`` (the start of a match) and is fed to the bot's logic the same way.

All four are deterministic; ``rng`` is accepted and ignored.
"""

from __future__ import annotations

import random
from collections import deque
from typing import ClassVar

from ..engine.moves import LETTERS, Move, beats, check_move


class FccQuincy:
    """freeCodeCamp's quincy: cycles R, R, P, P, S, starting from the second entry."""

    name = "quincy"
    PATTERN: ClassVar[tuple[Move, ...]] = (0, 0, 1, 1, 2)

    def __init__(self, rng: random.Random | None = None) -> None:
        self.reset()

    def reset(self) -> None:
        self._counter = 0

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        self._counter += 1
        return self.PATTERN[self._counter % len(self.PATTERN)]


class FccKris:
    """freeCodeCamp's kris: beats the opponent's last move (rock assumed at a match start)."""

    name = "kris"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.reset()

    def reset(self) -> None:
        """kris has no state."""

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        return beats(0 if their_last is None else their_last)


class FccMrugesh:
    """freeCodeCamp's mrugesh: beats the most frequent of the opponent's last ten moves.

    The window holds letters, with "" for a match start, and the most frequent one is
    ``max(set(last_ten), key=last_ten.count)`` exactly as in the function: ties go to the
    first letter in set iteration order, which depends on the string hash seed. "" counts
    as scissors (so the bot plays rock).
    """

    name = "mrugesh"
    WINDOW: ClassVar[int] = 10

    def __init__(self, rng: random.Random | None = None) -> None:
        self.reset()

    def reset(self) -> None:
        self._last_ten: deque[str] = deque(maxlen=self.WINDOW)

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        self._last_ten.append("" if their_last is None else LETTERS[their_last])
        last_ten = list(self._last_ten)
        most_frequent = max(set(last_ten), key=last_ten.count)
        if most_frequent == "":
            most_frequent = "S"
        return beats(LETTERS.index(most_frequent))


class FccAbbey:
    """freeCodeCamp's abbey: a first-order Markov chain over the opponent's move pairs.

    Counts every pair (previous move, move) of the opponent, a match start counting as
    rock, and beats the most counted continuation of the opponent's last move; ties go to
    rock, then paper, then scissors (the order of the function's dict).
    """

    name = "abbey"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.reset()

    def reset(self) -> None:
        self._pairs = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
        self._previous: Move | None = None

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        current = 0 if their_last is None else their_last
        if self._previous is not None:
            self._pairs[self._previous][current] += 1
        self._previous = current
        row = self._pairs[current]
        prediction = max(range(3), key=row.__getitem__)
        return beats(prediction)
