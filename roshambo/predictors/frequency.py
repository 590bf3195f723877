"""Frequency analysis: the opponent's most frequent move, over the match or a window.

Billings 1999 (the "freqbot" family) and Iocaine Powder's frequency predictor (Egnor 1999).
A sliding window keeps counts in a ring buffer, so each round is O(1).
"""
from __future__ import annotations

from ..moves import Move
from .base import argmax3, check_positive


class FrequencyCounter:
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
