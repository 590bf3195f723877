"""Carried over: a model kept from one match to the next, for an opponent that remembers.

The fCC bots keep their state in mutable defaults, so a bot met again in a later match
starts it with counts, windows and a cycle position from every match before; a predictor
that starts each match afresh meets counts it never saw, and an opponent counting what
followed our last three moves has 27 rows of them, each a guess until its first reply (even
an exact model of such a counter, told its order, memory and turn, mispredicts many of a
second match's first rounds: docs/experiments.md). The same model run on everything since
the player started sees those counts being made. It is kept beside the fresh one, not
instead of it: a different opponent in the next match makes the carried model wrong until
the fresh scores say so (the ensemble's scores always start afresh, see
:meth:`roshambo.engine.ensemble.Ensemble.new_match`). Until the first new match the fresh copy has
seen exactly what the carried one would, so the carried one follows it, doing no work, and
takes it over at the new match, with the shared features it read (see :mod:`.features`),
which from then on this model's own hub updates: a single match does no model's work twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..moves import Move
from .base import SOURCES, Capabilities, Predictor, WorksInOneHalf, idle_in
from .features import Feature, Features


class CarriedOver(WorksInOneHalf):
    """``inner``, kept by :meth:`roshambo.engine.ensemble.Ensemble.new_match` instead of being
    rebuilt; ``reset`` still starts it afresh. It works in the halves ``inner`` works in and
    reads no feature of the line-up's hub (that one starts afresh each match): ``inner``
    joins a hub of this model's own, which it updates before ``inner``.
    """

    # rounds running this match in which the opponent played one turn of the prediction,
    # before it speaks (1 in 9 by chance; at 2, 1 in 3, models of the last fCC bot misled
    # the next one's opening, at 4 a model that fits waited a round longer: see
    # docs/experiments.md); from then on it speaks all match, since a noisy opponent breaks
    # any run now and then, and the ensemble's scores judge what it says
    PROOF = 3

    def __init__(self, inner: Predictor) -> None:
        offers = inner.capabilities
        if offers.carried:
            raise ValueError(f"predictor {inner.name!r} is carried over already")
        self._inner = inner
        self.name = f"carried-{inner.name}"
        self.half = offers.half
        self.source = inner.source
        if self.source not in SOURCES:
            raise ValueError(
                f"predictor {inner.name!r} names no source ({', '.join(SOURCES)}) to carry over"
            )
        self._doubts = offers.doubt
        self._exacts = offers.exact
        self.reset()

    @property
    def capabilities(self) -> Capabilities:
        """What ``inner`` offers, carried over: it forgets at a new match what ``inner``
        forgets."""
        return replace(self._inner.capabilities, carried=True, new_match=True)

    def reset(self) -> None:
        self._inner.reset()
        self._idle = False
        self._mirrored = False
        self._twin: Predictor | None = None  # see follow
        self._twin_features: list[Feature] = []
        self._features = Features()  # the hub of ``inner``'s features (see join)
        self.new_match()
        self._said: Move | None = None  # what ``inner`` said last round, proven or not

    def follow(self, twin: Predictor, features: list[Feature]) -> None:
        """Until :meth:`adopt`, ``twin`` stands for ``inner``: a fresh copy of it in the same
        half, built at the same ``reset``, which has seen every round this model would; this
        model does no work and says nothing meanwhile (in the first match since ``reset``
        it would say what ``twin`` says). ``features``: those the twin read, each made by
        its request (no other predictor's reading would go on updating it)."""
        self._twin = twin
        self._twin_features = features

    def adopt(self) -> None:
        """At a new match, take the followed twin as ``inner`` (the ensemble then builds a
        fresh twin); from here on this model does its own work."""
        twin = self._twin
        if twin is not None:
            self._inner = twin
            self._twin = None
            self._features = Features()
            self._features.adopt(self._twin_features)
            self._twin_features = []
            self._said = twin.predict()
            # what the twin can say: what ``inner`` could, of the same class
            self._doubts = twin.capabilities.doubt
            self._exacts = twin.capabilities.exact

    def new_match(self) -> None:
        """A new match, maybe against another opponent: ``inner`` keeps everything it saw
        (but what its own ``new_match``, if it has one, forgets of the last opponent), and
        must prove itself again before it speaks (once, for the whole match)."""
        if self._inner.capabilities.new_match:
            self._inner.new_match()  # type: ignore[attr-defined]
        self._turn = -1  # the turn of ``inner``'s last prediction the opponent played
        self._run = 0  # rounds running this match in which the opponent played that turn
        self._proven = False  # whether such a run has reached PROOF this match

    def join(self, features: Features, mirrored: bool) -> None:
        """Idle in the half ``inner`` does not work in; take nothing from ``features`` (see
        the class)."""
        self._idle = idle_in(self.half, mirrored)
        self._mirrored = mirrored
        self._features = Features()
        self._inner.join(self._features, mirrored)

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle or self._twin is not None:
            return None
        # the features first, as a line-up's hub takes the round (the real way round)
        if self._mirrored:
            self._features.update(their_move, my_move)
        else:
            self._features.update(my_move, their_move)
        said = self._said
        if said is not None:
            # the opponent's real move is ``my_move`` in a mirrored half, which predicts ours
            turn = ((my_move if self._mirrored else their_move) - said) % 3
            self._run = self._run + 1 if turn == self._turn else 1
            self._turn = turn
            if self._run >= self.PROOF:
                self._proven = True
        said = self._said = self._inner.update(my_move, their_move)
        return said if self._proven else None

    def predict(self) -> Move | None:
        return self._said if not self._idle and self._twin is None and self._proven else None

    def doubt(self) -> bool:
        """Whether ``inner`` doubts the prediction this model speaks (never while silent, or
        if ``inner`` cannot say)."""
        return self._doubts and self.predict() is not None and self._inner.doubt()  # type: ignore[attr-defined]

    @property
    def exact(self) -> Callable[[], tuple[Move, int] | None] | None:
        """:meth:`_exact` if ``inner`` offers ``exact``, else None, so that the ensemble asks
        only the models that can say."""
        return self._exact if self._exacts else None

    def _exact(self) -> tuple[Move, int] | None:
        """What ``inner`` reads as exact since it started (see
        :meth:`roshambo.engine.predictors.periods.PeriodicMoves.exact`), proven or not this match:
        a model that every move since the last ``reset`` has fitted needs no run of this
        match's moves to prove it; None while following a twin or idle."""
        if self._idle or self._twin is not None:
            return None
        exact: tuple[Move, int] | None = self._inner.exact()  # type: ignore[attr-defined]
        return exact
