"""The opponent zoo: contract tests over the whole registry, then scripted games per bot."""

from __future__ import annotations

import inspect
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from roshambo.engine.agent import Agent
from roshambo.engine.moves import Move, outcome
from roshambo.opponents import (
    OPPONENTS,
    CopyAttacker,
    DeBruijnBot,
    DrifterBot,
    Opponent,
    PiBot,
    adversaries,
    baselines,
    billings,
    fcc,
    make_opponent,
    modern,
)

ROOT = Path(__file__).resolve().parent.parent
# every registered opponent, and a few members of each family of the fCC bots' relatives
RELATIVES = [
    "counter:window=7,target=most,tie=set",
    "counter:window=all,target=least,tie=last",
    "counter:window=3,target=least,tie=SPR",
    "context:k=2,decay=0.9,rotation=1",
    "context:k=3,decay=1,rotation=0",
    "reaction:lag=3,mode=lose",
    "cycle:pattern=RSPPS",
    "switcher:period=50,seed=2",
    "counter:window=20,target=most,tie=first,noise=0.1",
    "switcher:period=100,seed=1,noise=0.05",
]
NAMES = list(OPPONENTS) + RELATIVES


def play(bot: Opponent, their_moves: Iterable[Move]) -> list[Move]:
    """The bot's moves when the other side plays ``their_moves`` (None before the first)."""
    moves = []
    their_last: Move | None = None
    for theirs in their_moves:
        moves.append(bot.move(their_last))
        their_last = theirs
    return moves


def duel(first: Opponent, second: Opponent, rounds: int) -> list[tuple[Move, Move]]:
    """A match: each side sees the other's previous move."""
    history: list[tuple[Move, Move]] = []
    a_last: Move | None = None
    b_last: Move | None = None
    for _ in range(rounds):
        a, b = first.move(b_last), second.move(a_last)
        history.append((a, b))
        a_last, b_last = a, b
    return history


def score(history: list[tuple[Move, Move]]) -> int:
    """The first side's wins minus losses."""
    return sum(outcome(a, b) for a, b in history)


def random_moves(seed: int, count: int) -> list[Move]:
    rng = random.Random(seed)
    return [rng.randrange(3) for _ in range(count)]


# --- the contract, over everything registered -------------------------------------------


def test_names_are_unique_and_match_the_registry() -> None:
    assert len(set(OPPONENTS.values())) == len(OPPONENTS)
    for key, cls in OPPONENTS.items():
        assert cls.name == key
        assert isinstance(cls(rng=random.Random(0)), Opponent)


def test_every_opponent_class_is_registered() -> None:
    registered = set(OPPONENTS.values())
    for module in (fcc, baselines, billings, adversaries, modern):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and hasattr(cls, "move"):
                assert cls in registered, f"{cls.__name__} is not in OPPONENTS"


@pytest.mark.parametrize("name", NAMES)
def test_legal_moves_against_random(name: str) -> None:
    bot = make_opponent(name, random.Random(1))
    for move in play(bot, random_moves(2, 200)):
        assert type(move) is int and move in (0, 1, 2)


@pytest.mark.parametrize("name", NAMES)
def test_reset_equals_fresh(name: str) -> None:
    rng = random.Random(11)
    bot = make_opponent(name, rng)
    play(bot, random_moves(3, 120))
    rng.seed(11)
    bot.reset()
    script = random_moves(4, 120)
    assert play(bot, script) == play(make_opponent(name, random.Random(11)), script)


@pytest.mark.parametrize("name", NAMES)
def test_seeded_replay_is_identical(name: str) -> None:
    first, second = (make_opponent(name, random.Random(7)) for _ in range(2))
    assert duel(first, make_opponent("random", random.Random(8)), 150) == duel(
        second, make_opponent("random", random.Random(8)), 150
    )


@pytest.mark.parametrize("name", NAMES)
def test_instances_are_independent(name: str) -> None:
    script, other = random_moves(5, 120), random_moves(6, 120)
    alone = play(make_opponent(name, random.Random(9)), script)
    a, b = make_opponent(name, random.Random(9)), make_opponent(name, random.Random(10))
    a_last: Move | None = None
    b_last: Move | None = None
    interleaved = []
    for mine, theirs in zip(script, other):
        interleaved.append(a.move(a_last))
        b.move(b_last)
        a_last, b_last = mine, theirs
    assert interleaved == alone


