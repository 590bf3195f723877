"""What a match is made of and what it leaves: the player protocol, factories, forfeits and
results. The arena plays matches (:mod:`roshambo.arena.tournaments`), the run log keeps them
(:mod:`roshambo.arena.runlog`); both read these, so neither needs the other's code to do it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from ..engine.moves import Move


class Player(Protocol):
    """The opponent protocol shared by the engine, the opponents and the classic adapter."""

    name: str

    def reset(self) -> None: ...

    def move(self, their_last: Move | None) -> Move: ...


Factory = Callable[[random.Random], Player]
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Forfeit:
    """Who lost a match by forfeit, in which round (1-based), and why.

    ``cause`` is "error" (the bot raised), "illegal" (it answered something other than a
    move) or "timeout" (it took longer than its per-move limit).
    """

    player: str
    round: int
    cause: str
    error: str


@dataclass(frozen=True)
class MatchResult:
    """One match of ``n`` throws, counted from ``player``'s point of view.

    A forfeit counts the forfeiting side's round and every throw after it as lost: the
    throws played before it stand, and wins + losses + ties is still ``n``.
    """

    player: str
    opponent: str
    wins: int
    losses: int
    ties: int
    seed: int
    n: int
    rep: int = 0
    forfeit: Forfeit | None = None

    @property
    def score(self) -> int:
        """+1 per won throw, -1 per lost one."""
        return self.wins - self.losses

    @property
    def decisive(self) -> int:
        return self.wins + self.losses

    @property
    def win_rate(self) -> float:
        """fCC win rate in percent: wins / decisive throws (0 when none was decisive)."""
        return 100.0 * self.wins / self.decisive if self.decisive else 0.0

    def flipped(self) -> MatchResult:
        """The same match from the opponent's point of view."""
        return replace(
            self, player=self.opponent, opponent=self.player, wins=self.losses, losses=self.wins
        )


@dataclass(frozen=True)
class MatchSpec:
    """One scheduled match: who plays whom, which repetition, and its seed (drawn up front)."""

    player: str
    opponent: str
    rep: int
    seed: int
