"""The fCC shim ``RPS.player(prev_play, opponent_history=[])`` over one Agent.

Its mutable default holds the one engine (``RPS.player.__defaults__[0]``). Tests swap a
seeded Agent into that list so that a match can be compared with a seeded twin, and put
back whatever was there afterwards, since pytest also runs ``test_module.py`` in this process.
The fCC bots in ``RPS_game`` keep state too, so only local scripted opponents (and the
stateless ``kris``) are played here.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import random
import re
from collections.abc import Callable, Iterator, Sequence

import pytest

import RPS
import RPS_game
from roshambo.engine.agent import Agent
from roshambo.engine.moves import LETTERS
from roshambo.engine.predictors import PREDICTORS, Factory

BAD_NON_STRINGS: list[object] = [None, 1, 0, 1.0, [], ["R"], b"R", ("R",), True]
BAD_STRINGS = ["X", "r", "p", " ", "R ", " R", "RR", "rock", "\n", "R\n"]


@pytest.fixture
def engine_slot() -> Iterator[list]:
    """The shim's state list; its content is restored after the test."""
    slot = RPS.player.__defaults__[0]
    saved = list(slot)
    yield slot
    slot[:] = saved


# the line-up without the carried-over models, which a new match keeps (see Agent.new_match)
UNCARRIED = {name: make for name, make in PREDICTORS.items() if not name.startswith("carried-")}


def install(slot: list, seed: int, factories: dict[str, Factory] | None = None) -> random.Random:
    """Put a fresh seeded Agent (``factories``: its line-up) in the shim; return its rng."""
    rng = random.Random(seed)
    slot[:] = [Agent(rng, factories=factories)]
    return rng


def cycle_bot(pattern: str) -> Callable[[str], str]:
    """A local, stateful-per-instance opponent: plays ``pattern`` over and over."""
    count = [0]

    def bot(prev: str) -> str:
        count[0] += 1
        return pattern[(count[0] - 1) % len(pattern)]

    return bot


def reference(
    seed: int, their_moves: Sequence[str], factories: dict[str, Factory] | None = None
) -> list[str]:
    """What a fresh Agent(Random(seed)) plays in a match where the opponent plays these."""
    agent = Agent(random.Random(seed), factories=factories)
    ours = [LETTERS[agent.move(None)]]
    for letter in their_moves[:-1]:
        ours.append(LETTERS[agent.move(LETTERS.index(letter))])
    return ours


def shim_match(their_moves: Sequence[str], bad_at: dict[int, object] | None = None) -> list[str]:
    """Drive the shim through a match; before call i, also make the bad call bad_at[i]."""
    bad_at = bad_at or {}
    ours = []
    prev = ""
    for i, theirs in enumerate(their_moves):
        if i in bad_at:
            with pytest.raises((TypeError, ValueError)):
                RPS.player(bad_at[i])
        ours.append(RPS.player(prev))
        prev = theirs
    return ours


def random_letters(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice("RPS") for _ in range(count)]


def _names_the_accepted_ones(message: str) -> bool:
    return all(token in message for token in ('"R"', '"P"', '"S"', '""'))


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", BAD_NON_STRINGS)
def test_non_string_raises_type_error_naming_the_value(engine_slot: list, bad: object) -> None:
    install(engine_slot, 1)
    with pytest.raises(TypeError, match=re.escape(repr(bad))) as error:
        RPS.player(bad)
    assert _names_the_accepted_ones(str(error.value)), str(error.value)


@pytest.mark.parametrize("bad", BAD_STRINGS)
def test_other_string_raises_value_error_naming_the_value(engine_slot: list, bad: str) -> None:
    install(engine_slot, 1)
    with pytest.raises(ValueError, match=re.escape(repr(bad))) as error:
        RPS.player(bad)
    assert _names_the_accepted_ones(str(error.value)), str(error.value)


@functools.cache
def undisturbed(seed: int, their_seed: int, rounds: int) -> tuple[str, ...]:
    """``reference`` of a random opponent, played once and shared by the cases that ask."""
    return tuple(reference(seed, random_letters(their_seed, rounds)))


@pytest.mark.parametrize("bad", BAD_NON_STRINGS + BAD_STRINGS)
@pytest.mark.parametrize("at", [0, 1, 2, 60])
def test_match_continues_as_if_the_bad_call_never_happened(
    engine_slot: list, bad: object, at: int
) -> None:
    theirs = random_letters(2, 100)
    install(engine_slot, 3)
    assert tuple(shim_match(theirs, {at: bad})) == undisturbed(3, 2, 100)


def test_many_bad_calls_in_a_match_change_nothing(engine_slot: list) -> None:
    theirs = random_letters(4, 200)
    bad_calls = list(BAD_NON_STRINGS + BAD_STRINGS)
    install(engine_slot, 5)
    assert shim_match(theirs, dict(zip(range(0, 200, 9), bad_calls))) == reference(5, theirs)


def test_a_bad_first_call_creates_no_engine(engine_slot: list) -> None:
    engine_slot[:] = []
    for bad in BAD_NON_STRINGS + BAD_STRINGS:
        with pytest.raises((TypeError, ValueError)):
            RPS.player(bad)
    assert engine_slot == []
    assert RPS.player("") in ("R", "P", "S")
    assert len(engine_slot) == 1 and isinstance(engine_slot[0], Agent)


