"""The plain twin of :class:`roshambo.engine.scoring.StrategyBoard`: every strategy's rewards
kept in a list and every window rescanned.

It has the packed board's interface and meaning (a property test, tests/test_scoring.py,
plays random rounds into both and compares their bests, streaks and accuracy records), at
O(strategies x rounds) a round: read it to know what the board decides, not to play.
"""

from __future__ import annotations

import math

from .lineup import LineUp
from .moves import NO_MOVE, Move


class PlainStrategyBoard:
    """The scores of ``lineup``'s strategies over sliding ``windows`` of rounds, in lists."""

    def __init__(self, lineup: LineUp, windows: tuple[int, ...], naive_prior: int) -> None:
        self._lineup = lineup
        self.windows = windows
        self.naive_prior = naive_prior
        self.strategies = lineup.strategies
        self.reset()

    def reset(self) -> None:
        self.rounds = 0
        self._rewards: list[list[int]] = [[] for _ in range(self.strategies)]  # +1, 0, -1
        self._streaks = [0] * self.strategies
        # per strategy, over the rounds recorded with ``accuracy``: 3 a round the move it
        # expects was played, 1 a round it was silent (twice the record plus the rounds)
        self._accuracy = [0] * self.strategies

    def record(
        self, theirs: Move, direct: list[Move | None], mirrored: list[Move | None], accuracy: bool
    ) -> None:
        """Score every strategy on the round: strategy k of a half expecting e plays
        e + 1 + k (which beats e + k); a silent half's strategies earn 0."""
        for s in range(self.strategies):
            e = self._expects(s, direct, mirrored)
            if e == NO_MOVE:
                reward = 0
                self._accuracy[s] += accuracy
            else:
                reward = (((e + 1 + s % 3) - theirs + 1) % 3) - 1
                if accuracy and (e + s % 3) % 3 == theirs:
                    self._accuracy[s] += 3
            self._rewards[s].append(reward)
            self._streaks[s] = self._streaks[s] + 1 if reward == 1 else 0
        self.rounds += 1

    def bests(self, direct: list[Move | None], mirrored: list[Move | None]) -> list[int]:
        """Per window, the strategy with the largest key (the window's score, the longest
        window's, the winning streak, then the first strategy); a silent best gives way to
        the best that speaks if that one is level with it or beats a coin clearly."""
        bests = []
        for window in self.windows:
            keys = [self._key(s, window) for s in range(self.strategies)]
            best = max(range(self.strategies), key=keys.__getitem__)
            if self._expects(best, direct, mirrored) == NO_MOVE:
                speaking = [
                    s
                    for s in range(self.strategies)
                    if self._expects(s, direct, mirrored) != NO_MOVE
                ]
                if speaking:
                    rival = max(speaking, key=keys.__getitem__)
                    # an all-zero key is no rival (the packed board reads it as none)
                    if any(keys[rival]) and (
                        keys[rival][:2] == keys[best][:2] or self._beats_chance(rival, window)
                    ):
                        best = rival
            bests.append(best)
        return bests

    def streak(self, strategy: int) -> int:
        """How many rounds running ``strategy`` has won."""
        return self._streaks[strategy]

    def best_accuracy(
        self, move: Move, direct: list[Move | None], mirrored: list[Move | None]
    ) -> int:
        """The best accuracy record among the strategies that expect ``move`` (0 if none
        expects it)."""
        records = [
            self._accuracy[s]
            for s in range(self.strategies)
            if (e := self._expects(s, direct, mirrored)) != NO_MOVE and (e + s % 3) % 3 == move
        ]
        return max(records, default=0)

    def _score(self, strategy: int, window: int) -> int:
        """Reward + 1 summed over the window's rounds, with the naive credit (k = 0) while
        the window still reaches the match's start."""
        seen = (
            self._rewards[strategy][-window:] if window < self.rounds else self._rewards[strategy]
        )
        credit = self.naive_prior if window >= self.rounds and strategy % 3 == 0 else 0
        return sum(r + 1 for r in seen) + credit

    def _key(self, strategy: int, window: int) -> tuple[int, int, int, int]:
        return (
            self._score(strategy, window),
            self._score(strategy, max(self.windows)),
            self._streaks[strategy],
            self.strategies - 1 - strategy,
        )

    def _beats_chance(self, strategy: int, window: int) -> bool:
        seen = min(window, self.rounds)
        bar = seen + 2.0 * math.sqrt(seen)
        if window >= self.rounds and strategy % 3 == 0:
            bar += self.naive_prior
        return self._score(strategy, window) > bar

    def _expects(
        self, strategy: int, direct: list[Move | None], mirrored: list[Move | None]
    ) -> int:
        lineup = self._lineup
        lineup.direct, lineup.mirrored = direct, mirrored
        return lineup.expects(strategy)
