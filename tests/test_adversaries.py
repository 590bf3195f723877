"""The adversaries that model us (issue 18): scripted behaviour of each idea.

How much each one takes from our engine is the arena's measurement (``python -m roshambo
headtohead ...``), not a test; here each idea is pinned on small scripted games.
"""

from __future__ import annotations

import random

import pytest

from roshambo.engine.agent import Agent
from roshambo.engine.ensemble import Ensemble, EnsembleConfig
from roshambo.engine.moves import Move, beats, outcome
from roshambo.opponents import (
    BanditEnsemble,
    CopyAttacker,
    EngineCopy,
    EngineVariant,
    HedgeReader,
    ModernMatcher,
)
from roshambo.opponents.modern import LatestContext


def duel(first, second, rounds: int) -> list[tuple[Move, Move]]:
    """A match: each side sees the other's previous move."""
    history: list[tuple[Move, Move]] = []
    a_last: Move | None = None
    b_last: Move | None = None
    for _ in range(rounds):
        a, b = first.move(b_last), second.move(a_last)
        history.append((a, b))
        a_last, b_last = a, b
    return history


def score(history: list[tuple[Move, Move]], since: int = 0) -> int:
    """The first side's wins minus losses from round ``since`` on."""
    return sum(outcome(a, b) for a, b in history[since:])


class Cycle:
    """Plays a fixed string of moves over and over."""

    name = "cycle"

    def __init__(self, script: str) -> None:
        self._moves = ["RPS".index(c) for c in script]
        self.reset()

    def reset(self) -> None:
        self._i = 0

    def move(self, their_last: Move | None) -> Move:
        move = self._moves[self._i % len(self._moves)]
        self._i += 1
        return move


class BeatsTheirLast:
    """Plays what beats the other side's previous move (a reaction a matcher must rotate to)."""

    name = "beats-their-last"

    def reset(self) -> None:
        """Stateless."""

    def move(self, their_last: Move | None) -> Move:
        return 0 if their_last is None else beats(their_last)


# --- the index behind the matchers ---------------------------------------------------------


def test_latest_context_finds_the_longest_earlier_match_and_what_followed() -> None:
    index = LatestContext(4)
    for symbol in "abcab":
        index.append(symbol)
    assert index.longest_match() == 2  # "ab" at 0-1, followed by position 2 ("c")
    assert index.follower(2) == 2 and index.follower(1) == 2 and index.follower(3) is None
    index.append("c")
    assert index.longest_match() == 3 and index.follower(3) == 3  # "abc", then "a" at 3
    with pytest.raises(ValueError, match="0"):
        LatestContext(0)


def test_latest_context_keeps_the_latest_occurrence() -> None:
    index = LatestContext(3)
    for symbol in "abxaby":
        index.append(symbol)
    index.append("a")
    index.append("b")
    assert index.longest_match() == 2 and index.follower(2) == 5  # "ab" last followed by "y"


# --- the modern history matcher ---------------------------------------------------------------


@pytest.mark.parametrize("script", ["RPS", "RRPSPS", "RPPSSRSP"])
def test_modern_matcher_learns_a_cycle(script: str) -> None:
    history = duel(ModernMatcher(random.Random(1)), Cycle(script), 300)
    assert score(history, since=100) >= 190


def test_modern_matcher_rotates_against_a_reaction_to_its_own_moves() -> None:
    history = duel(ModernMatcher(random.Random(2)), BeatsTheirLast(), 300)
    assert score(history, since=100) >= 190


def test_modern_matcher_plays_at_random_when_it_is_read() -> None:
    """Shadowed by a copy of itself (deterministic unless losing), it would lose every round
    without its random fallback; with it, it loses a small share of them."""
    attacker = CopyAttacker(random.Random(3), engine=ModernMatcher)
    history = duel(ModernMatcher(random.Random(4)), attacker, 1000)
    assert score(history) > -250


# --- the bandit ensemble --------------------------------------------------------------------


@pytest.mark.parametrize("script", ["R", "RPS", "RRPSPS"])
def test_bandit_ensemble_learns_simple_bots(script: str) -> None:
    history = duel(BanditEnsemble(random.Random(5)), Cycle(script), 300)
    assert score(history, since=100) >= 160


