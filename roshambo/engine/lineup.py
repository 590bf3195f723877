"""The line-up: every predictor in its two halves, and what each half says each round.

Predictor P's direct half reads the histories as they are and predicts the opponent's move;
its mirrored half P' reads them swapped and predicts *ours*, as an opponent modelling us
would (that opponent plays the move that beats it). Either way a half stands for one
expected opponent move e, and its three strategies k = 0, 1, 2 play ``e + 1 + k``; strategy
s = 6 i + 3 m + k is predictor i's half m, rotation k.

Only the halves that work are updated (a one-half predictor idles in the other, always
silent). Work that several halves read (a history index, a chain's counts, the counts of our
last N moves) is a shared feature: each fresh half takes what it reads from the match's hub
(``join``), which updates every feature before any half reads it (see
:mod:`roshambo.engine.predictors.features`). A carried-over model follows its fresh twin
until the first new match (see :mod:`roshambo.engine.predictors.carried`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .moves import NO_MOVE, Move
from .predictors import Factory, Predictor
from .predictors.base import check_capabilities, real_side, works_as
from .predictors.features import Feature, Features


class LineUp:
    """The predictors of ``factories``, selectable ones first (the order breaks ties)."""

    def __init__(self, factories: dict[str, Factory], exact_models: bool = True) -> None:
        if not factories:
            raise ValueError("an ensemble needs at least one predictor")
        probe = random.Random(0)
        probes = {name: make(probe) for name, make in factories.items()}
        offers = {name: check_capabilities(probe) for name, probe in probes.items()}
        selectable = {name: offers[name].selectable for name in factories}
        if not any(selectable.values()):
            raise ValueError("an ensemble needs at least one selectable predictor")
        order = sorted(factories, key=lambda name: not selectable[name])
        self.factories = {name: factories[name] for name in order}
        self.strategy_names = tuple(
            f"{name}{mark}.{k}" for name in order for mark in ("", "'") for k in range(3)
        )
        self.strategies = 6 * sum(selectable.values())  # the selectable strategies, first
        n = len(order)
        self.working = tuple(
            tuple(i for i, name in enumerate(order) if works_as(probes[name], mirrored))
            for mirrored in (False, True)
        )
        # the halves in the order their parts are gathered: the working direct halves, the
        # working mirrored ones, then the idle halves (always silent)
        working = self.working
        slots = [(i, m) for m in range(2) for i in working[m]]
        slots += [(i, m) for m in range(2) for i in range(n) if i not in working[m]]
        self.slots = tuple(slots)
        self.idle = len(slots) - len(working[0]) - len(working[1])
        # where predictor i's direct (mirrored) half's prediction is in what the working
        # halves said (-1: an idle half)
        self._said_at = tuple(
            tuple(working[m].index(i) if i in working[m] else -1 for i in range(n))
            for m in range(2)
        )
        # a carried-over model's fresh twin, by index
        index = {probes[name].name: i for i, name in enumerate(order)}
        twins = {
            i: index.get(probes[name].name.removeprefix("carried-"), -1)
            for i, name in enumerate(order)
            if offers[name].carried
        }
        self._twin_of = {i: j for i, j in twins.items() if j >= 0}
        self._exact_models = exact_models
        self.halves: tuple[list[Predictor], list[Predictor]] = ([], [])

    def build(self, rng: random.Random, carry: bool) -> None:
        """Fresh predictors, but with ``carry`` the carried-over ones, which start a new
        match (their ``new_match``)."""
        old = self.halves if carry else None
        kept = [
            [old is not None and old[m][i].capabilities.carried for i in range(len(self.factories))]
            for m in range(2)
        ]
        direct: list[Predictor] = [
            old[0][i] if old is not None and kept[0][i] else make(rng)
            for i, make in enumerate(self.factories.values())
        ]
        mirror: list[Predictor] = [
            old[1][i] if old is not None and kept[1][i] else make(rng)
            for i, make in enumerate(self.factories.values())
        ]
        self.halves = (direct, mirror)
        # the features each fresh half takes from the match's hub, and whether its request
        # made each one
        self._features = hub = Features()
        taken: list[list[list[tuple[Feature, bool]]]] = [[], []]
        for m, halves in enumerate((direct, mirror)):
            for i, half in enumerate(halves):
                start = len(hub.taken)
                if not kept[m][i]:
                    half.join(hub, bool(m))
                taken[m].append(hub.taken[start:])
        for m, halves in enumerate((direct, mirror)):
            for i, half in enumerate(halves):
                if kept[m][i]:
                    half.new_match()  # type: ignore[attr-defined]
                elif i in self._twin_of:
                    # a twin that made every feature it reads hands them over with itself at
                    # the new match; one that reads another's would leave that one behind
                    reads = taken[m][self._twin_of[i]]
                    if all(made for _, made in reads):
                        twin = halves[self._twin_of[i]]
                        half.follow(twin, [feature for feature, _ in reads])  # type: ignore[attr-defined]
        # bound methods of the working halves, looked up once per match
        self._updates = [direct[i].update for i in self.working[0]]
        self._mirror_updates = [mirror[i].update for i in self.working[1]]
        # per half (by predictor index), how to ask whether it doubts its prediction
        self._doubts = [
            [p.doubt if p.capabilities.doubt else None for p in halves]  # type: ignore[attr-defined]
            for halves in (direct, mirror)
        ]
        # the selectable direct halves that can name the move their exact model forces
        self.exacts: list[tuple[int, Callable[[], tuple[Move, int] | None]]] = (
            [
                (i, exact)
                for i in self.working[0]
                if 6 * i < self.strategies
                and direct[i].capabilities.exact
                and (exact := direct[i].exact) is not None  # type: ignore[attr-defined]
            ]
            if self._exact_models
            else []
        )
        # what each working half said last round (None: nothing, as a kept half says until
        # it proves itself again)
        self.direct: list[Move | None] = [None] * len(self._updates)
        self.mirrored: list[Move | None] = [None] * len(self._mirror_updates)

    def carry_over(self, unanswered: tuple[Move, Move] | None) -> None:
        """Before a new match: the carried models adopt what their twins saw, and take the
        last round, which was never observed (the fCC harness starts the next match with
        ""): models of the opponent's own moves take the move our choice expected, models of
        an opponent reading our moves skip it (it never reached the opponent)."""
        for halves in self.halves:
            for half in halves:
                if half.capabilities.carried:
                    half.adopt()  # type: ignore[attr-defined]
        if unanswered is not None:
            mine, theirs = unanswered
            for mirrored, halves in enumerate(self.halves):
                for half in halves:
                    if (
                        half.capabilities.carried
                        and real_side(half.source, bool(mirrored)) == "their"
                    ):
                        half.update(theirs, mine) if mirrored else half.update(mine, theirs)

    def update(self, mine: Move, theirs: Move) -> None:
        """Every shared feature takes the round, then every working half learns it: every
        predictor, then every mirrored twin (in any order: none reads another)."""
        self._features.update(mine, theirs)
        self.direct = [update(mine, theirs) for update in self._updates]
        self.mirrored = [update(theirs, mine) for update in self._mirror_updates]

    def expects(self, strategy: int) -> int:
        """The opponent move a strategy's half expects this round (``NO_MOVE``: silent)."""
        i, r = divmod(strategy, 6)
        mirrored = r >= 3
        at = self._said_at[mirrored][i]
        if at < 0:
            return NO_MOVE  # an idle half
        if not mirrored:
            p = self.direct[at]
            return NO_MOVE if p is None else p
        q = self.mirrored[at]
        return NO_MOVE if q is None else (q + 1) % 3  # the opponent beats our predicted move

    def strategy_moves(self) -> tuple[Move | None, ...]:
        """The move every selectable strategy would play this round (None: silent)."""
        moves = []
        for s in range(self.strategies):
            e = self.expects(s)
            moves.append(None if e == NO_MOVE else (e + 1 + s % 3) % 3)
        return tuple(moves)

    def in_doubt(self, strategy: int) -> bool:
        """Whether the predictor behind ``strategy`` doubts its prediction (see Predictor)."""
        i, r = divmod(strategy, 6)
        doubt = self._doubts[r >= 3][i]
        return doubt is not None and doubt()

    def instrument(
        self, wrap: Callable[[str, str, Callable[..., Any]], Callable[..., Any]]
    ) -> None:
        """Every call into the predictors goes through ``wrap(half, call, function)`` (see
        :meth:`roshambo.engine.ensemble.Ensemble.instrument`)."""
        names = list(self.factories)
        self._features.instrument(wrap)
        self._updates = [
            wrap(names[i], "update", update) for i, update in zip(self.working[0], self._updates)
        ]
        self._mirror_updates = [
            wrap(names[i] + "'", "update", update)
            for i, update in zip(self.working[1], self._mirror_updates)
        ]
        self.exacts = [(i, wrap(names[i], "exact", exact)) for i, exact in self.exacts]
        self._doubts = [
            [
                None if doubt is None else wrap(names[i] + mark, "doubt", doubt)
                for i, doubt in enumerate(doubts)
            ]
            for doubts, mark in zip(self._doubts, ("", "'"))
        ]
