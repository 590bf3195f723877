"""Continuation counts of every context order at once, blended by how often each was seen.

A Markov chain commits to one context length; an opponent whose play mixes several (or
whose own model blends them) sits between the chains. This predictor keeps the counts of
what followed each of the last 1..``max_order`` symbols and adds the rows of all orders,
each weighted by its context's own count: a context seen n times contributes n times its
counts, so common short contexts carry the blend and long ones speak up as they recur.
The weighting is that of Neil Burch's "ZQ Bot" context tree (Billings 1999); prediction
by partial matching (Cleary & Witten 1984) blends orders in the same spirit.
"""

from __future__ import annotations

from ..moves import Move
from .base import SYMBOLS, PredictorBase, check_positive, check_source


class BlendedContexts(PredictorBase):
    """Predict the top move of the count-weighted sum of the continuation rows of orders
    1..``max_order`` of the current context (the first of R, P, S on ties)."""

    def __init__(self, max_order: int = 4, source: str = "both") -> None:
        self.max_order = check_positive(max_order, "max_order")
        self.source = check_source(source)
        self._symbol = SYMBOLS[source]
        self.name = f"blend{self.max_order}-{source}"
        # symbols are 1-based digits, so the last L symbols read in base 10 are a key that
        # no context of another length can share; moduli[L - 1] = 10 ** L cuts them out
        self._moduli = tuple(10**length for length in range(1, self.max_order + 1))
        self.reset()

    def reset(self) -> None:
        self._rows: dict[int, list[int]] = {}
        self._context = 0  # the last max_order symbols, base 10 digits
        self._length = 0  # how many orders the context has reached (at most max_order)
        self._current: list[list[int]] = []  # the rows of the current context, by order
        self._prediction: Move | None = None

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        for counted in self._current:
            counted[their_move] += 1
        if self._length < self.max_order:
            self._length += 1
        moduli = self._moduli
        context = self._context = (
            self._context * 10 + self._symbol[my_move * 3 + their_move]
        ) % moduli[-1]
        rows = self._rows
        current = self._current = []
        rock = paper = scissors = 0
        for modulus in moduli if self._length == self.max_order else moduli[: self._length]:
            key = context % modulus
            row = rows.get(key)
            if row is None:
                row = rows[key] = [0, 0, 0]  # counted from the next round on
            else:
                r, p, s = row
                seen = r + p + s
                rock += seen * r
                paper += seen * p
                scissors += seen * s
            current.append(row)
        # argmax3, inlined
        prediction: Move | None
        if rock >= paper:
            prediction = 0 if rock >= scissors else 2
        else:
            prediction = 1 if paper >= scissors else 2
        if prediction == 0 and rock == 0:
            prediction = None  # nothing counted yet
        self._prediction = prediction
        return prediction

    def predict(self) -> Move | None:
        return self._prediction
