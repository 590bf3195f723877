"""Frequency analysis: the opponent's most frequent move, over the match or a window.

Billings 1999 (the "freqbot" family) and Iocaine Powder's frequency predictor (Egnor 1999).
A sliding window keeps counts in a ring buffer, so each round is O(1); the window's counter in
the line-up, and a whole-match counter of our moves (the mirrored half), also learn how the
opponent breaks the counts' ties (:class:`TieReadingFrequency`).
"""

from __future__ import annotations

from collections import deque

from ..moves import Move
from .base import (
    TIED,
    PredictorBase,
    TieContexts,
    WorksInOneHalf,
    argmax3,
    check_half,
    check_positive,
    entry_code,
)
from .features import Features


class FrequencyCounter(PredictorBase):
    """Predict the opponent's most frequent move (first of R, P, S on ties).

    With ``least=True`` predict the least frequent one instead: the move an opponent that
    keeps its counts flat is due to play (Billings 1999, "flatbot"). With ``min_count`` the
    counter stays silent until it has counted that many moves: a "most frequent" move read
    off one or two moves is noise, and an ensemble that scores every strategy lets such noise
    lead for a while by luck.
    """

    source = "their"  # the side whose moves are counted (a mirrored twin counts ours)

    def __init__(self, window: int | None = None, least: bool = False, min_count: int = 1) -> None:
        self.window = check_positive(window, "window", allow_none=True)
        self.least = bool(least)
        self.min_count = check_positive(min_count, "min_count")
        stem = "rarity" if self.least else "frequency"
        self.name = stem if window is None else f"{stem}@{window}"
        self.reset()

    def reset(self) -> None:
        self._counts = [0, 0, 0]
        self._ring: list[Move] = [0] * (self.window or 0)
        self._seen = 0
        self._prediction: Move | None = None

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        window = self.window
        if window is not None:
            slot = self._seen % window
            if self._seen >= window:
                self._counts[self._ring[slot]] -= 1
            self._ring[slot] = their_move
        self._counts[their_move] += 1
        self._seen += 1
        if self._seen < self.min_count:
            prediction = None
        elif self.least:
            a, b, c = self._counts
            prediction = argmax3([-a, -b, -c]) if not a == b == c else 0
        else:
            prediction = argmax3(self._counts)
        self._prediction = prediction
        return prediction

    def predict(self) -> Move | None:
        return self._prediction


class TieReadingFrequency(WorksInOneHalf, FrequencyCounter):
    """A window's (or the whole match's) most frequent move, as :class:`FrequencyCounter`,
    that learns how the opponent breaks the counts' ties instead of taking the first of R, P, S.

    An opponent counting a window may break ties in a fixed order, by the first or last seen
    (``Counter.most_common`` takes the first), or by a ``set``'s order, which for moves whose
    hashes collide is the order they entered the window. So at each tie it remembers which
    tied move the opponent's reply pointed to, keyed by the order in which the moves present
    entered the window (each by its earliest position still in it, the order a ``set`` built
    from the window adds them in) and the tied move seen last, backing off to the order the
    tied moves alone entered it, then to the tied moves alone, then to the first of R, P, S
    (prediction by partial matching, Cleary & Witten 1984: :class:`.TieContexts`, as the
    counting windows). A window's context takes the last reply there, so that it follows a
    window whose ties turn with what slides out; the whole match's takes the most frequent
    reply: its ties recur under one rule all match (the counts of a side that beats them stay
    level), and a random reply now and then would otherwise stand for the rule until the
    context came up again (against a counter of our whole match playing a fifth of its moves
    at random, that was about one tie in twenty read wrong).
    The reply points to the tied move the opponent played (the direct half: a side repeating
    its own most frequent move) or, in the mirrored half, the one its move beats (a side
    beating our most frequent move, as Iocaine's P'.0 has it). Billings 1999, "freqbot".
    With ``half`` it works in one half only, silent in the other (:class:`.WorksInOneHalf`).
    """

    def __init__(
        self, window: int | None, least: bool = False, min_count: int = 1, half: str = "both"
    ) -> None:
        self.half = check_half(half)
        super().__init__(check_positive(window, "window", allow_none=True), least, min_count)
        self.name += "-ties"

    def reset(self) -> None:
        super().reset()
        self._idle = False  # set by join() in the half this reader does not work in
        self._mirrored = False  # set by join(): the reply is then the opponent's move, beating ours
        # per move, its positions in the window, oldest first (over the whole match, only the
        # first and the last: nothing slides out)
        self._positions: tuple[deque[int], ...] = (deque(), deque(), deque())
        # which tied move the reply points to, per tie context
        self._ties = TieContexts(votes=self.window is None)

    def join(self, features: Features, mirrored: bool) -> None:
        """Learn in the half given: in the mirrored one the reply is the opponent's move,
        which beats the tied move it targets (takes no feature); idle in the half it does
        not work in."""
        super().join(features, mirrored)
        self._mirrored = mirrored

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle:
            return None
        self._ties.learn((my_move + 2) % 3 if self._mirrored else their_move)
        seen = self._seen
        positions = self._positions
        window = self.window
        if window is None:
            if len(positions[their_move]) == 2:
                positions[their_move].pop()  # the last position moves on; the first stays
        elif seen >= window:
            positions[self._ring[seen % window]].popleft()  # the move sliding out
        positions[their_move].append(seen)
        prediction = super().update(my_move, their_move)
        if prediction is None:
            return None
        counts = self._counts
        extreme = counts[prediction]
        mask = (counts[0] == extreme) | (counts[1] == extreme) << 1 | (counts[2] == extreme) << 2
        tied = TIED[mask]
        if len(tied) == 1:
            return prediction
        last, latest = tied[0], -1
        for m in tied:
            if positions[m] and positions[m][-1] > latest:
                last, latest = m, positions[m][-1]
        p0, p1, p2 = positions  # a move's first position: where it entered
        entry = entry_code(p0[0] if p0 else -1, p1[0] if p1 else -1, p2[0] if p2 else -1)
        chosen = self._prediction = self._ties.read(entry, mask, last, self.least, prediction)
        return chosen
