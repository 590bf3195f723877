"""Shared features: work that several predictors read, done once a round before any of them.

A feature (a history index, a chain's continuation counts, the counts of one side's last N
moves) is named by its ``key``: what it computes in the real match's terms (whose moves,
which lengths), so that a direct half and a mirrored twin that would compute the same thing
ask for the same key. The line-up keeps one :class:`Features` hub per match; every fresh
half takes the features it reads from it in ``join``, the hub keeps one instance per key,
and each round it updates every feature with the real moves before any predictor's update
reads them. No predictor depends on another's update order.

A predictor that has joined no hub (alone, in a test) keeps private features and updates
them itself; a carried-over model keeps a hub of its own (see :mod:`.carried`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any, Protocol, TypeVar

from ..moves import Move


class Feature(Protocol):
    """One piece of shared work. ``key`` names what it computes (equal keys: equal work);
    ``name`` shows it in a benchmark's breakdown; ``update(mine, theirs)`` takes a round
    with the moves the right way round for its key (the hub's: the real match's)."""

    @property
    def key(self) -> Hashable: ...

    @property
    def name(self) -> str: ...

    def update(self, mine: Move, theirs: Move) -> None: ...


F = TypeVar("F", bound=Feature)


class Features:
    """The features a line-up's predictors read, one per key, updated in the order they
    were first asked for. ``taken`` logs every request (the feature handed out, and whether
    the request created it), so that the line-up knows which features a half reads."""

    def __init__(self) -> None:
        self._by_key: dict[Hashable, Feature] = {}
        self._updates: list[Callable[[Move, Move], None]] = []
        self.taken: list[tuple[Feature, bool]] = []

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Features) and self._by_key == other._by_key

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def get(self, feature: F) -> F:
        """The hub's feature with ``feature``'s key: ``feature`` itself if none was asked for
        before (it must be fresh: the hub updates it from the next round on)."""
        held = self._by_key.setdefault(feature.key, feature)
        if type(held) is not type(feature):
            raise ValueError(
                f"feature key {feature.key!r} names both a {type(held).__name__} and a "
                f"{type(feature).__name__}: a key must name one kind of work"
            )
        created = held is feature
        if created:
            self._updates.append(feature.update)
        self.taken.append((held, created))
        return held  # same key and type: the same work

    def adopt(self, features: list[Feature]) -> None:
        """Hold ``features`` (from another hub, which no longer updates them) as this hub's."""
        for feature in features:
            if self._by_key.setdefault(feature.key, feature) is not feature:
                raise ValueError(f"feature key {feature.key!r} is held already")
            self._updates.append(feature.update)

    def update(self, mine: Move, theirs: Move) -> None:
        """Every feature takes the round (before any predictor reads it)."""
        for update in self._updates:
            update(mine, theirs)

    def __iter__(self) -> Iterator[Feature]:
        return iter(self._by_key.values())

    def __len__(self) -> int:
        return len(self._by_key)

    def instrument(
        self, wrap: Callable[[str, str, Callable[..., Any]], Callable[..., Any]]
    ) -> None:
        """Every feature's update goes through ``wrap(name, "update", function)`` (see
        :meth:`roshambo.engine.lineup.LineUp.instrument`); a name in brackets, which no
        predictor's is."""
        self._updates = [wrap(f"[{feature.name}]", "update", feature.update) for feature in self]
