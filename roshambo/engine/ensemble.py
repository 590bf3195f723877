"""The Iocaine Powder meta-strategy (Egnor 1999), over an ensemble of predictors: the wiring.

Every predictor P yields six strategies: P.k plays ``p + 1 + k`` against its prediction p
of the opponent's move, and its mirrored twin P' (the swapped histories: a prediction q of
our move, as an opponent modelling us would make) plays ``q + 2 + k``. A round flows through
four layers, each in its own module:

- :mod:`.lineup`: the predictors in their halves, and what each expects this round;
- :mod:`.scoring`: every strategy scored as if it had been played, the best per window;
- :mod:`.selection`: the meta-strategies and the rotated meta-meta level, caution, and the
  exact models followed outright;
- :mod:`.hedging`: whether to follow the choice or play at random, and why.

:class:`Ensemble` wires them: ``observe`` scores the round and updates the predictors,
``choose_move`` picks the next move, ``new_match`` starts a match afresh but for the
carried-over models (an opponent that keeps its state between matches, as the fCC bots do).
Why each rule is as it is, with the measurements: docs/architecture.md ("The meta levels
and the hedge") and docs/experiments.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .hedging import BeatenRun, Exposure, Hedge, LosingRecord, ThompsonTrust
from .lineup import LineUp
from .moves import NO_MOVE, Move
from .predictors import PREDICTORS, Factory
from .predictors.base import check_decay
from .scoring import StrategyBoard
from .selection import Caution, ExactModels, MetaSelector


@dataclass(frozen=True)
class EnsembleConfig:
    """Tunable constants of the meta levels."""

    windows: tuple[int, ...] = (1000, 100, 50, 20, 10)
    meta_decay: float = 0.99
    hedge_threshold: float = -3.0
    trust_decay: float = 0.98
    trust_prior: tuple[float, float] = (5.0, 1.0)
    naive_prior: int = 4
    switch_margin: float = 0.5
    prior_fading: float = 0.99
    rotation_penalty: float = 5.0
    window_penalty: float = 0.0
    caution_rounds: int = 100
    caution_margin: float = 1.0
    caution_reach: float = 2.0
    tie_fading: float = 0.94
    caution_on_doubt: bool = True
    beaten_run: int = 3
    trust_bar: float = 0.5
    trust_floor: float = 0.1
    tenure_rounds: int = 5
    exact_tests: int = 5
    exposure_run: int = 4

    def __post_init__(self) -> None:
        windows = self.windows
        if (
            not isinstance(windows, tuple)
            or not windows
            or not all(type(w) is int and w >= 1 for w in windows)
        ):
            raise ValueError(
                f"invalid windows {windows!r}: expected a tuple of positive round counts"
            )
        for name in ("meta_decay", "trust_decay", "prior_fading", "tie_fading"):
            check_decay(getattr(self, name), name)
        bar = self.trust_bar
        if isinstance(bar, bool) or not isinstance(bar, (int, float)) or not 0.5 <= bar < 1.0:
            raise ValueError(
                f"invalid trust_bar {bar!r}: expected a share from 0.5 up to (not including) 1"
            )
        floor = self.trust_floor
        if isinstance(floor, bool) or not isinstance(floor, (int, float)) or not 0.0 <= floor < 0.5:
            raise ValueError(
                f"invalid trust_floor {floor!r}: expected a chance from 0 up to (not including) 1/2"
            )
        prior = self.trust_prior
        if (
            not isinstance(prior, tuple)
            or len(prior) != 2
            or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and x > 0 for x in prior
            )
        ):
            raise ValueError(f"invalid trust_prior {prior!r}: expected two positive numbers")
        if not isinstance(self.caution_on_doubt, bool):
            raise ValueError(
                f"invalid caution_on_doubt {self.caution_on_doubt!r}: expected True or False"
            )
        for name in (
            "naive_prior",
            "caution_rounds",
            "beaten_run",
            "tenure_rounds",
            "exact_tests",
            "exposure_run",
        ):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"invalid {name} {value!r}: expected a non-negative integer")
        for name in (
            "hedge_threshold",
            "switch_margin",
            "rotation_penalty",
            "window_penalty",
            "caution_margin",
            "caution_reach",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
                raise ValueError(f"invalid {name} {value!r}: expected a number")


@dataclass(frozen=True)
class Choice:
    """One round's decision, with what led to it."""

    move: Move
    strategy: str
    window: int
    rotation: int
    score: float
    hedging: bool
    cautious: bool = False
    exact: bool = False  # the move beats what an exact model forces (see selection.py)
    hedge: str = ""  # the hedging rule that sent the move to random play ("": followed)


