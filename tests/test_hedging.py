"""The hedging rules: each owns its state, and a decision says which rule sent it to random
play."""

from __future__ import annotations

import random

from roshambo.engine.ensemble import Ensemble, EnsembleConfig
from roshambo.engine.hedging import BeatenRun, Exposure, Hedge, LosingRecord, ThompsonTrust
from roshambo.engine.moves import NO_MOVE
from roshambo.opponents import make_opponent


def hedge(**changes: object) -> Hedge:
    config = EnsembleConfig(**changes)  # type: ignore[arg-type]
    return Hedge(
        LosingRecord(config.hedge_threshold),
        BeatenRun(config.beaten_run),
        ThompsonTrust(
            config.trust_decay,
            config.trust_prior,
            config.prior_fading,
            config.trust_bar,
            config.trust_floor,
            config.tenure_rounds,
        ),
        Exposure(config.exposure_run, config.trust_decay),
        config.tie_fading,
    )


def test_a_silent_or_losing_choice_is_not_followable() -> None:
    rules = hedge()
    rng = random.Random(1)
    assert rules.verdict(rng, NO_MOVE, 10.0, 0, 0) == (False, False, "losing")
    assert rules.verdict(rng, 0, -3.5, 0, 0) == (False, False, "losing")
    assert rules.followed is False


def test_a_beaten_run_stops_following_until_the_choice_is_not_beaten() -> None:
    rules = hedge()
    rng = random.Random(2)
    for rounds in range(3):  # the opponent beats our choice (rock) three times running
        rules.verdict(rng, 0, 5.0, rounds, 0)
        rules.observe(0, 1, 0, rounds)
    assert rules.beaten.doubted
    assert rules.verdict(rng, 0, 5.0, 3, 0) == (True, False, "beaten-run")
    assert rules.exact_verdict() == (False, "beaten-run")
    rules.observe(0, 2, 0, 3)  # not beaten: the run ends, the doubt stays for the match
    assert rules.beaten.allows() and rules.beaten.doubted
    assert rules.exact_verdict() == (True, "")


def test_a_record_of_wins_is_followed_without_a_draw() -> None:
    rules = hedge()
    calls = []

    class Counting(random.Random):
        def betavariate(self, alpha: float, beta: float) -> float:
            calls.append((alpha, beta))
            return super().betavariate(alpha, beta)

    rng = Counting(3)
    for rounds in range(200):  # our choice (paper) beats their rock every round
        followable, followed, why = rules.verdict(rng, 1, 5.0, rounds, 1)
        rules.observe(1, 0, 1, rounds)
    assert (followable, followed, why) == (True, True, "")
    calls.clear()
    assert rules.verdict(rng, 1, 5.0, 200, 1) == (True, True, "")
    assert calls == []  # sure by Hoeffding's bound: no draw taken, exposure not losing


def test_hedged_rounds_fill_the_record_to_its_capacity_and_no_further() -> None:
    trust = ThompsonTrust(0.98, (5.0, 1.0), 0.99, 0.5, 0.1, 5)
    for _ in range(500):
        trust.observe(1.0, False, followed=False)
    assert abs(trust.wins + trust.losses - 50.0) < 1e-9  # 1 / (1 - 0.98)


def test_a_choice_says_which_rule_hedged_it() -> None:
    losing = Ensemble(random.Random(4), config=EnsembleConfig(hedge_threshold=1e9))
    choice = losing.choose()
    assert choice.hedging and choice.hedge == "losing"
    engine = Ensemble(random.Random(5))
    rock = make_opponent("rockbot", random.Random(6))
    last = None
    for _ in range(60):
        theirs = rock.move(last)
        choice = engine.choose()
        engine.observe(choice.move, theirs)
        last = choice.move
    assert not engine.choose().hedging and engine.last_choice().hedge == ""  # type: ignore[union-attr]
