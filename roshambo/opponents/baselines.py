"""Baselines from the literature the project grew from: Markov chain, tree predictor,
frequency, random.

Like every opponent here, ``their_last=None`` means "nothing to observe" (the first move of
a match); state carries over to a second match unless ``reset()`` is called.
"""

from __future__ import annotations

import random
from collections import deque
from typing import ClassVar

from ..engine.moves import Move, beats, check_move, outcome


class RandomPlayer:
    """Uniformly random moves: the Nash equilibrium (Billings 1999, "Random (Optimal)")."""

    name = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        """Random has no state besides its rng."""

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        return self._rng.randrange(3)


class FrequencyPlayer:
    """Beats the opponent's most frequent move so far; ties and the first move at random."""

    name = "frequency"

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        self._counts = [0, 0, 0]

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
            self._counts[their_last] += 1
        top = max(self._counts)
        tied = [m for m in range(3) if self._counts[m] == top]
        return beats(tied[0] if len(tied) == 1 else self._rng.choice(tied))


class MarkovChainPlayer:
    """The freeCodeCamp write-up's Markov chain (SEQ_LEN=3, NUM_RECORDS=100).

    Counts the opponent's SEQ_LEN-move sequences over a sliding window of the last
    NUM_RECORDS of them, predicts the most counted continuation of the opponent's last
    SEQ_LEN-1 moves (ties: rock, paper, scissors) and plays what beats it; random while that
    context has never been seen.
    """

    name = "markov"
    SEQ_LEN: ClassVar[int] = 3
    NUM_RECORDS: ClassVar[int] = 100

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        self._context: deque[Move] = deque(maxlen=self.SEQ_LEN - 1)
        self._records: deque[tuple[Move, ...]] = deque()
        self._counts: dict[tuple[Move, ...], int] = {}

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
            self._record(their_last)
        if len(self._context) == self.SEQ_LEN - 1:
            key = tuple(self._context)
            row = [self._counts.get(key + (m,), 0) for m in range(3)]
            if max(row) > 0:
                return beats(max(range(3), key=row.__getitem__))
        return self._rng.randrange(3)

    def _record(self, theirs: Move) -> None:
        if len(self._context) == self.SEQ_LEN - 1:
            sequence = tuple(self._context) + (theirs,)
            self._records.append(sequence)
            self._counts[sequence] = self._counts.get(sequence, 0) + 1
            if len(self._records) > self.NUM_RECORDS:
                oldest = self._records.popleft()
                self._counts[oldest] -= 1
        self._context.append(theirs)


class TreePredictor:
    """rpscontest's treePredictor: an outcome x roll table, decayed by 0.9 each move.

    Rows are the result of the round before the opponent's move, from this bot's point of
    view (win / tie / loss); columns the opponent's roll, how far its move rotated from its
    previous one. The row of the last result gives a weighted random roll (uniform while
    the row is empty); the bot plays what beats the opponent's last move rotated by it.
    """

    name = "tree"
    DECAY: ClassVar[float] = 0.9

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        self._table = [[0.0, 0.0, 0.0] for _ in range(3)]
        self._mine: Move | None = None  # my move in the last round
        self._theirs: Move | None = None  # the opponent's move in the last round seen
        self._result: int | None = None  # row index of the last round's result

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
            self._observe(their_last)
        choice = self._choose()
        self._mine = choice
        return choice

    def _observe(self, theirs: Move) -> None:
        if self._result is not None and self._theirs is not None:
            for row in self._table:
                for roll in range(3):
                    row[roll] *= self.DECAY
            self._table[self._result][(theirs - self._theirs) % 3] += 1.0
        if self._mine is not None:
            self._result = 1 - outcome(self._mine, theirs)  # 0 win, 1 tie, 2 loss
        self._theirs = theirs

    def _choose(self) -> Move:
        if self._result is None or self._theirs is None:
            return self._rng.randrange(3)
        row = self._table[self._result]
        total = row[0] + row[1] + row[2]
        if total <= 0.0:
            roll = self._rng.randrange(3)
        else:
            point = self._rng.random() * total
            roll = 0 if point < row[0] else 1 if point < row[0] + row[1] else 2
        return beats((self._theirs + roll) % 3)
