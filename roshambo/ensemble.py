"""The Iocaine Powder meta-strategy (Egnor 1999), over an ensemble of predictors.

Every predictor P yields six strategies. P predicts the opponent's move p: P.k plays
``p + 1 + k`` (k = 0 beats the prediction, k = 1 and 2 second-guess an opponent who saw it
coming). Its mirrored twin P' runs on the swapped histories and predicts *our* move q, as an
opponent modelling us would; that opponent plays ``q + 1``, so P'.k plays ``q + 2 + k``.

Each strategy is scored every round as if it had been played (+1 win, -1 loss, 0 tie),
under several horizons (exponential decays, O(1) per round). Per horizon, a meta-strategy
plays the best-scoring strategy's move; the meta-meta level scores those meta-strategies
the same way and follows the best one.

Random play is the hedge, taken in two cases. When even the best meta-strategy's record is
poor, nothing is worth following. And when what we *actually* won with our deterministic
choices falls short of what they were scored at: an opponent that simulates us (holding
our code, not our random seed) beats exactly those choices, while the scores computed as if
had been played look fine. The realized record of deterministic rounds is kept as decayed
wins and losses; each round we follow the meta-meta choice with the probability that a
draw from Beta(wins + 2, losses + 1) exceeds 1/2 (Thompson 1933), and play at random
otherwise. Against anything we really beat, that probability goes to 1 within a few rounds.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .moves import Move
from .predictors import PREDICTORS, Factory, Predictor

NO_MOVE = 3  # a strategy whose predictor has nothing to say this round
# REWARD[their][mine]: +1 win, -1 loss, 0 tie; a strategy with NO_MOVE earns 0
REWARD = tuple(
    tuple(((mine - their + 1) % 3) - 1 if mine < 3 else 0 for mine in range(4)) for their in range(3)
)


@dataclass(frozen=True)
class EnsembleConfig:
    """Tunable constants of the meta levels."""

    horizons: tuple[float, ...] = (0.99, 0.9, 0.7, 0.5)
    meta_decay: float = 0.9
    hedge_threshold: float = 0.0
    trust_decay: float = 0.98
    trust_prior: tuple[float, float] = (2.0, 1.0)

    def __post_init__(self) -> None:
        if not self.horizons or not all(0.0 < h <= 1.0 for h in self.horizons):
            raise ValueError(f"invalid horizons {self.horizons!r}: expected decays in (0, 1]")
        for name in ("meta_decay", "trust_decay"):
            value = getattr(self, name)
            if not 0.0 < value <= 1.0:
                raise ValueError(f"invalid {name} {value!r}: expected a decay in (0, 1]")
        if len(self.trust_prior) != 2 or min(self.trust_prior) <= 0:
            raise ValueError(f"invalid trust_prior {self.trust_prior!r}: expected two positive numbers")


@dataclass(frozen=True)
class Choice:
    """One round's decision, with what led to it."""

    move: Move
    strategy: str
    horizon: float
    score: float
    hedging: bool


class Ensemble:
    """Predictors x six strategies x horizons x meta-meta, with a random hedge."""

    def __init__(
        self,
        rng: random.Random | None = None,
        factories: dict[str, Factory] | None = None,
        config: EnsembleConfig | None = None,
    ) -> None:
        self._rng = rng if rng is not None else random.Random()
        self._factories = dict(PREDICTORS if factories is None else factories)
        if not self._factories:
            raise ValueError("an ensemble needs at least one predictor")
        self.config = config if config is not None else EnsembleConfig()
        probe = random.Random(0)
        selectable = {name: getattr(make(probe), "selectable", True) for name, make in self._factories.items()}
        if not any(selectable.values()):
            raise ValueError("an ensemble needs at least one selectable predictor")
        # selectable predictors first, so the meta-strategy's argmax runs over a prefix
        order = sorted(self._factories, key=lambda name: not selectable[name])
        self._factories = {name: self._factories[name] for name in order}
        self._selectable = 6 * sum(selectable.values())
        self.strategy_names = tuple(
            f"{name}{mark}.{k}" for name in self._factories for mark in ("", "'") for k in range(3)
        )
        self.reset()

    def reset(self) -> None:
        rng = self._rng
        self._direct: list[Predictor] = [make(rng) for make in self._factories.values()]
        self._mirror: list[Predictor] = [make(rng) for make in self._factories.values()]
        n = len(self.strategy_names)
        horizons = len(self.config.horizons)
        self._plays: list[int] = [NO_MOVE] * n
        self._scores: list[list[float]] = [[0.0] * n for _ in range(horizons)]
        self._meta_plays: list[int] = [NO_MOVE] * horizons
        self._meta_best: list[int] = [0] * horizons
        self._meta_scores: list[float] = [0.0] * horizons
        self._trusted = False  # whether the last move followed the meta-meta choice
        self._wins = 0.0  # decayed realized record of the trusted rounds
        self._losses = 0.0

    def observe(self, mine: Move, theirs: Move) -> None:
        """Score every strategy and meta-strategy on the round just played, then learn it."""
        reward = REWARD[theirs]
        if self._trusted:
            decay = self.config.trust_decay
            result = reward[mine]
            self._wins = decay * self._wins + (result > 0)
            self._losses = decay * self._losses + (result < 0)
        rewards = [reward[play] for play in self._plays]
        for h, decay in enumerate(self.config.horizons):
            self._scores[h] = [decay * s + r for s, r in zip(self._scores[h], rewards)]
        meta_decay = self.config.meta_decay
        self._meta_scores = [
            meta_decay * s + reward[play] for s, play in zip(self._meta_scores, self._meta_plays)
        ]
        for predictor in self._direct:
            predictor.update(mine, theirs)
        for predictor in self._mirror:
            predictor.update(theirs, mine)
        plays = self._plays
        i = 0
        for direct, mirror in zip(self._direct, self._mirror):
            p = direct.predict()
            if p is None:
                plays[i] = plays[i + 1] = plays[i + 2] = NO_MOVE
            else:
                plays[i] = (p + 1) % 3
                plays[i + 1] = (p + 2) % 3
                plays[i + 2] = p
            q = mirror.predict()
            if q is None:
                plays[i + 3] = plays[i + 4] = plays[i + 5] = NO_MOVE
            else:
                plays[i + 3] = (q + 2) % 3
                plays[i + 4] = q
                plays[i + 5] = (q + 1) % 3
            i += 6

    def choose(self) -> Choice:
        """Pick this round's move: best strategy per horizon, best horizon, or the hedge."""
        plays = self._plays
        selectable = self._selectable
        for h, scores in enumerate(self._scores):
            best = scores.index(max(scores[:selectable]))
            if plays[best] == NO_MOVE:
                candidates = [i for i in range(selectable) if plays[i] != NO_MOVE]
                best = max(candidates, key=scores.__getitem__) if candidates else best
            self._meta_best[h] = best
            self._meta_plays[h] = plays[best]
        meta = self._meta_scores
        top = meta.index(max(meta))
        move = self._meta_plays[top]
        trusted = move != NO_MOVE and meta[top] > self.config.hedge_threshold
        if trusted:
            alpha, beta = self.config.trust_prior
            trusted = self._rng.betavariate(self._wins + alpha, self._losses + beta) > 0.5
        if not trusted:
            move = self._rng.randrange(3)
        self._trusted = trusted
        return Choice(
            move=move,
            strategy=self.strategy_names[self._meta_best[top]],
            horizon=self.config.horizons[top],
            score=meta[top],
            hedging=not trusted,
        )
