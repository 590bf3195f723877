"""The hedge: whether to follow the meta levels' choice this round, or play at random.

An opponent that simulates us (holding our code, not our random seed) beats exactly our
deterministic choices, while the scores computed as if every strategy had been played look
fine. So the hedge keeps the record of what our deterministic choice actually won, and each
rule below answers "follow, or a coin, and why" from its own state. :class:`Hedge` asks them
in order; the first that says no names the reason (``Choice.hedge``). Why each rule is as
it is: docs/architecture.md ("The meta levels and the hedge") and docs/experiments.md.

- :class:`LosingRecord`: nothing to follow (a silent choice), or its meta score is clearly
  losing.
- :class:`BeatenRun`: the opponent beat our choice ``beaten_run`` rounds running; a coin
  until it does not, and the benefit of the doubt ends for the match.
- :class:`ThompsonTrust`: a draw from Beta(wins + a, losses + b) of the choice's record must
  clear a bar (Thompson 1933), with an optimistic prior that fades; no draw where one would
  almost surely pass (Hoeffding) or almost surely fail (the normal approximation), and none
  for a choice kept ``tenure_rounds`` running whose record's mean is below the bar.
- :class:`Exposure`: after ``exposure_run`` rounds followed running, the choice's record in
  such rounds, kept apart, must not be losing (else a draw): an opponent that learns what
  we play catches up with a choice we keep.
"""

from __future__ import annotations

import math
import random
from statistics import NormalDist

from .moves import NO_MOVE, Move

# For X ~ Beta(a, b) with integers a, b: P(X <= c) = P(Binomial(a + b - 1, c) >= a), which
# Hoeffding's inequality bounds by exp(-2 (a - c (a + b - 1)) ** 2 / (a + b - 1)); the tail
# only grows as a falls or b rises, so for real a, b the bound at floor(a), ceil(b) gives
# P(X <= c) < exp(-2 m ** 2 / (a + b)) with m = (a - 1)(1 - c) - c b > 0. Under one in a
# billion when (2 m) ** 2 > SURE * (a + b); at c = 1/2, 2 m = a - b - 1.
SURE = 2 * math.log(1e9)


def sure(alpha: float, beta: float, bar: float) -> bool:
    """Whether a draw from Beta(alpha, beta) would exceed ``bar`` but for a chance below one
    in a billion (see SURE), so that the draw can be skipped."""
    twice = 2.0 * ((alpha - 1.0) * (1.0 - bar) - bar * beta)
    return twice > 0.0 and twice * twice > SURE * (alpha + beta)


def hopeless(alpha: float, beta: float, bar: float, z: float) -> bool:
    """Whether the normal approximation to Beta(alpha, beta) puts ``bar`` more than ``z``
    standard deviations above the mean (z <= 0: never), so that a draw is not taken."""
    n = alpha + beta
    gap = bar - alpha / n
    # gap > z * sd, with sd ** 2 = alpha * beta / (n ** 2 * (n + 1))
    return z > 0.0 and gap > 0.0 and gap * gap * n * n * (n + 1.0) > z * z * alpha * beta


class LosingRecord:
    """Follow only a choice that names a move and whose meta score is above ``threshold``."""

    name = "losing"

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold

    def allows(self, move: int, score: float) -> bool:
        return move != NO_MOVE and score > self.threshold


class BeatenRun:
    """A coin once the opponent has beaten our choice ``run`` rounds running (0: never),
    until it does not; reaching the run also ends the prior's benefit of the doubt."""

    name = "beaten-run"

    def __init__(self, run: int) -> None:
        self.run = run
        self.reset()

    def reset(self) -> None:
        self.beaten = 0  # rounds running in which the opponent beat our choice
        self.doubted = False  # whether the run has been reached this match

    def observe(self, lost: bool) -> None:
        self.beaten = self.beaten + 1 if lost else 0
        if 0 < self.run <= self.beaten:
            self.doubted = True

    def allows(self) -> bool:
        return not 0 < self.run <= self.beaten