@pytest.mark.parametrize("bad", [3, -1, "R", "", 1.0, True])
@pytest.mark.parametrize("name", NAMES)
def test_bad_their_last_raises_naming_it_and_changes_nothing(name: str, bad: object) -> None:
    bot, twin = make_opponent(name, random.Random(12)), make_opponent(name, random.Random(12))
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        bot.move(bad)  # type: ignore[arg-type]
    assert bot.move(None) == twin.move(None)
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        bot.move(bad)  # type: ignore[arg-type]
    script = random_moves(13, 60)
    assert play(bot, script)[1:] == play(twin, script)[1:]


def test_make_opponent_rejects_an_unknown_name_listing_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="'nobody'") as error:
        make_opponent("nobody")
    for name in OPPONENTS:
        assert name in str(error.value)
    for family in ("counter:", "context:", "reaction:", "cycle:", "switcher:"):
        assert family in str(error.value)


def test_make_opponent_passes_the_rng() -> None:
    a, b = make_opponent("random", random.Random(4)), make_opponent("random", random.Random(4))
    assert play(a, [0] * 50) == play(b, [0] * 50)
    assert make_opponent("rockbot").move(None) == 0


# --- the freeCodeCamp bots, move for move against RPS_game --------------------------------

EQUIVALENCE = r"""
import importlib, json, random, sys
import RPS_game
from roshambo.engine.moves import LETTERS
from roshambo.opponents.fcc import FccAbbey, FccKris, FccMrugesh, FccQuincy

CLASSES = {"quincy": FccQuincy, "abbey": FccAbbey, "kris": FccKris, "mrugesh": FccMrugesh}
rng = random.Random(int(sys.argv[1]))
scripted = list("RRPPS" * 60) + list("RPRPRSSPPR" * 30)
tie_heavy = [rng.choice("RP") for _ in range(300)]
randoms = [rng.choice("RPS") for _ in range(300)]
report = {"mismatches": [], "moves": 0, "ties": 0}

def matches(sequence, count):
    # match k starts with "" and then sees the sequence rotated by k
    for k in range(count):
        yield [""] + sequence[k:] + sequence[:k]

for sequence in (scripted, tie_heavy, randoms):
    module = importlib.reload(RPS_game)  # fresh mutable defaults
    bots = {name: cls() for name, cls in CLASSES.items()}
    for name, bot in bots.items():
        function = getattr(module, name)
        window = []
        for number, match in enumerate(matches(sequence, 3)):
            if number == 2:
                # a reset instance is a fresh function
                module = importlib.reload(RPS_game)
                function = getattr(module, name)
                bot.reset()
                window = []
            for turn, letter in enumerate(match):
                expected = function(letter)
                got = LETTERS[bot.move(None if letter == "" else LETTERS.index(letter))]
                report["moves"] += 1
                if name == "mrugesh":
                    window = (window + [letter])[-10:]
                    top = max(window.count(x) for x in set(window))
                    report["ties"] += sum(window.count(x) == top for x in set(window)) > 1
                if expected != got:
                    report["mismatches"].append([name, number, turn, expected, got])
print(json.dumps(report))
"""


