"""The fCC bots' relatives: specs, the grid, and each family's moves against a rescanning
reference (the engine against them: test_relatives_bar.py and benchmarks/relatives.py)."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from roshambo.arena.tournaments import make_player
from roshambo.engine.moves import LETTERS, Move, beats
from roshambo.opponents import make_opponent
from roshambo.opponents.relatives import (
    FAMILIES,
    ContextCounter,
    FixedCycle,
    Noisy,
    Reaction,
    RecentCounter,
    Switcher,
    best_rate,
    beyond_grid,
    cycle_patterns,
    make_relative,
    member_grid,
)

ROOT = Path(__file__).resolve().parent.parent


def play(bot, their_moves: list[Move]) -> list[Move]:
    """The bot's moves when the other side plays ``their_moves`` (None before the first)."""
    moves = []
    their_last: Move | None = None
    for theirs in their_moves:
        moves.append(bot.move(their_last))
        their_last = theirs
    return moves


def random_moves(seed: int, count: int, letters: str = "RPS") -> list[Move]:
    rng = random.Random(seed)
    return [LETTERS.index(rng.choice(letters)) for _ in range(count)]


# --- specs and the grid ----------------------------------------------------------------------


def test_every_grid_member_is_named_by_its_own_spec() -> None:
    grid = member_grid()
    assert len(set(grid)) == len(grid)
    for spec in grid:
        assert make_relative(spec, random.Random(0)).name == spec


def test_the_beyond_grid_holds_members_past_every_wide_range_and_none_of_the_grid() -> None:
    """Members past the wide ranges (a longer window, a higher order, a longer lag or cycle),
    deterministic, each named by its own spec; the zoo takes any order and lag >= 1."""
    beyond = beyond_grid()
    assert len(set(beyond)) == len(beyond) and not set(beyond) & set(member_grid())
    bots = [make_relative(spec, random.Random(0)) for spec in beyond]
    assert [b.name for b in bots] == list(beyond)
    assert min(b.window for b in bots if isinstance(b, RecentCounter)) > 200
    assert min(b.k for b in bots if isinstance(b, ContextCounter)) == 7
    assert max(b.k for b in bots if isinstance(b, ContextCounter)) == 64
    assert min(b.lag for b in bots if isinstance(b, Reaction)) == 51
    assert min(len(b.pattern) for b in bots if isinstance(b, FixedCycle)) > 40
    assert make_relative("reaction:lag=500", random.Random(0)).lag == 500


def test_the_grid_spreads_every_parameter_over_its_range() -> None:
    bots = [make_relative(spec, random.Random(0)) for spec in member_grid()]
    plain = [b.inner if isinstance(b, Noisy) else b for b in bots]
    windows = {b.window for b in plain if isinstance(b, RecentCounter)}
    assert {2, 50, 200, None} <= windows and len(windows) >= 12
    assert {(b.target, b.tie) for b in plain if isinstance(b, RecentCounter)} >= {
        ("most", "first"),
        ("least", "last"),
        ("most", "set"),
        ("least", "RPS"),
    }
    contexts = [b for b in plain if isinstance(b, ContextCounter)]
    assert {b.k for b in contexts} == set(range(1, 7)) and {b.rotation for b in contexts} == {
        0,
        1,
        2,
    }
    assert min(b.decay for b in contexts) == 0.8 and max(b.decay for b in contexts) == 1.0
    assert {(b.lag, b.mode) for b in plain if isinstance(b, Reaction)} == {
        (lag, mode) for lag in (1, 2, 3, 4, 6, 8, 10, 12) for mode in ("beat", "copy", "lose")
    }
    assert {len(p) for p in cycle_patterns()} == set(range(2, 13)) | {13, 16, 20, 25, 30, 40}
    # with noise too: the shortest and the longest cycles, and some between
    assert {
        len(b.inner.pattern)
        for b in bots
        if isinstance(b, Noisy) and isinstance(b.inner, FixedCycle)
    } == {2, 4, 7, 9, 12, 20}
    assert {b.period for b in plain if isinstance(b, Switcher)} == {50, 100, 200}
    # the members' draws: several, so that no one trio stands for the family
    assert len({b.members for b in plain if isinstance(b, Switcher)}) >= 4
    assert {b.share for b in bots if isinstance(b, Noisy)} == {0.05, 0.1, 0.2}
    assert {b.inner.family for b in bots if isinstance(b, Noisy)} == set(FAMILIES)


