"""The open_spiel classic-field adapter: protocol, both actions applied, seeded replay."""

from __future__ import annotations

import random
from functools import partial

import pytest

pytest.importorskip("pyspiel", reason="the classic field needs open_spiel: pip install open_spiel")

from roshambo.arena.classic_field import ClassicBot, bot_names  # noqa: E402
from roshambo.arena.tournaments import play_match, resolve  # noqa: E402
from roshambo.engine.agent import Agent  # noqa: E402
from roshambo.engine.moves import PAPER, ROCK, SCISSORS  # noqa: E402


def moves(bot: ClassicBot, theirs: list[int]) -> list[int]:
    """The bot's moves when the other side plays ``theirs`` (one turn per entry)."""
    out = [bot.move(None)]
    for their_move in theirs[:-1]:
        out.append(bot.move(their_move))
    return out


def test_the_field_has_43_bots() -> None:
    names = bot_names()
    assert len(names) == 43 and {"greenberg", "iocainebot", "rockbot"} <= set(names)


def test_rockbot_plays_rock_and_our_engine_beats_it() -> None:
    assert moves(ClassicBot("rockbot"), [PAPER] * 10) == [ROCK] * 10
    outcome = play_match(Agent, partial(ClassicBot, "rockbot"), 100, seed=1)
    assert outcome.score > 50


def test_copybot_sees_our_moves_so_both_actions_are_applied() -> None:
    theirs = [ROCK, PAPER, SCISSORS, SCISSORS, PAPER, ROCK, ROCK]
    bot = ClassicBot("copybot")
    played = moves(bot, theirs)
    # copybot plays what beats our previous move
    assert played[1:] == [(m + 1) % 3 for m in theirs[:-1]]


def test_rotatebot_keeps_its_own_history() -> None:
    played = moves(ClassicBot("rotatebot"), [ROCK] * 9)
    assert all((b - a) % 3 == 1 for a, b in zip(played, played[1:]))


def test_seeded_replay_and_reset_equals_fresh() -> None:
    theirs = [random.Random(5).randrange(3) for _ in range(60)]
    bot = ClassicBot("randbot", random.Random(7))
    first = moves(bot, theirs)
    bot.reset()
    assert moves(bot, theirs) == first
    assert moves(ClassicBot("randbot", random.Random(7)), theirs) == first
    assert moves(ClassicBot("randbot", random.Random(8)), theirs) != first


def test_match_between_classic_bots_replays_from_seed() -> None:
    a, b = resolve("classic:iocainebot", throws=200), resolve("classic:randbot", throws=200)
    assert play_match(a, b, 200, seed=3) == play_match(a, b, 200, seed=3)


def test_greenberg_survives_a_short_match() -> None:
    # open_spiel's greenberg crashes when built for < 200 throws; the adapter builds for 1000.
    outcome = play_match(resolve("classic:greenberg", throws=30), Agent, 30, seed=0)
    assert outcome.n == 30 and outcome.player == "classic:greenberg"


def test_bad_input_raises_clear_errors() -> None:
    with pytest.raises(ValueError, match="unknown classic bot 'nobot'"):
        ClassicBot("nobot")
    bot = ClassicBot("rockbot", throws=2)
    with pytest.raises(ValueError, match="invalid move 3"):
        bot.move(3)
    with pytest.raises(ValueError, match="before making a first move"):
        bot.move(ROCK)
    bot.move(None)
    with pytest.raises(ValueError, match="first move"):
        bot.move(None)


def test_matches_longer_than_the_bot_was_built_for_are_refused() -> None:
    bot = ClassicBot("rockbot", throws=1000)
    bot.move(None)
    for _ in range(999):
        bot.move(ROCK)
    with pytest.raises(ValueError, match="built for 1000 throws"):
        bot.move(ROCK)