@pytest.mark.parametrize("hash_seed", ["0", "1", "4242"])
def test_fcc_classes_match_the_functions_move_for_move(hash_seed: str) -> None:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    result = subprocess.run(
        [sys.executable, "-c", EQUIVALENCE, hash_seed],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["mismatches"][:5] == []
    assert report["moves"] == 4 * 3 * (601 + 301 + 301)  # 4 bots, 3 matches, 3 sequences
    assert report["ties"] > 100  # mrugesh's set-order tie-break was exercised


def test_fcc_quincy_kris_abbey_scripted() -> None:
    assert play(OPPONENTS["quincy"](), [0] * 7) == [0, 1, 1, 2, 0, 0, 1]
    assert play(OPPONENTS["kris"](), [2, 0, 1, 1]) == [1, 0, 1, 2]
    abbey = play(OPPONENTS["abbey"](), [0, 1, 0, 1, 0, 1, 1, 2, 1, 0])
    assert abbey == [1, 1, 1, 1, 1, 2, 1, 1, 1, 1]  # RPS_game.abbey, same inputs


# --- baselines ----------------------------------------------------------------------------


def test_markov_learns_a_cycle() -> None:
    history = duel(make_opponent("markov", random.Random(1)), make_opponent("rotatebot"), 300)
    assert score(history[10:]) == len(history) - 10


def test_markov_forgets_beyond_its_window() -> None:
    cycle_rps = [0, 1, 2] * 200  # 600 moves: (R, P) -> S counted 200 times in all
    cycle_rp = [0, 1] * 150  # now (R, P) -> R
    script = cycle_rps + cycle_rp
    moves = play(make_opponent("markov", random.Random(2)), script)
    last = range(len(script) - 100, len(script))
    # only the last NUM_RECORDS=100 sequences count, so the new continuation has taken over
    assert sum(outcome(moves[t], script[t]) for t in last) == 100


def test_tree_predictor_learns_a_constant_roll() -> None:
    history = duel(make_opponent("tree", random.Random(3)), make_opponent("rotatebot"), 200)
    assert score(history[100:]) >= 98


def test_frequency_beats_the_most_frequent_move() -> None:
    moves = play(make_opponent("frequency", random.Random(4)), [2, 2, 2, 0, 0, 0, 0, 0])
    assert moves[1:6] == [0] * 5  # beat scissors
    assert moves[7] == 1  # rock has overtaken scissors


# --- Billings' test suite -----------------------------------------------------------------


def test_rockbot_rotatebot_copybot() -> None:
    assert play(make_opponent("rockbot"), [1, 2, 0, 1]) == [0, 0, 0, 0]
    assert play(make_opponent("rotatebot"), [1, 2, 0, 1, 1]) == [0, 1, 2, 0, 1]
    assert play(make_opponent("copybot"), [2, 1, 1, 0, 2]) == [0, 2, 1, 1, 0]


def test_freqbot_ties_as_published() -> None:
    assert play(make_opponent("freqbot"), [0, 1, 1, 2, 2, 2]) == [0, 1, 2, 2, 2, 0]


def test_biased_is_20_20_60() -> None:
    moves = play(make_opponent("biased", random.Random(5)), [0] * 6000)
    shares = [moves.count(m) / len(moves) for m in range(3)]
    assert shares == pytest.approx([0.2, 0.2, 0.6], abs=0.03)


def test_debruijn_contains_every_window_once_per_period() -> None:
    assert len(DeBruijnBot.sequence(3, 4)) == 81
    moves = play(make_opponent("debruijn"), [0] * (2 * 81 + 3))
    assert moves[81:162] == moves[:81]
    windows = {tuple(moves[i : i + 4]) for i in range(81)}
    assert len(windows) == 81


def test_pibot_plays_digits_of_pi_mod_3_skipping_zeros() -> None:
    digits = "".join(map(str, PiBot.digits(41)))
    assert digits == "31415926535897932384626433832795028841971"
    expected = [int(d) % 3 for d in digits if d != "0"]
    assert play(make_opponent("pibot"), [0] * len(expected)) == expected


def test_drifter_drifts_and_stays_a_distribution() -> None:
    bot = DrifterBot(rng=random.Random(6))
    play(bot, [0] * 1000)
    p = bot.probabilities
    assert sum(p) == pytest.approx(1.0)
    assert min(p) > 0
    assert max(abs(x - 1 / 3) for x in p) > 0.05


def test_switcher_plays_one_simple_strategy_per_block() -> None:
    """Against rock only: every block is one fixed move or a rotation, and blocks change."""
    seen = set()
    for seed in range(5):
        moves = play(make_opponent("switcher", random.Random(seed)), [0] * 400)
        for start in range(0, 400, 50):
            block = moves[start + 1 : start + 50]
            steps = {(b - a) % 3 for a, b in zip(block, block[1:])}
            assert len(steps) == 1
            seen.add(steps.pop())
    assert seen == {0, 1}


# --- the copy-attacker ----------------------------------------------------------------------


class SelfRotator:
    """Fake engine: plays its own last move + 1, or (with probability hedge) at random."""

    name = "self-rotator"

    def __init__(self, rng: random.Random | None = None, hedge: float = 0.0) -> None:
        self._rng = rng if rng is not None else random.Random()
        self._hedge = hedge
        self.reset()

    def reset(self) -> None:
        self._mine: Move | None = None
        self._last: Move | None = None

    def observe(self, mine: Move, theirs: Move) -> None:
        self._mine = mine

    def choose(self) -> Move:
        if self._rng.random() < self._hedge:
            self._last = self._rng.randrange(3)
        else:
            self._last = 0 if self._mine is None else (self._mine + 1) % 3
        return self._last

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None and self._last is not None:
            self.observe(self._last, their_last)
        return self.choose()


class MoveOnly:
    """An engine that offers only the opponent protocol."""

    name = "move-only"

    def __init__(self, engine: SelfRotator) -> None:
        self._engine = engine

    def reset(self) -> None:
        self._engine.reset()

    def move(self, their_last: Move | None) -> Move:
        return self._engine.move(their_last)


class AnnouncingRotator(SelfRotator):
    """SelfRotator that announces its mixed strategy."""

    def policy(self) -> tuple[float, float, float]:
        planned = 0 if self._mine is None else (self._mine + 1) % 3
        p = [self._hedge / 3] * 3
        p[planned] += 1 - self._hedge
        return (p[0], p[1], p[2])


class FixedPolicy(SelfRotator):
    """Fake engine that announces a fixed mixed strategy."""

    def policy(self) -> tuple[float, float, float]:
        return (0.6, 0.3, 0.1)


def attack(engine: Callable[[random.Random], object], target: Opponent, rounds: int) -> int:
    attacker = CopyAttacker(rng=random.Random(20), engine=engine)
    return score(duel(attacker, target, rounds))


def test_copy_attacker_beats_a_deterministic_engine_every_move() -> None:
    assert attack(SelfRotator, SelfRotator(random.Random(21)), 300) == 300
    assert attack(lambda r: MoveOnly(SelfRotator(r)), SelfRotator(random.Random(21)), 300) == 300


def test_copy_attacker_shadows_the_real_moves_of_a_randomised_engine() -> None:
    """An engine hedging half the time. Told the real moves (observe), the copy predicts the
    engine's unhedged moves, but its own hedges are noise: about +0.25 a round; with the
    engine's policy the attacker wins every unhedged round: about +0.5. A move-only copy
    drifts from the real engine on every hedge: about 0."""
    target = SelfRotator(random.Random(22), 0.5)
    observed = attack(lambda r: SelfRotator(r, 0.5), target, 1000)
    target = AnnouncingRotator(random.Random(22), 0.5)
    with_policy = attack(lambda r: AnnouncingRotator(r, 0.5), target, 1000)
    target = SelfRotator(random.Random(22), 0.5)
    drifting = attack(lambda r: MoveOnly(SelfRotator(r, 0.5)), target, 1000)
    assert 150 < observed < 350
    assert with_policy > 400
    assert abs(drifting) < 100


def test_copy_attacker_best_responds_to_an_announced_policy() -> None:
    attacker = CopyAttacker(rng=random.Random(23), engine=FixedPolicy)
    moves = [a for a, _ in duel(attacker, FixedPolicy(random.Random(24)), 50)]
    assert moves == [1] * 50  # paper: +0.6 - 0.1 beats rock's +0.1 - 0.3 and scissors'


def test_copy_attacker_resets_its_copy_at_a_new_match() -> None:
    attacker = CopyAttacker(rng=random.Random(25), engine=SelfRotator)
    target = SelfRotator(random.Random(26))
    assert score(duel(attacker, target, 40)) == 40
    target.reset()
    assert score(duel(attacker, target, 40)) == 40


def test_copy_attacker_plays_against_the_real_engine() -> None:
    """Only legality here: how much it wins is the arena's measurement, not a test."""
    attacker = make_opponent("copy-attacker", random.Random(27))
    history = duel(attacker, Agent(rng=random.Random(28)), 100)
    assert all(a in (0, 1, 2) and b in (0, 1, 2) for a, b in history)


@pytest.mark.parametrize(
    "spec, value",
    [
        ("counter:window=5_0", "5_0"),  # int() reads 50
        ("counter:window= 5", " 5"),  # int() strips the space
        ("counter:window=\u0665", "\u0665"),  # int() reads another script's digit
        ("context:decay=1_0", "1_0"),
        ("counter:noise=nan", "nan"),  # float() reads a number that is none
        ("reaction:lag=+2", "+2"),
    ],
)
def test_a_relatives_numbers_are_read_as_typed(spec: str, value: str) -> None:
    with pytest.raises(ValueError, match=f"invalid value {re.escape(repr(value))} for "):
        make_opponent(spec)


def test_a_relatives_numbers_in_every_usual_spelling_are_read() -> None:
    for spec in ("counter:window=50", "context:decay=0.5", "context:decay=.5", "reaction:lag=2"):
        assert make_opponent(spec).move(None) in (0, 1, 2)
    assert make_opponent("context:decay=1e-1").move(None) in (0, 1, 2)
    with pytest.raises(ValueError, match="expected a positive integer, or 'all'"):
        make_opponent("counter:window=-3")