def test_bandit_ensemble_beats_a_reaction_to_its_own_moves() -> None:
    history = duel(BanditEnsemble(random.Random(6)), BeatsTheirLast(), 300)
    assert score(history, since=100) >= 160


def test_bandit_ensemble_plays_at_random_with_no_winning_arm() -> None:
    """Before any arm has a record, the move is the rng's, not a fixed rule's."""
    assert {BanditEnsemble(random.Random(seed)).move(None) for seed in range(20)} == {0, 1, 2}


# --- the hedge-reader -------------------------------------------------------------------------


class HedgingRotator:
    """Fake engine: intends its own last move + 1, plays it unless a draw (chance ``hedge``)
    sends it to random play; it says what it intended."""

    name = "hedging-rotator"

    def __init__(self, rng: random.Random | None = None, hedge: float = 0.5) -> None:
        self._rng = rng if rng is not None else random.Random()
        self._hedge = hedge
        self.reset()

    def reset(self) -> None:
        self._mine: Move | None = None
        self._last: Move | None = None
        self._intended: Move | None = None

    def observe(self, mine: Move, theirs: Move) -> None:
        self._mine = mine

    def choose(self) -> Move:
        self._intended = 0 if self._mine is None else (self._mine + 1) % 3
        hedged = self._rng.random() < self._hedge
        self._last = self._rng.randrange(3) if hedged else self._intended
        return self._last

    def intended(self) -> Move | None:
        return self._intended

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None and self._last is not None:
            self.observe(self._last, their_last)
        return self.choose()


def test_hedge_reader_beats_the_intended_move_through_the_hedge() -> None:
    """Against an engine hedging half the time, the copy-attacker wins about a quarter of the
    rounds net ((1 - h) ** 2), the hedge-reader about half (1 - h)."""
    copy = score(
        duel(
            CopyAttacker(random.Random(8), engine=HedgingRotator),
            HedgingRotator(random.Random(9)),
            2000,
        )
    )
    reader = score(
        duel(
            HedgeReader(random.Random(8), engine=HedgingRotator),
            HedgingRotator(random.Random(9)),
            2000,
        )
    )
    assert 350 < copy < 650
    assert 850 < reader < 1150


def test_hedge_reader_needs_an_engine_that_says_what_it_intended() -> None:
    from tests.test_opponents import SelfRotator

    with pytest.raises(ValueError, match="intended"):
        HedgeReader(random.Random(10), engine=SelfRotator)


def test_intended_move_is_what_an_engine_that_never_hedges_plays() -> None:
    """The deterministic part of our engine does not depend on its trust record: a twin that
    always trusts plays exactly the move the hedging engine intended, every round."""
    engine = Ensemble(random.Random(11))
    twin = Ensemble(
        random.Random(12),
        config=EnsembleConfig(
            trust_prior=(1e9, 1.0),
            prior_fading=1.0,
            hedge_threshold=-1e9,
            beaten_run=0,
            exposure_run=0,
        ),
    )
    opponent = random.Random(13)
    hedged = 0
    assert engine.intended_move() is None
    for _ in range(300):
        move = engine.choose_move()
        intended = engine.intended_move()
        planned = twin.choose_move()
        if engine.last_choice().hedging:
            hedged += 1
        else:
            assert intended == move
        if intended is not None:
            assert intended == planned
        theirs = opponent.randrange(3)
        engine.observe(move, theirs)
        twin.observe(move, theirs)
    assert hedged > 10


# --- self-play ------------------------------------------------------------------------------


def test_engine_copy_is_our_engine_with_its_own_seed_and_a_new_match_on_none() -> None:
    """Move for move our engine with the same seed; ``None`` after a match starts another,
    as ``new_match()`` does for the engine (carried models and all)."""
    copy, agent = EngineCopy(random.Random(15)), Agent(random.Random(15))
    for match in range(2):
        if match:
            agent.new_match()
        mine, theirs = [], []
        last: Move | None = None
        moves = random.Random(14 + match)  # one generator a match: random moves, not a constant
        for move in [moves.randrange(3) for _ in range(200)]:
            mine.append(copy.move(last))
            theirs.append(agent.move(last))
            last = move
        assert mine == theirs


def test_engine_variant_is_configured_otherwise() -> None:
    assert EngineVariant.CONFIG is not None and EngineVariant.CONFIG != EnsembleConfig()
    assert EngineVariant.CONFIG.windows != EnsembleConfig().windows