@pytest.mark.parametrize(
    "spec, bad",
    [
        ("counter:window=0", "0"),
        ("counter:window=x", "'x'"),
        ("counter:target=middle", "'middle'"),
        ("counter:tie=RRS", "'RRS'"),
        ("counter:size=3", "'size=3'"),
        ("counter:window=3,window=4", "'window=4'"),
        ("context:k=0", "0"),
        ("context:decay=1.5", "1.5"),
        ("context:rotation=3", "3"),
        ("reaction:mode=hit", "'hit'"),
        ("cycle:pattern=RXP", "'RXP'"),
        ("switcher:period=-1", "-1"),
        ("cycle:pattern=RP,noise=1", "1.0"),
        ("cycle:pattern=RP,noise=nan", "nan"),
        ("cycles:pattern=R", "'cycles:pattern=R'"),
        ("counter:window=5,", "'counter:window=5,': an empty parameter"),
        ("counter:,target=least", "an empty parameter (a comma too many)"),
    ],
)
def test_bad_specs_raise_naming_the_bad_value(spec: str, bad: str) -> None:
    with pytest.raises(ValueError, match=re.escape(bad)):
        make_opponent(spec)


def test_specs_are_players_wherever_names_are() -> None:
    bot = make_player("counter:window=20,target=least", random.Random(1))
    assert bot.name == "counter:window=20,target=least,tie=first"
    with pytest.raises(ValueError, match="counter:window=N"):
        make_player("nobody")


def test_best_rate_against_noise() -> None:
    assert best_rate(0.1) == pytest.approx(0.9655, abs=1e-4)
    assert best_rate(0.0) == 1.0


# --- each family against a rescanning reference ------------------------------------------


def counter_reference(history: list[Move], window: int | None, target: str, tie: str) -> Move:
    """The counter's rule read straight off the window (a rescan each move)."""
    recent = history if window is None else history[-window:]
    counts = [recent.count(m) for m in range(3)]
    best = max(counts) if target == "most" else min(counts)
    tied = [m for m in range(3) if counts[m] == best]
    first = [recent.index(m) if m in recent else -1 for m in range(3)]
    last = [len(recent) - 1 - recent[::-1].index(m) if m in recent else -1 for m in range(3)]
    if tie == "first":
        return min(tied, key=lambda m: (first[m], m))
    if tie == "last":
        return max(tied, key=lambda m: (last[m], -m))
    return next(LETTERS.index(c) for c in tie if LETTERS.index(c) in tied)


@pytest.mark.parametrize("window", [2, 5, 10, 20, None])
@pytest.mark.parametrize("target", ["most", "least"])
@pytest.mark.parametrize("tie", ["first", "last", "RPS", "PSR"])
def test_counter_matches_a_rescan_and_carries_its_window(
    window: int | None, target: str, tie: str
) -> None:
    bot = RecentCounter(window, target, tie)
    history: list[Move] = []
    for match, script in enumerate((random_moves(1, 150), random_moves(2, 150, "RP"))):
        moves = play(bot, script)  # the second match starts with move(None), no reset
        for turn, move in enumerate(moves):
            if turn:
                history.append(script[turn - 1])
            assert move == beats(counter_reference(history, window, target, tie)), (match, turn)
        # the match's last move is never shown to the bot: the next match starts with None


def test_counter_first_tie_is_counter_most_common() -> None:
    bot = RecentCounter(10, "most", "first")
    script = random_moves(3, 300, "RP")
    for turn, move in enumerate(play(bot, script)):
        if turn:
            window = [LETTERS[m] for m in script[max(0, turn - 10) : turn]]
            assert move == beats(LETTERS.index(Counter(window).most_common(1)[0][0]))


SET_RULE = r"""
import json, random, sys
from roshambo.engine.moves import LETTERS, beats
from roshambo.opponents.relatives import RecentCounter
rng = random.Random(5)
script = [rng.choice("RPS" if i % 200 < 100 else "RP") for i in range(400)]
bots = {(w, t): RecentCounter(w, t, "set") for w in (4, 10) for t in ("most", "least")}
mismatches = ties = 0
for (w, t), bot in bots.items():
    last = None
    for turn, letter in enumerate(script):
        got = bot.move(last)
        window = script[max(0, turn - w):turn]
        if window:
            if t == "most":
                expected = max(set(window), key=window.count)
                ties += sum(window.count(x) == window.count(expected) for x in set(window)) > 1
            else:
                expected = min(set(window), key=window.count) if len(set(window)) == 3 else None
            if expected is not None and got != beats(LETTERS.index(expected)):
                mismatches += 1
        last = LETTERS.index(letter)
print(json.dumps([mismatches, ties]))
"""


