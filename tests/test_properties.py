"""Property tests (hypothesis): the shim and the Agent over arbitrary inputs.

For any sequence of valid inputs the output is a legal move; reset equals fresh; seeded runs
replay; bad input in between changes nothing; ``parse_letter`` accepts exactly "R", "P",
"S" and "". The shim's engine is swapped for a seeded Agent inside each example and put
back afterwards (pytest runs ``test_module.py`` in this process too).
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import RPS
from roshambo.engine.agent import Agent
from roshambo.engine.moves import LETTERS, Move, parse_letter
from roshambo.engine.predictors import PREDICTORS, Factory

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

letters = st.sampled_from(["R", "P", "S"])
inputs = st.sampled_from(["R", "P", "S", ""])
# an fCC match sequence: starts a match, then moves with new matches ("") anywhere
shim_calls = st.lists(inputs, max_size=150).map(lambda calls: ["", *calls])
their_moves = st.lists(st.integers(0, 2), max_size=200)
seeds = st.integers(0, 2**32 - 1)
anything = st.one_of(
    st.text(max_size=4),
    st.binary(max_size=3),
    st.integers(),
    st.none(),
    st.floats(),
    st.booleans(),
    st.lists(st.sampled_from(["R", "P", "S"]), max_size=2),
    st.tuples(st.sampled_from(["R", "P", "S"])),
)
not_a_letter = anything.filter(lambda v: not (isinstance(v, str) and v in ("R", "P", "S", "")))


@contextlib.contextmanager
def seeded_shim(seed: int, factories: dict[str, Factory] | None = None) -> Iterator[random.Random]:
    """The shim with a fresh Agent(Random(seed)) in its slot (``factories``: its line-up);
    the old content restored after."""
    slot = RPS.player.__defaults__[0]
    saved = list(slot)
    rng = random.Random(seed)
    slot[:] = [Agent(rng, factories=factories)]
    try:
        yield rng
    finally:
        slot[:] = saved


def run_shim(calls: Sequence[str]) -> list[str]:
    return [RPS.player(call) for call in calls]


def run_agent(agent: Agent, theirs: Sequence[Move]) -> list[Move]:
    ours = [agent.move(None)]
    for move in theirs:
        ours.append(agent.move(move))
    return ours


# --- the shim -----------------------------------------------------------------------------


@SETTINGS
@given(calls=st.lists(inputs, max_size=150), seed=seeds)
def test_shim_output_is_always_a_letter(calls: list[str], seed: int) -> None:
    with seeded_shim(seed):
        for out in run_shim(calls):
            assert type(out) is str and out in ("R", "P", "S")


@SETTINGS
@given(calls=shim_calls, seed=seeds)
def test_shim_seeded_runs_replay(calls: list[str], seed: int) -> None:
    with seeded_shim(seed):
        first = run_shim(calls)
    with seeded_shim(seed):
        assert run_shim(calls) == first


@SETTINGS
@given(before=shim_calls, after=shim_calls, seed=seeds)
def test_shim_new_match_equals_fresh_but_for_the_carried_models(
    before: list[str], after: list[str], seed: int
) -> None:
    """Whatever happened before, "" starts a match exactly like a fresh engine's, once the
    carried-over models (which keep what they saw, see ``Ensemble.new_match``) are left out."""
    lineup = {name: make for name, make in PREDICTORS.items() if not name.startswith("carried-")}
    with seeded_shim(seed ^ 1, lineup) as rng:
        run_shim(before)
        rng.seed(seed)
        continued = run_shim(after)
    with seeded_shim(seed, lineup):
        assert continued == run_shim(after)


@SETTINGS
@given(
    calls=shim_calls,
    junk=st.lists(st.tuples(st.integers(0, 150), not_a_letter), max_size=6),
    seed=seeds,
)
def test_shim_bad_calls_in_between_change_nothing(
    calls: list[str], junk: list[tuple[int, object]], seed: int
) -> None:
    assume(junk)
    with seeded_shim(seed):
        clean = run_shim(calls)
    bad_before: dict[int, list[object]] = {}
    for position, value in junk:  # each before one of the calls (modulo their number)
        bad_before.setdefault(position % len(calls), []).append(value)
    with seeded_shim(seed):
        noisy = []
        for i, call in enumerate(calls):
            for value in bad_before.get(i, []):
                with pytest.raises((TypeError, ValueError), match=re.escape(repr(value))):
                    RPS.player(value)
            noisy.append(RPS.player(call))
    assert noisy == clean


# --- the agent ---------------------------------------------------------------------------------


@SETTINGS
@given(theirs=their_moves, seed=seeds)
def test_agent_moves_are_always_legal(theirs: list[Move], seed: int) -> None:
    for move in run_agent(Agent(random.Random(seed)), theirs):
        assert type(move) is int and move in (0, 1, 2)


@SETTINGS
@given(theirs=their_moves, seed=seeds)
def test_agent_seeded_runs_replay(theirs: list[Move], seed: int) -> None:
    assert run_agent(Agent(random.Random(seed)), theirs) == run_agent(
        Agent(random.Random(seed)), theirs
    )


@SETTINGS
@given(before=their_moves, after=their_moves, seed=seeds)
def test_agent_reset_equals_fresh(before: list[Move], after: list[Move], seed: int) -> None:
    rng = random.Random(seed ^ 1)
    agent = Agent(rng)
    run_agent(agent, before)
    agent.reset()
    rng.seed(seed)
    assert run_agent(agent, after) == run_agent(Agent(random.Random(seed)), after)


@SETTINGS
@given(
    theirs=their_moves,
    junk=st.lists(st.tuples(st.integers(0, 200), anything), max_size=6),
    seed=seeds,
)
def test_agent_bad_moves_in_between_change_nothing(
    theirs: list[Move], junk: list[tuple[int, object]], seed: int
) -> None:
    # each bad move lands before one of the match's moves (positions taken modulo its length)
    assume(theirs)
    bad = [(i % len(theirs), v) for i, v in junk if not (type(v) is int and v in (0, 1, 2))]
    assume(bad)
    clean = run_agent(Agent(random.Random(seed)), theirs)
    agent = Agent(random.Random(seed))
    noisy = [agent.move(None)]
    for i, move in enumerate(theirs):
        for position, value in bad:
            if position == i:
                with pytest.raises(ValueError):
                    agent.move(value)  # type: ignore[arg-type]
        noisy.append(agent.move(move))
    assert noisy == clean


# --- parse_letter ------------------------------------------------------------------------------


@settings(max_examples=500, deadline=None)
@given(value=anything)
def test_parse_letter_accepts_exactly_the_four_values(value: object) -> None:
    if isinstance(value, str) and value in ("R", "P", "S", ""):
        assert parse_letter(value) == (None if value == "" else LETTERS.index(value))
        return
    with pytest.raises((TypeError, ValueError)) as error:
        parse_letter(value)
    assert error.type is (ValueError if isinstance(value, str) else TypeError)
    assert repr(value) in str(error.value)


@settings(max_examples=300, deadline=None)
@given(value=st.text(min_size=1, max_size=3))
def test_parse_letter_rejects_every_other_string(value: str) -> None:
    assume(value not in ("R", "P", "S"))
    with pytest.raises(ValueError, match=re.escape(repr(value))):
        parse_letter(value)


# --- the first call ------------------------------------------------------------------------

SHIM_FIRST_CALL = """
from RPS import player
print("".join(player(prev) for prev in ["R", "P", "S", "", "R"]))
"""


def test_shim_plays_when_the_first_call_is_a_move(run_python) -> None:
    """A process whose first call already carries a move: that call starts a match."""
    done = run_python("-c", SHIM_FIRST_CALL)
    assert done.returncode == 0, done.stderr
    out = done.stdout.strip()
    assert len(out) == 5 and set(out) <= {"R", "P", "S"}, out


@SETTINGS
@given(first=letters, calls=shim_calls, seed=seeds)
def test_a_first_call_with_a_move_plays_like_a_match_start(
    first: str, calls: list[str], seed: int
) -> None:
    """Its move answers none of ours, so it counts as "": the same moves follow."""
    with seeded_shim(seed):
        with_move = run_shim([first, *calls[1:]])
    with seeded_shim(seed):
        assert with_move == run_shim(calls)
