"""Selection: which strategy to play, from the board's best per window.

- :class:`MetaSelector`: per window, a meta-strategy plays its best strategy's move; the
  meta-meta level scores each meta-strategy and its two rotations (the second-guessing
  defence once more, decayed by ``meta_decay``) and follows the best, the rotations and
  shorter windows handicapped (Occam: second-guessing must earn its place), keeping its
  current choice until another beats it by ``switch_margin`` (hysteresis).
- :class:`Caution`: in the opening, and wherever the followed predictor doubts itself, the
  move that ties the expected one and beats its closest rival instead (the fCC bar counts
  decisive games only: a tie costs nothing there, a loss as much as ninety-nine wins).
- :class:`ExactModels`: a model of the opponent that has fitted every move since it
  started (``exact()``, see :class:`roshambo.engine.predictors.base.Predictor`) and has been
  tested often enough is followed outright.
"""

from __future__ import annotations

from collections.abc import Callable

from .lineup import LineUp
from .moves import NO_MOVE, Move
from .scoring import StrategyBoard

# ROTATED[theirs][move]: rewards of the meta rotations r = 0, 1, 2, which play move + r
ROTATED = tuple(
    tuple(tuple((1, -1, 0)[(move + r - theirs - 1) % 3] for r in range(3)) for move in range(3))
    + ((0, 0, 0),)
    for theirs in range(3)
)


class MetaSelector:
    """The meta-strategies of ``windows`` windows and the meta-meta level over them."""

    def __init__(
        self,
        windows: int,
        decay: float,
        rotation_penalty: float,
        window_penalty: float,
        switch_margin: float,
    ) -> None:
        self.decay, self.switch_margin = decay, switch_margin
        self._handicaps = tuple(
            (rotation_penalty if r else 0.0) + (window_penalty if a else 0.0)
            for a in range(windows)
            for r in range(3)
        )
        self._windows = windows
        self.reset()

    def reset(self) -> None:
        windows = self._windows
        self.moves: list[int] = [NO_MOVE] * windows  # each meta-strategy's move this round
        self.best: list[int] = [0] * windows  # and the strategy it follows
        self.scores: list[float] = [0.0] * (3 * windows)  # per window and rotation
        self.current = 0  # the meta-meta choice being followed
        self.tenure = 0  # rounds running the same strategy and rotation were chosen, before
        self._chosen = (-1, 0)  # the last choice: strategy and rotation, followed or not

    def record(self, theirs: Move) -> None:
        """Score every meta-strategy and rotation on the opponent's move."""
        decay = self.decay
        rotated = ROTATED[theirs]
        self.scores = [
            decay * score + reward
            for score, reward in zip(self.scores, [r for m in self.moves for r in rotated[m]])
        ]

    def propose(self, bests: list[int], expects: Callable[[int], int]) -> None:
        """Each window's best strategy, and the move it plays (``NO_MOVE``: silent)."""
        self.best = bests
        moves = self.moves
        for a, best in enumerate(bests):
            e = expects(best)
            moves[a] = NO_MOVE if e == NO_MOVE else (e + 1 + best % 3) % 3

    def choose(self) -> int:
        """The meta-meta choice (window a and rotation r, as 3 a + r)."""
        ranked = [score - handicap for score, handicap in zip(self.scores, self._handicaps)]
        top = ranked.index(max(ranked))
        if ranked[top] <= ranked[self.current] + self.switch_margin:
            top = self.current  # keep following the current one unless beaten by a margin
        self.current = top
        chosen = (self.best[top // 3], top % 3)
        kept, self._chosen = chosen == self._chosen, chosen
        self.tenure = self.tenure + 1 if kept else 0
        return top


class Caution:
    """Play the tie-or-win move b = m - 1 instead of the planned m.

    In the first ``rounds`` rounds, when the best accuracy among the strategies that expect
    m + 1 is within ``reach`` of the best behind b and beats the best behind m by
    ``margin``: b ties b, beats m + 1, and loses only to m, the least supported of the
    three. All match long with ``on_doubt``, when the followed predictor doubts its
    prediction (its evidence leaves m + 1 open).
    """

    def __init__(self, rounds: int, margin: float, reach: float, on_doubt: bool) -> None:
        self.rounds, self.margin, self.reach, self.on_doubt = rounds, margin, reach, on_doubt

    def applies(self, planned: Move, strategy: int, board: StrategyBoard, lineup: LineUp) -> bool:
        return (
            board.rounds < self.rounds
            and self._rival_close(planned, board, lineup)
            or self.on_doubt
            and lineup.in_doubt(strategy)
        )

    def _rival_close(self, move: Move, board: StrategyBoard, lineup: LineUp) -> bool:
        best = [board.best_accuracy(b, lineup.direct, lineup.mirrored) for b in range(3)]
        answered, rival, tied = (move + 2) % 3, (move + 1) % 3, move
        return (
            best[rival] >= best[tied] + 2 * self.margin
            and best[rival] >= best[answered] - 2 * self.reach
        )


class ExactModels:
    """The exact model tested by the most moves, at least ``tests`` (0: never followed),
    and more than the rounds the choice otherwise followed has been winning running (a
    counter whose reply stays the same while its count does fits a period of one until
    the count turns, and the choice that models it is the one to keep)."""

    def __init__(self, tests: int) -> None:
        self.tests = tests

    def find(
        self,
        lineup: LineUp,
        board: StrategyBoard,
        selector: MetaSelector,
        window: int,
        rotation: int,
    ) -> tuple[int, Move] | None:
        """The predictor and the opponent move its exact model forces, or None."""
        found = None
        most = self.tests - 1
        for predictor, exact in lineup.exacts:
            said = exact()
            if said is not None and said[1] > most:
                most = said[1]
                found = predictor, said[0]
        if found is not None and selector.moves[window] != NO_MOVE:
            best = selector.best[window]
            followed = best - best % 3 + (best % 3 + rotation) % 3  # the strategy we would play
            if board.streak(followed) >= most:
                return None
        return found
