"""The engine against a seeded sample of the fCC bots' relatives: 99% of decisive games in a
fresh match and in a second one where the bot carries its state (rounds 1000-1999 of its
life), as the fCC bar asks of the four bots themselves; against noisy members, within a
point of the best achievable rate in the same match.

The sample is one or two members of each family that the engine meets with margin to spare
(the benchmark, ``benchmarks/relatives.py``, sweeps the whole grid and reports every member
still under the bar): the test guards what has been reached, so a change to the engine that
breaks it fails here, seeded and in seconds.
"""

from __future__ import annotations

import random

import pytest

from roshambo.engine.agent import Agent
from roshambo.opponents import make_opponent
from roshambo.opponents.relatives import Noisy

SAMPLE = [
    "counter:window=20,target=most,tie=last",
    "counter:window=6,target=most,tie=last",
    "counter:window=25,target=least,tie=last",
    "counter:window=all,target=most,tie=SPR",
    "counter:window=50,target=most,tie=SPR",
    "context:k=2,decay=0.8,rotation=1",
    "context:k=1,decay=0.8,rotation=1",
    "context:k=3,decay=0.99,rotation=1",
    "context:k=3,decay=0.8,rotation=2",
    "context:k=3,decay=1,rotation=0",
    # orders above the grid's 1-6, read by the same predictor's trie of longer contexts
    "context:k=7,decay=1,rotation=0",
    "context:k=8,decay=0.8,rotation=2",
    "context:k=12,decay=0.9,rotation=1",
    "context:k=20,decay=1,rotation=0",
    "context:k=32,decay=0.95,rotation=0",
    "reaction:lag=2,mode=lose",
    "reaction:lag=3,mode=beat",
    "reaction:lag=1,mode=copy",
    "cycle:pattern=SSSRSP",
    "switcher:period=200,seed=2",
]


def decisive_games(spec: str) -> list[tuple[int, int, int, int]]:
    """Our wins and losses in two 1000-game matches against one instance of ``spec``: fresh,
    then the bot carrying its state into the second match, which the engine starts with
    ``new_match`` (as ``RPS.player`` does); then, against a noisy member, the wins and losses
    of a player beating its rule every round, over the same noise (0, 0 otherwise)."""
    bot = make_opponent(spec, random.Random(1))
    engine = Agent(random.Random(100))
    records = []
    for _match in range(2):
        engine.new_match()
        wins = losses = best_wins = best_losses = 0
        ours = theirs = None
        for _ in range(1000):
            a, b = engine.move(theirs), bot.move(ours)
            wins += (a - b) % 3 == 1
            losses += (a - b) % 3 == 2
            if isinstance(bot, Noisy):
                assert bot.rule_move is not None
                best_wins += (bot.rule_move + 1 - b) % 3 == 1
                best_losses += (bot.rule_move + 1 - b) % 3 == 2
            ours, theirs = a, b
        records.append((wins, losses, best_wins, best_losses))
    return records


@pytest.mark.parametrize("spec", SAMPLE)
def test_engine_wins_99_percent_of_decisive_games_fresh_and_carrying_state(spec: str) -> None:
    for match, (wins, losses, _, _) in enumerate(decisive_games(spec)):
        assert wins / (wins + losses) >= 0.99, (spec, match, wins, losses)


# Noisy members: the target is within 1 point of the best achievable rate, which in
# one match is the rate of a player beating the member's rule every round against the same
# random moves (the noise draws do not depend on what the other side plays); the expectation
# best_rate(noise) is no bar for one match, whose noise alone moves the rate by about a point.
# A sample from every family but the switchers, at 10% and 20% noise, on the fresh match and
# the carrying-state one, where the bot's counts include a match the engine never saw.
NOISY_SAMPLE = [
    "context:k=1,decay=1,rotation=0,noise=0.1",
    "context:k=2,decay=1,rotation=0,noise=0.1",
    "context:k=3,decay=0.9,rotation=0,noise=0.1",
    "counter:window=all,target=least,tie=first,noise=0.1",
    "counter:window=5,target=least,tie=first,noise=0.2",
    "reaction:lag=2,mode=beat,noise=0.1",
    "reaction:lag=1,mode=beat,noise=0.2",
    "cycle:pattern=RPPS,noise=0.1",
]
NOISY_SHORTFALL = 1.0  # points below the rule beater's rate, on average over the matches
MATCH_SHORTFALL = 1.5  # and in any one match (one game is about 0.1 point)


@pytest.mark.parametrize("spec", NOISY_SAMPLE)
def test_engine_is_within_a_point_of_the_best_achievable_against_noisy_members(spec: str) -> None:
    """The issue's target, as benchmarks/relatives.py measures it: the shortfall averaged over
    the fresh match and the carrying-state one; no single match much further behind."""
    share = float(spec.split(",noise=")[1])
    shortfalls = []
    for match, (wins, losses, best_wins, best_losses) in enumerate(decisive_games(spec)):
        shortfall = 100 * (best_wins / (best_wins + best_losses) - wins / (wins + losses))
        shortfalls.append(shortfall)
        assert shortfall <= MATCH_SHORTFALL, (
            spec,
            match,
            wins,
            losses,
            best_wins,
            best_losses,
            shortfall,
        )
        # the rule beater's record is the noise's: its losses are about a third of it
        assert abs(best_losses - 1000 * share / 3) < 30, (spec, match, best_losses)
    assert sum(shortfalls) / len(shortfalls) <= NOISY_SHORTFALL, (spec, shortfalls)