@pytest.mark.parametrize("hash_seed", ["0", "3", "77"])
def test_counter_set_tie_is_cpythons_max_over_a_set(hash_seed: str) -> None:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-c", SET_RULE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=True,
    )
    mismatches, ties = json.loads(done.stdout)
    assert mismatches == 0 and ties > 50


def context_reference(history: list[Move], k: int, rotation: int) -> Move:
    counts = [0, 0, 0]
    if len(history) >= k:
        context = history[len(history) - k :]
        for i in range(k, len(history)):
            if history[i - k : i] == context:
                counts[history[i]] += 1
    prediction = max(range(3), key=counts.__getitem__)
    return (prediction + 1 + rotation) % 3


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("rotation", [0, 1, 2])
def test_context_counter_matches_a_rescan(k: int, rotation: int) -> None:
    bot = ContextCounter(k, 1.0, rotation)
    script = random_moves(k + rotation, 200, "RRPS")
    for turn, move in enumerate(play(bot, script)):
        assert move == context_reference(script[:turn], k, rotation), turn


def test_context_decay_lets_recent_continuations_win() -> None:
    script = [0, 1, 0, 1, 0, 1, 0, 2, 0, 0]  # after R: P three times, then S
    assert play(ContextCounter(1, 1.0), script)[-1] == beats(1)
    assert play(ContextCounter(1, 0.5), script)[-1] == beats(2)


def test_reaction_and_cycle_scripted() -> None:
    script = [0, 1, 2, 2, 1, 0]
    assert play(Reaction(1, "beat"), script) == [1, 1, 2, 0, 0, 2]
    assert play(Reaction(2, "copy"), script) == [0, 0, 0, 1, 2, 2]
    assert play(Reaction(3, "lose"), script) == [2, 2, 2, 2, 0, 1]
    assert play(FixedCycle("RSP"), script + script) == [0, 2, 1] * 4


def test_switcher_plays_its_members_in_turn() -> None:
    switcher = Switcher(period=50, seed=3)
    members = [make_relative(spec) for spec in switcher.members]
    assert len(set(switcher.members)) == 3
    script = random_moves(4, 400)
    expected = [play(member, script) for member in members]
    got = play(switcher, script)
    assert got == [expected[(t // 50) % 3][t] for t in range(400)]


def test_a_switcher_says_what_every_member_played() -> None:
    switcher = Switcher(period=50, seed=3)
    members = [make_relative(spec) for spec in switcher.members]
    assert switcher.member_moves is None
    their_last = None
    for t, theirs in enumerate(random_moves(8, 200)):
        move = switcher.move(their_last)
        assert switcher.member_moves == tuple(member.move(their_last) for member in members)
        assert move == switcher.member_moves[(t // 50) % 3]
        their_last = theirs
    switcher.reset()
    assert switcher.member_moves is None


def test_noise_replaces_the_share_asked_for() -> None:
    script = random_moves(5, 6000)
    clean = play(make_relative("reaction:lag=2"), script)
    noisy = play(make_relative("reaction:lag=2,noise=0.2", random.Random(6)), script)
    changed = sum(a != b for a, b in zip(clean, noisy)) / len(script)
    assert 0.2 * 2 / 3 - 0.02 < changed < 0.2 * 2 / 3 + 0.02


def test_a_noisy_member_says_what_its_rule_played_before_the_noise() -> None:
    script = random_moves(7, 600)
    clean = play(make_relative("counter:window=5,target=most,tie=first"), script)
    bot = make_relative("counter:window=5,target=most,tie=first,noise=0.2", random.Random(8))
    assert isinstance(bot, Noisy) and bot.rule_move is None
    played, rules = [], []
    their_last: Move | None = None
    for theirs in script:
        played.append(bot.move(their_last))
        rules.append(bot.rule_move)
        their_last = theirs
    assert rules == clean  # the rule's move, whatever the noise made of it
    assert (
        0.2 * 2 / 3 - 0.06
        < sum(a != b for a, b in zip(played, rules)) / len(script)
        < 0.2 * 2 / 3 + 0.06
    )
    with pytest.raises(ValueError, match="7"):
        bot.move(7)  # type: ignore[arg-type]
    assert bot.rule_move == rules[-1]  # a bad move changes nothing
    bot.reset()
    assert bot.rule_move is None