class Ensemble:
    """Predictors x six strategies x windows x rotated meta-meta, with a random hedge."""

    def __init__(
        self,
        rng: random.Random | None = None,
        factories: dict[str, Factory] | None = None,
        config: EnsembleConfig | None = None,
    ) -> None:
        self._rng = rng if rng is not None else random.Random()
        c = self.config = config if config is not None else EnsembleConfig()
        factories = dict(PREDICTORS if factories is None else factories)
        lineup = self._lineup = LineUp(factories, exact_models=c.exact_tests > 0)
        self.strategy_names = lineup.strategy_names
        self._board = StrategyBoard(lineup, c.windows, c.naive_prior)
        self._selector = MetaSelector(
            len(c.windows), c.meta_decay, c.rotation_penalty, c.window_penalty, c.switch_margin
        )
        self._caution = Caution(
            c.caution_rounds, c.caution_margin, c.caution_reach, c.caution_on_doubt
        )
        self._exact = ExactModels(c.exact_tests)
        self._hedge = _hedge(c)
        self.reset()

    def reset(self) -> None:
        """Start a match afresh: new predictors, and every score at its prior."""
        self._lineup.build(self._rng, carry=False)
        self._new_scores()
        self._blank = True  # nothing chosen or observed since (see new_match)

    def new_match(self) -> None:
        """Start a match against an opponent that may remember the last one: every score
        and predictor afresh but the carried-over ones (:mod:`roshambo.engine.predictors.carried`),
        which keep everything seen since ``reset``; nothing changes before any round."""
        if self._blank:
            return
        self._lineup.carry_over(self._unanswered)
        self._lineup.build(self._rng, carry=True)
        self._new_scores()

    def _new_scores(self) -> None:
        self._board.reset()
        self._selector.reset()
        self._hedge.reset()
        # the last choice, made into a Choice when first asked for (most rounds, nobody asks)
        self._decided: tuple[Move, int, int, int, float, bool, bool, bool, str] | None = None
        self._decision: Choice | None = None
        self._intended = NO_MOVE  # the last choice's move had the hedge followed it
        self._pending = NO_MOVE  # the same, until the round it was chosen for is observed
        # our last move and the opponent move its choice expected, until observed
        self._unanswered: tuple[Move, Move] | None = None

    def instrument(
        self, wrap: Callable[[str, str, Callable[..., Any]], Callable[..., Any]]
    ) -> None:
        """For measurements (``benchmarks/speed.py``): every call a round of this match makes
        into the predictors goes through ``wrap(half, call, function)`` instead, which returns
        what to call in its place; ``half`` names the working half (``P`` or ``P'``), ``call`` is
        "update", "exact" or "doubt". ``reset`` and ``new_match`` undo it."""
        self._lineup.instrument(wrap)

    def observe(self, mine: Move, theirs: Move) -> None:
        """Score every strategy and meta-strategy on the round just played, then learn it."""
        self._blank = False
        intended, self._pending = self._pending, NO_MOVE  # a choice is recorded once
        self._unanswered = None
        lineup, board = self._lineup, self._board
        self._hedge.observe(mine, theirs, intended, board.rounds)
        opening = board.rounds < self.config.caution_rounds
        board.record(theirs, lineup.direct, lineup.mirrored, accuracy=opening)
        self._selector.record(theirs)
        lineup.update(mine, theirs)

    def strategy_moves(self) -> tuple[Move | None, ...]:
        """The move every selectable strategy (``strategy_names``, in order) would play this
        round, None where its predictor is silent: what the meta levels choose among."""
        return self._lineup.strategy_moves()

    def choose(self) -> Choice:
        """Pick this round's move (see :meth:`choose_move`) and say what led to it."""
        self.choose_move()
        decision = self.last_choice()
        assert decision is not None
        return decision

    def last_choice(self) -> Choice | None:
        """The last move chosen, with what led to it (None before the first choice)."""
        decided = self._decided  # a Choice's fields, with the strategy and window by index
        if self._decision is None and decided is not None:
            strategy, window = self.strategy_names[decided[1]], self.config.windows[decided[2]]
            self._decision = Choice(decided[0], strategy, window, *decided[3:])
        return self._decision

    def choose_move(self) -> Move:
        """Pick this round's move: an exact model's answer, or the meta-meta choice, each
        unless the hedge plays at random."""
        self._blank = False
        lineup, board, selector = self._lineup, self._board, self._selector
        selector.propose(board.bests(lineup.direct, lineup.mirrored), lineup.expects)
        top = selector.choose()
        a, rotation = divmod(top, 3)
        exact = self._exact.find(lineup, board, selector, a, rotation) if lineup.exacts else None
        if exact is not None:  # followed outright: no draw, no caution; reported as its P.0
            predictor, expected = exact
            intended = self._intended = self._pending = (expected + 1) % 3
            trusted, why = self._hedge.exact_verdict()
            move = intended if trusted else self._rng.randrange(3)
            score = selector.scores[3 * a]
            self._decided = (move, 6 * predictor, a, 0, score, not trusted, False, True, why)
            self._decision = None
            self._unanswered = (move, expected)
            return move
        move, best = selector.moves[a], selector.best[a]
        followable, trusted, why = self._hedge.verdict(
            self._rng, move, selector.scores[top], board.rounds, selector.tenure
        )
        planned = (move + rotation) % 3 if move != NO_MOVE else NO_MOVE
        cautious = followable and self._caution.applies(planned, best, board, lineup)
        intended = (planned + 2) % 3 if cautious else planned  # ties the expected move
        self._intended = self._pending = intended if followable else NO_MOVE
        move = intended if trusted else self._rng.randrange(3)
        score, cautious = selector.scores[top], cautious and trusted
        self._decided = (move, best, a, rotation, score, not trusted, cautious, False, why)
        self._decision = None
        self._unanswered = (move, (planned - 1) % 3) if planned != NO_MOVE else None
        return move

    def intended_move(self) -> Move | None:
        """The move the last choice would have been had the hedge followed it (caution
        included): the engine's deterministic part, which anything holding our code can
        compute. None before the first choice, or when the hedge was certain (a silent or
        clearly losing choice)."""
        return None if self._intended == NO_MOVE else self._intended


def _hedge(c: EnsembleConfig) -> Hedge:
    """The hedging rules, configured by ``c``, in the order they are asked."""
    trust = ThompsonTrust(
        c.trust_decay, c.trust_prior, c.prior_fading, c.trust_bar, c.trust_floor, c.tenure_rounds
    )
    return Hedge(
        LosingRecord(c.hedge_threshold),
        BeatenRun(c.beaten_run),
        trust,
        Exposure(c.exposure_run, c.trust_decay),
        c.tie_fading,
    )