@pytest.mark.parametrize("first", ["R", "P", "S"])
def test_a_first_call_with_a_move_starts_a_match(engine_slot: list, first: str) -> None:
    engine_slot[:] = []
    assert RPS.player(first) in ("R", "P", "S")
    assert engine_slot[0].rounds == 0
    theirs = random_letters(23, 100)
    install(engine_slot, 24)
    ours = [RPS.player(first)]  # a fresh engine that never moved: this call starts the match
    prev = theirs[0]
    for letter in theirs[1:]:
        ours.append(RPS.player(prev))
        prev = letter
    assert ours == reference(24, theirs)


def test_bad_call_leaves_the_os_seeded_engine_exactly_as_it_was(engine_slot: list) -> None:
    """Without swapping in a seed: a deep copy of the real engine before the bad call plays
    exactly what the shim plays after it."""
    engine_slot[:] = []
    theirs = random_letters(6, 120)
    prev = ""
    for letter in theirs[:40]:
        RPS.player(prev)
        prev = letter
    snapshot = copy.deepcopy(engine_slot[0])
    with pytest.raises(ValueError):
        RPS.player("r")
    for letter in theirs[40:]:
        assert RPS.player(prev) == LETTERS[snapshot.move(LETTERS.index(prev))]
        prev = letter


# --- a new match on "": as a fresh engine's, but for the carried-over models -------------------


@pytest.mark.parametrize("cut_at", [0, 1, 2, 7, 100, 1000])
def test_a_new_match_forgets_all_but_the_carried_models_after_a_match_cut_short(
    engine_slot: list, cut_at: int
) -> None:
    rng = install(engine_slot, 7, UNCARRIED)
    if cut_at:
        shim_match(random_letters(8, cut_at))
    rng.seed(9)  # the engine's own random stream, restarted: the rest must be as fresh
    theirs = random_letters(10, 200)
    assert shim_match(theirs) == reference(9, theirs, UNCARRIED)
    assert engine_slot[0].rounds == 199


def test_a_new_match_forgets_all_but_the_carried_models_after_zero_games(engine_slot: list) -> None:
    rng = install(engine_slot, 11, UNCARRIED)
    RPS.player("")
    RPS.player("")
    rng.seed(12)
    theirs = random_letters(13, 100)
    assert shim_match(theirs) == reference(12, theirs, UNCARRIED)


def test_a_new_match_forgets_all_but_the_carried_models_after_a_crashed_match(
    engine_slot: list, capsys
) -> None:
    def crashing(prev: str, calls: list = []) -> str:  # noqa: B006 - the fCC bot shape
        calls.append(prev)
        if len(calls) == 30:
            raise RuntimeError("the opponent crashed")
        return "RPPS"[len(calls) % 4]

    rng = install(engine_slot, 14, UNCARRIED)
    with pytest.raises(RuntimeError):
        RPS_game.play(RPS.player, crashing, 100)
    rng.seed(15)
    theirs = random_letters(16, 100)
    assert shim_match(theirs) == reference(15, theirs, UNCARRIED)


def test_a_new_match_forgets_all_but_the_carried_models_after_bad_input_mid_match(
    engine_slot: list,
) -> None:
    rng = install(engine_slot, 17, UNCARRIED)
    shim_match(random_letters(18, 50))
    with pytest.raises(ValueError):
        RPS.player("X")
    rng.seed(19)
    theirs = random_letters(20, 100)
    assert shim_match(theirs) == reference(19, theirs, UNCARRIED)


def test_play_through_the_fcc_game_matches_the_reference(engine_slot: list, capsys) -> None:
    install(engine_slot, 21)
    ours: list[str] = []

    def recorded(prev: str) -> str:
        ours.append(RPS.player(prev))
        return ours[-1]

    RPS_game.play(recorded, cycle_bot("RRPSSP"), 200)
    assert ours == reference(21, [("RRPSSP")[i % 6] for i in range(200)])
    assert "Player 1 win rate" in capsys.readouterr().out


def test_one_engine_object_is_kept_across_matches(engine_slot: list, capsys) -> None:
    engine_slot[:] = []
    RPS_game.play(RPS.player, RPS_game.kris, 50)
    engine = engine_slot[0]
    RPS_game.play(RPS.player, cycle_bot("RPS"), 50)
    assert engine_slot == [engine]
    assert engine.rounds == 49


def test_beats_kris_through_the_shim(engine_slot: list) -> None:
    engine_slot[:] = []
    with contextlib.redirect_stdout(io.StringIO()):
        rate = RPS_game.play(RPS.player, RPS_game.kris, 1000)
    assert rate >= 99.0, f"{rate:.2f}% against kris"


def test_output_is_always_a_letter(engine_slot: list) -> None:
    engine_slot[:] = []
    prev = ""
    for letter in random_letters(22, 300):
        out = RPS.player(prev)
        assert type(out) is str and out in ("R", "P", "S")
        prev = letter


@pytest.mark.parametrize("history", [["R", "P"], [None], [0]])
def test_a_list_of_ones_own_is_refused_by_name_and_left_alone(history: list) -> None:
    before = list(history)
    with pytest.raises(TypeError, match=re.escape(f"not {history[0]!r}")):
        RPS.player("R", history)
    assert history == before


@pytest.mark.parametrize("history", [(), None, {}, "", ("x",)])
def test_state_that_is_not_a_list_is_refused_by_name(history: object) -> None:
    with pytest.raises(TypeError, match=re.escape(f"not {history!r}")):
        RPS.player("R", history)


def test_a_fresh_list_of_ones_own_holds_a_match(engine_slot: list) -> None:
    mine: list = []
    assert RPS.player("", mine) in LETTERS and isinstance(mine[0], Agent)
    assert RPS.player("R", mine) in LETTERS and len(mine) == 1
