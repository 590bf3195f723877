"""The engine behind one match: reset / observe / choose, or ``move`` for both at once."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .ensemble import Ensemble, EnsembleConfig
from .moves import Move, check_move
from .predictors import Factory


def family_of(strategy: str) -> str:
    """The idea behind a strategy's name: "markov" for "markov3@100'.2", "windows" for
    "windows200-mine.0" (the predictor's name up to its first parameter)."""
    family = strategy.rsplit(".", 1)[0].rstrip("'").split("@")[0]
    return family.split("-")[0].rstrip("0123456789")


@dataclass(frozen=True)
class Belief:
    """What the engine currently trusts: the strategy on top and its record."""

    strategy: str
    family: str
    window: int
    rotation: int
    score: float
    hedging: bool
    cautious: bool = False  # the followed move was bent to tie-or-win (see ensemble.py)
    exact: bool = False  # the move beats what an exact model forces (see ensemble.py)


class Agent:
    """The Iocaine Powder ensemble, a match at a time: ``reset`` starts one afresh,
    ``new_match`` keeps the carried-over models (see :meth:`Ensemble.new_match`).

    ``move(their_last)`` is the opponent protocol used by the arena and the fCC shim: it
    records the last round (our previous move, which the agent remembers, against
    ``their_last``; ``None`` at a match's first move) and returns the next move. ``observe``
    and ``choose`` do the two halves separately, for callers that know both moves (e.g. a
    copy of the engine shadowing another one). Randomness comes only from ``rng``, which is
    OS-seeded unless given.
    """

    name = "ai"

    def __init__(
        self,
        rng: random.Random | None = None,
        config: EnsembleConfig | None = None,
        factories: dict[str, Factory] | None = None,
    ) -> None:
        self._rng = rng if rng is not None else random.Random()
        self._ensemble = Ensemble(self._rng, factories=factories, config=config)
        self.reset()

    def reset(self) -> None:
        self._ensemble.reset()
        self._last: Move | None = None
        self.rounds = 0

    def new_match(self) -> None:
        """Start a match against an opponent that may remember the last one (see
        Ensemble.new_match); the first match is a fresh one."""
        self._ensemble.new_match()
        self._last = None
        self.rounds = 0

    @property
    def started(self) -> bool:
        """Whether this match has had our first move (so an opponent move can follow)."""
        return self._last is not None

    def observe(self, mine: Move, theirs: Move) -> None:
        """Record a finished round: our move and the opponent's."""
        check_move(mine)
        check_move(theirs)
        self._ensemble.observe(mine, theirs)
        self.rounds += 1

    def choose(self) -> Move:
        """Choose our next move (and remember it as our last move)."""
        self._last = move = self._ensemble.choose_move()
        return move

    def move(self, their_last: Move | None) -> Move:
        """Record the opponent's last move (None at a match's start) and return ours."""
        if their_last is not None:
            check_move(their_last)
            if self._last is None:
                raise ValueError(
                    f"got the opponent's move {their_last!r} before this agent made any move"
                )
            self._ensemble.observe(self._last, their_last)  # our own last move needs no check
            self.rounds += 1
        elif self._last is not None:
            raise ValueError(
                "their_last is None in the middle of a match: call reset() or new_match() to start a new one"
            )
        return self.choose()

    def instrument(
        self, wrap: Callable[[str, str, Callable[..., Any]], Callable[..., Any]]
    ) -> None:
        """For measurements: route this match's calls into the predictors through ``wrap``
        (see :meth:`Ensemble.instrument`)."""
        self._ensemble.instrument(wrap)

    def intended(self) -> Move | None:
        """Our last move had the random hedge not been drawn (see Ensemble.intended_move)."""
        return self._ensemble.intended_move()

    def strategy_moves(self) -> dict[str, Move | None]:
        """What every strategy the engine chooses among would play this round (None: its
        predictor is silent), by name; call it after ``observe``, before or after ``choose``."""
        ensemble = self._ensemble
        return dict(zip(ensemble.strategy_names, ensemble.strategy_moves()))

    def belief(self) -> Belief:
        """The strategy behind the last choice, its family, horizon and record."""
        choice = self._ensemble.last_choice()
        if choice is None:
            return Belief("none", "none", 0, 0, 0.0, True)
        return Belief(
            choice.strategy,
            family_of(choice.strategy),
            choice.window,
            choice.rotation,
            choice.score,
            choice.hedging,
            choice.cautious,
            choice.exact,
        )