class ThompsonTrust:
    """Follow if a draw from the choice's record, Beta(wins + a, losses + b), clears a bar.

    The record decays by ``decay`` in rounds we followed; hedged rounds add without ageing
    until it holds 1 / (1 - decay) rounds' worth, then are scaled back to that. The prior
    (a, b) fades from ``prior`` to (1, 1) by ``fading`` a round (at once to even, a cautious
    prior aside, once the choice was beaten ``beaten_run`` running), and the bar rises from
    1/2 to ``bar`` as it fades. No draw below ``floor`` (its chance of clearing the bar), and
    none for a choice kept ``tenure`` rounds whose record's mean is below the bar.
    """

    name = "trust"

    def __init__(
        self,
        decay: float,
        prior: tuple[float, float],
        fading: float,
        bar: float,
        floor: float,
        tenure: int,
    ) -> None:
        self.decay, self.prior, self.fading = decay, prior, fading
        self.bar, self.tenure = bar, tenure
        self.capacity = math.inf if decay == 1.0 else 1.0 / (1.0 - decay)
        # a draw is not taken beyond this many standard deviations below the bar (0: always)
        self.floor_z = NormalDist().inv_cdf(1.0 - floor) if floor > 0.0 else 0.0
        self.reset()

    def reset(self) -> None:
        self.wins = 0.0  # rounds won, and early on tied (see Hedge.observe)
        self.losses = 0.0

    def observe(self, won: float, lost: bool, followed: bool) -> None:
        if followed:
            self.wins = self.decay * self.wins + won
            self.losses = self.decay * self.losses + lost
            return
        wins, losses = self.wins + won, self.losses + lost
        if wins + losses > self.capacity:
            scale = self.capacity / (wins + losses)
            wins *= scale
            losses *= scale
        self.wins, self.losses = wins, losses

    def prior_at(self, rounds: int, doubted: bool) -> tuple[float, float, float]:
        """The prior (a, b) after ``rounds`` rounds, and how much of it is left (fading)."""
        alpha, beta = self.prior
        fading = self.fading**rounds
        alpha = 1.0 + (alpha - 1.0) * fading
        beta = 1.0 + (beta - 1.0) * fading
        if doubted:
            alpha = min(alpha, beta)  # no longer favours following (a cautious one stays)
        return alpha, beta, fading

    def allows(self, rng: random.Random, prior: tuple[float, float, float], kept: int) -> bool:
        alpha, beta, fading = prior
        alpha += self.wins
        beta += self.losses
        bar = self.bar + (0.5 - self.bar) * fading
        below = 0 < self.tenure <= kept and alpha < bar * (alpha + beta)
        return sure(alpha, beta, bar) or (
            not below
            and not hopeless(alpha, beta, bar, self.floor_z)
            and rng.betavariate(alpha, beta) > bar
        )


class Exposure:
    """After ``run`` rounds followed running (0: never), follow only if the choice's record
    in such rounds (decayed by ``decay``, with the trust prior) is not losing, or a draw
    from it clears 1/2."""

    name = "exposure"

    def __init__(self, run: int, decay: float) -> None:
        self.run, self.decay = run, decay
        self.reset()

    def reset(self) -> None:
        self.wins = 0.0
        self.losses = 0.0

    def applies(self, run: int) -> bool:
        """Whether a round after ``run`` rounds followed running is exposed."""
        return 0 < self.run <= run

    def observe(self, won: float, lost: bool, run: int) -> None:
        if self.applies(run):
            self.wins = self.decay * self.wins + won
            self.losses = self.decay * self.losses + lost

    def allows(self, rng: random.Random, prior: tuple[float, float, float], run: int) -> bool:
        if not self.applies(run):
            return True
        wins, losses = prior[0] + self.wins, prior[1] + self.losses
        return wins >= losses or rng.betavariate(wins, losses) > 0.5


class Hedge:
    """The rules, asked in order, and what they learn from each round: the record of our
    deterministic choice (in a followed round, what it won; in a hedged one, what it would
    have won, which still shows whether the opponent answered it). In the opening a tie
    counts as a win with weight ``tie_fading`` to the power of the round: an exact simulator
    never ties what it predicts, while an honest opponent ties a third of our guesses."""

    def __init__(
        self,
        losing: LosingRecord,
        beaten: BeatenRun,
        trust: ThompsonTrust,
        exposure: Exposure,
        tie_fading: float,
    ) -> None:
        self.losing, self.beaten, self.trust, self.exposure = losing, beaten, trust, exposure
        self.tie_fading = tie_fading
        self.reset()

    def reset(self) -> None:
        self.beaten.reset()
        self.trust.reset()
        self.exposure.reset()
        self.followed = False  # whether the last move followed the choice
        self.run = 0  # rounds running in which we followed it, before this one

    def observe(self, mine: Move, theirs: Move, intended: int, rounds: int) -> None:
        """Learn the round: ``intended`` is the deterministic choice (NO_MOVE: none)."""
        followed, self.followed = self.followed, False
        run = self.run
        self.run = run + 1 if followed else 0
        if not followed and intended == NO_MOVE:
            return
        result = ((mine if followed else intended) - theirs) % 3  # 1 win, 2 loss, 0 tie
        won = (result == 1) + (self.tie_fading**rounds if result == 0 else 0.0)
        lost = result == 2
        self.exposure.observe(won, lost, run)
        self.beaten.observe(lost)
        self.trust.observe(won, lost, followed)

    def verdict(
        self, rng: random.Random, move: int, score: float, rounds: int, kept: int
    ) -> tuple[bool, bool, str]:
        """Whether the choice (``move``, its meta ``score``, chosen ``kept`` rounds running)
        is worth following at all, whether to follow it this round, and if not, which rule
        said so ("" when followed)."""
        if not self.losing.allows(move, score):
            return self._said(False, False, self.losing.name)
        if not self.beaten.allows():
            return self._said(True, False, self.beaten.name)
        prior = self.trust.prior_at(rounds, self.beaten.doubted)
        if not self.trust.allows(rng, prior, kept):
            return self._said(True, False, self.trust.name)
        if not self.exposure.allows(rng, prior, self.run):
            return self._said(True, False, self.exposure.name)
        return self._said(True, True, "")

    def exact_verdict(self) -> tuple[bool, str]:
        """Whether to follow an exact model's move: only the beaten run stops it."""
        followed = self.beaten.allows()
        self.followed = followed
        return followed, "" if followed else self.beaten.name

    def _said(self, followable: bool, followed: bool, why: str) -> tuple[bool, bool, str]:
        self.followed = followed
        return followable, followed, why
