"""The outcome/roll table of the rpscontest "treePredictor".

A 3x3 table of (result of the previous round, from the opponent's side) x (roll: how the
opponent's move turned relative to a reference move), every cell decayed by 0.9 each round.
The most weighted roll in the current result's row gives the prediction. The reference is
the opponent's own previous move (the original) or ours. Unconditioned (``by_result=False``)
the table has a single row: the opponent's habitual roll, which locks on within two rounds
to bots that rotate (Billings' "rotatebot") or answer our last move by rule.
"""

from __future__ import annotations

from ..moves import Move, outcome
from .base import RESCALE_AT, PredictorBase, argmax3, check_decay, check_source, fold_weight


class OutcomeRollTable(PredictorBase):
    """Predict the opponent's move as reference + the roll most seen after this result."""

    def __init__(
        self, reference: str = "their", decay: float = 0.9, by_result: bool = True
    ) -> None:
        if check_source(reference) == "both":
            raise ValueError(f"invalid reference {reference!r}: expected 'their' or 'mine'")
        self.reference = reference
        self.decay = check_decay(decay, "decay")
        self.by_result = bool(by_result)
        self.name = f"outcome-roll-{reference}" if self.by_result else f"roll-{reference}"
        self.reset()

    def reset(self) -> None:
        # Weights are stored scaled by decay ** -rounds, so a round adds one weight instead
        # of decaying nine cells; the scale is folded back in before it grows large.
        self._table = [[0.0, 0.0, 0.0] for _ in range(3)]
        self._weight = 1.0
        self._result: int | None = None  # last round's result index (0 loss, 1 tie, 2 win)
        self._reference: Move | None = None
        self._prediction: Move | None = None

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        self._weight /= self.decay
        result, reference = self._result, self._reference  # both None before the first round
        if result is not None and reference is not None:
            self._table[result][(their_move - reference) % 3] += self._weight
        if self._weight > RESCALE_AT:
            self._weight = fold_weight(self._table, self._weight)
        self._result = outcome(their_move, my_move) + 1 if self.by_result else 0
        self._reference = their_move if self.reference == "their" else my_move
        roll = argmax3(self._table[self._result])
        self._prediction = prediction = None if roll is None else (self._reference + roll) % 3
        return prediction

    def predict(self) -> Move | None:
        return self._prediction
