"""Decayed counts after four views of the previous round; trust the sharpest.

Don Beal's "Simple Predictor" (Billings 1999, entrant 14): count the opponent's move after
each previous round seen four ways (their move and ours together, theirs alone, ours
alone, nothing at all), decay every count by ``decay`` each round, and read the prediction
from the view whose distribution is most extreme: the largest share of its top move.
A specific view wins where the opponent keys its play on it; the unconditioned view (its
recent move frequencies) takes over when nothing sharper is there. Decayed counts follow an
opponent that drifts or switches; Beal used 0.98, ours forgets faster (0.9 measured best
in the ensemble against the classic field).
"""

from __future__ import annotations

from ..moves import Move
from .base import RESCALE_AT, PredictorBase, check_decay, fold_weight


class SharpestContext(PredictorBase):
    """Predict the top move of the most extreme of four decayed continuation counts.

    Views are tried in the order (theirs, ours), theirs, ours, none; a later view replaces
    the current one only when strictly sharper, so the more specific view wins ties.
    Within a view, the first of R, P, S wins ties.
    """

    def __init__(self, decay: float = 0.9) -> None:
        self.decay = check_decay(decay, "decay")
        self.name = (
            "sharpest" if self.decay == 0.9 else f"sharpest-{self.decay:g}".replace(".", "_")
        )
        self.reset()

    def reset(self) -> None:
        # rows[4 * their + mine], their/mine in 0..2 or 3 for "any"; weights are stored
        # scaled by decay ** -rounds, so a round adds four weights instead of decaying all.
        self._rows = [[0.0, 0.0, 0.0] for _ in range(16)]
        self._weight = 1.0
        self._views: tuple[int, int, int, int] | None = None  # the previous round's rows
        self._prediction: Move | None = None

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        weight = self._weight = self._weight / self.decay
        rows = self._rows
        if self._views is not None:
            for view in self._views:
                rows[view][their_move] += weight
        if weight > RESCALE_AT:
            self._weight = fold_weight(rows, weight)
        views = self._views = (4 * their_move + my_move, 4 * their_move + 3, 12 + my_move, 15)
        prediction: Move | None = None
        best_top = best_total = 0.0
        for view in views:
            rock, paper, scissors = rows[view]
            total = rock + paper + scissors
            if total <= 0.0:
                continue
            # the row's top move (the first on ties) and its weight
            if rock >= paper:
                top, move = (rock, 0) if rock >= scissors else (scissors, 2)
            else:
                top, move = (paper, 1) if paper >= scissors else (scissors, 2)
            # top / total > best_top / best_total, without dividing
            if prediction is None or top * best_total > best_top * total:
                prediction, best_top, best_total = move, top, total
        self._prediction = prediction
        return prediction

    def predict(self) -> Move | None:
        return self._prediction
