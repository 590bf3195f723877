"""Predictors: the contract over every registered entry, then scripted games per family.

The contract (STYLE rules 1, 2, 6, 7, 8): legal predictions, reset equals fresh, a seeded
replay is identical, constant work per update, unique names, clear constructor errors.
Each deterministic family is also checked against its specification, a small, slow rescan
written from its docstring (roshambo/engine/predictors/reference.py), and pinned with short
scripted games.
"""

from __future__ import annotations

import gc
import itertools
import random
import re
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import executed_lines
from roshambo.engine.ensemble import Ensemble
from roshambo.engine.moves import Move, beats, outcome
from roshambo.engine.predictors import (
    PREDICTORS,
    BlendedContexts,
    CalibratedMarkovChain,
    FrequencyCounter,
    HistoryMatcher,
    LaggedRolls,
    MarkovChain,
    OutcomeRollTable,
    Predictor,
    RandomGuess,
    SharpestContext,
    TieReadingFrequency,
    periods,
)
from roshambo.engine.predictors.base import ENTRY_ORDERS, TieContexts, argmax3, entry_code
from roshambo.engine.predictors.decayed import DecayedContexts
from roshambo.engine.predictors.features import Features
from roshambo.engine.predictors.history import ContextIndex
from roshambo.engine.predictors.markov import ChainCounts
from roshambo.engine.predictors.meta import MetaOfAgents
from roshambo.engine.predictors.periods import PeriodicMoves
from roshambo.engine.predictors.reference import (
    argmax_first,
    latest_occurrence,
    markov_reference,
    outcome_roll_reference,
    reference_for,
    sharpest_reference,
    symbol,
    tie_reading_reference,
    windows_exact_by_rescan,
)
from roshambo.engine.predictors.windows import FIELD, RULE_CAP, CountingWindows
from roshambo.opponents.relatives import Noisy, make_relative

NAMES = list(PREDICTORS)
R, P, S = 0, 1, 2
LETTER = {"R": R, "P": P, "S": S}

Round = tuple[Move, Move]  # (my_move, their_move)


def moves(text: str) -> list[Move]:
    return [LETTER[c] for c in text]


def random_rounds(seed: int, count: int) -> list[Round]:
    rng = random.Random(seed)
    return [(rng.randrange(3), rng.randrange(3)) for _ in range(count)]


def mixed_rounds(seed: int, count: int) -> list[Round]:
    """Random, cyclic and biased stretches, so that predictors have something to find."""
    rng = random.Random(seed)
    rounds: list[Round] = []
    while len(rounds) < count:
        kind = rng.randrange(3)
        length = rng.randrange(5, 40)
        cycle = [rng.randrange(3) for _ in range(rng.randrange(1, 6))]
        for i in range(length):
            mine = rng.randrange(3) if kind else cycle[(i + 1) % len(cycle)]
            theirs = cycle[i % len(cycle)] if kind == 1 else rng.choice((R, R, R, P, S))
            rounds.append((mine, theirs))
    return rounds[:count]


def predictions(predictor: Predictor, rounds: Sequence[Round]) -> list[Move | None]:
    """The prediction before the first round and after every round (which ``update``
    returns and ``predict`` repeats: checked on the way)."""
    out = [predictor.predict()]
    for mine, theirs in rounds:
        returned = predictor.update(mine, theirs)
        out.append(predictor.predict())
        assert returned == out[-1] and (returned is None) == (out[-1] is None), (returned, out[-1])
    return out


# --- the contract, over everything registered -------------------------------------------


def test_registry_names_are_unique_and_each_factory_builds_its_name() -> None:
    assert len(set(NAMES)) == len(NAMES)
    assert NAMES, "the registry is empty"
    for name, factory in PREDICTORS.items():
        assert factory(random.Random(0)).name == name


@pytest.mark.parametrize("name", NAMES)
def test_name_has_no_strategy_separators(name: str) -> None:
    # the ensemble names strategies f"{name}.{k}" and f"{name}'.{k}"
    assert name and "." not in name and "'" not in name and name == name.strip()


@pytest.mark.parametrize("name", NAMES)
def test_predictions_are_legal_over_300_random_rounds(name: str) -> None:
    predictor = PREDICTORS[name](random.Random(1))
    for prediction in predictions(predictor, random_rounds(2, 300)):
        assert prediction is None or (type(prediction) is int and prediction in (0, 1, 2)), (
            prediction
        )


@pytest.mark.parametrize("name", NAMES)
def test_predictions_are_legal_over_structured_rounds(name: str) -> None:
    predictor = PREDICTORS[name](random.Random(1))
    for prediction in predictions(predictor, mixed_rounds(3, 300)):
        assert prediction is None or (type(prediction) is int and prediction in (0, 1, 2)), (
            prediction
        )


@pytest.mark.parametrize("name", NAMES)
def test_fresh_predictor_has_nothing_to_say(name: str) -> None:
    assert PREDICTORS[name](random.Random(1)).predict() is None


@pytest.mark.parametrize("name", NAMES)
def test_update_returns_the_prediction_that_predict_repeats(name: str) -> None:
    predictor = PREDICTORS[name](random.Random(3))
    for mine, theirs in mixed_rounds(4, 300):
        returned = predictor.update(mine, theirs)
        assert returned in (None, R, P, S)
        assert predictor.predict() == returned and predictor.predict() == returned
        assert (predictor.predict() is None) == (returned is None)


@pytest.mark.parametrize("name", NAMES)
def test_doubt_where_offered_is_a_bool_and_never_without_a_prediction(name: str) -> None:
    predictor = PREDICTORS[name](random.Random(3))
    doubt = getattr(predictor, "doubt", None)
    if doubt is None:
        return
    assert doubt() is False
    for mine, theirs in mixed_rounds(6, 300):
        prediction = predictor.update(mine, theirs)
        said = doubt()
        assert said is True or said is False
        assert prediction is not None or not said


@pytest.mark.parametrize("name", NAMES)
def test_reset_equals_fresh(name: str) -> None:
    rng = random.Random(5)
    predictor = PREDICTORS[name](rng)
    predictions(predictor, mixed_rounds(6, 300))
    predictor.reset()
    rng.seed(5)
    fresh = PREDICTORS[name](random.Random(5))

    def state(p: object) -> dict[str, object]:  # a carried-over model's state is its inner one's
        return {
            k: state(v) if k == "_inner" else v
            for k, v in vars(p).items()
            if not isinstance(v, random.Random)
        }

    assert state(predictor) == state(fresh)
    script = random_rounds(7, 200) + mixed_rounds(8, 200)
    assert predictions(predictor, script) == predictions(fresh, script)


@pytest.mark.parametrize("name", NAMES)
def test_seeded_replay_is_identical(name: str) -> None:
    script = mixed_rounds(9, 400)
    first, second = (PREDICTORS[name](random.Random(10)) for _ in range(2))
    assert predictions(first, script) == predictions(second, script)


@pytest.mark.parametrize("name", NAMES)
def test_instances_are_independent(name: str) -> None:
    script, other = mixed_rounds(11, 300), random_rounds(12, 300)
    alone = predictions(PREDICTORS[name](random.Random(13)), script)
    a, b = PREDICTORS[name](random.Random(13)), PREDICTORS[name](random.Random(14))
    interleaved = [a.predict()]
    for (mine, theirs), (x, y) in zip(script, other):
        b.update(x, y)
        a.update(mine, theirs)
        b.predict()
        interleaved.append(a.predict())
    assert interleaved == alone


@pytest.mark.parametrize("name", NAMES)
def test_does_not_touch_the_global_random_module(name: str) -> None:
    state = random.getstate()
    predictions(PREDICTORS[name](random.Random(1)), random_rounds(2, 100))
    assert random.getstate() == state


def _count_lines(predictor: Predictor, rounds: Sequence[Round]) -> int:
    """Python line events executed by ``update`` over ``rounds`` (a deterministic cost)."""

    def play() -> None:
        for mine, theirs in rounds:
            predictor.update(mine, theirs)

    return executed_lines(play)


@pytest.mark.parametrize("name", NAMES)
def test_update_work_does_not_grow_with_the_match(name: str) -> None:
    """Structural O(1): the Python lines run by 1,000 updates after 20,000 random rounds are
    within 1.25x of those after 5,000 (a rescan of the history would cost 4x). History
    matching may search a little deeper as longer contexts recur, up to ``max_len``."""
    script = random_rounds(21, 21_000)
    predictor = PREDICTORS[name](random.Random(22))
    for mine, theirs in script[:5000]:
        predictor.update(mine, theirs)
    early = _count_lines(predictor, script[5000:6000])
    for mine, theirs in script[6000:20_000]:
        predictor.update(mine, theirs)
    late = _count_lines(predictor, script[20_000:])
    assert late <= 1.25 * early, (
        f"{name}: {early} lines for rounds 5000-6000, {late} for 20000-21000"
    )


@pytest.mark.parametrize("name", NAMES)
def test_update_time_does_not_grow_with_the_match(name: str) -> None:
    """Timed O(1), catching rescans done in C (which count no Python lines): 2,000 updates
    after 20,000 rounds cost < 5x the first 2,000 (process CPU time, the minimum of several
    repeats on each side). A rescan would cost tens of times more by then; the margin keeps a
    shared machine's noise from deciding the outcome."""
    block, warm, repeats = 2000, 20_000, 5
    script = random_rounds(31, warm + block * repeats)

    def timed(predictor: Predictor, rounds: Sequence[Round]) -> float:
        gc.disable()  # as timeit does: a collection of the grown heap is not the update's cost
        try:
            start = time.process_time()
            for mine, theirs in rounds:
                predictor.update(mine, theirs)
            return time.process_time() - start
        finally:
            gc.enable()

    early = min(timed(PREDICTORS[name](random.Random(32)), script[:block]) for _ in range(repeats))
    predictor = PREDICTORS[name](random.Random(32))
    timed(predictor, script[:warm])
    late = min(
        timed(predictor, script[warm + k * block : warm + (k + 1) * block]) for k in range(repeats)
    )
    assert late < 5 * early, (
        f"{name}: {early * 1e6 / block:.2f} us/update early, {late * 1e6 / block:.2f} late"
    )


# --- constructor validation -----------------------------------------------------------------

BAD_ARGUMENTS: list[tuple[Callable[..., Predictor], dict[str, object], object]] = [
    (MarkovChain, {"seq_len": 0}, 0),
    (MarkovChain, {"seq_len": 1}, 1),
    (MarkovChain, {"seq_len": -2}, -2),
    (MarkovChain, {"seq_len": 2.0}, 2.0),
    (MarkovChain, {"seq_len": True}, True),
    (MarkovChain, {"num_records": 0}, 0),
    (MarkovChain, {"source": "x"}, "x"),
    (CalibratedMarkovChain, {"seq_len": 0}, 0),
    (CalibratedMarkovChain, {"num_records": -1}, -1),
    (CalibratedMarkovChain, {"source": "theirs"}, "theirs"),
    (HistoryMatcher, {"source": "x"}, "x"),
    (HistoryMatcher, {"source": None}, None),
    (HistoryMatcher, {"max_len": 0}, 0),
    (HistoryMatcher, {"window": 0}, 0),
    (HistoryMatcher, {"window": "20"}, "20"),
    (FrequencyCounter, {"window": 0}, 0),
    (FrequencyCounter, {"window": -5}, -5),
    (FrequencyCounter, {"window": 2.5}, 2.5),
    (FrequencyCounter, {"min_count": 0}, 0),
    (FrequencyCounter, {"min_count": 1.5}, 1.5),
    (TieReadingFrequency, {"window": 0}, 0),
    (TieReadingFrequency, {"window": None, "half": "mine"}, "mine"),
    (OutcomeRollTable, {"reference": "both"}, "both"),
    (OutcomeRollTable, {"reference": "x"}, "x"),
    (OutcomeRollTable, {"decay": 0.0}, 0.0),
    (OutcomeRollTable, {"decay": 1.5}, 1.5),
    (OutcomeRollTable, {"decay": -0.9}, -0.9),
    (OutcomeRollTable, {"decay": float("nan")}, float("nan")),
    (OutcomeRollTable, {"decay": "0.9"}, "0.9"),
    (OutcomeRollTable, {"decay": True}, True),
    (BlendedContexts, {"max_order": 0}, 0),
    (BlendedContexts, {"max_order": 2.5}, 2.5),
    (BlendedContexts, {"source": "ours"}, "ours"),
    (SharpestContext, {"decay": 0}, 0),
    (SharpestContext, {"decay": 1.01}, 1.01),
    (SharpestContext, {"decay": "0.9"}, "0.9"),
    (SharpestContext, {"decay": None}, None),
    (LaggedRolls, {"reference": "both"}, "both"),
    (LaggedRolls, {"max_lag": 0}, 0),
    (LaggedRolls, {"decay": 0.0}, 0.0),
    (LaggedRolls, {"min_hits": 0}, 0),
    (LaggedRolls, {"min_hits": "2"}, "2"),
    (LaggedRolls, {"half": "neither"}, "neither"),
    (DecayedContexts, {"max_order": 0}, 0),
    (DecayedContexts, {"memories": (1,)}, (1,)),
    (DecayedContexts, {"memories": ()}, ()),
    (DecayedContexts, {"memories": [None]}, [None]),
    (DecayedContexts, {"min_score": 0}, 0),
    (DecayedContexts, {"half": "x"}, "x"),
    (DecayedContexts, {"horizon": 0}, 0),
    (DecayedContexts, {"deep": 0}, 0),
    (DecayedContexts, {"max_order": 4, "deep": 3}, 3),
    (CountingWindows, {"source": "both"}, "both"),
    (CountingWindows, {"max_window": 0}, 0),
    (CountingWindows, {"min_score": 0}, 0),
    (CountingWindows, {"lead": 0}, 0),
    (CountingWindows, {"lead": 2.5}, 2.5),
    (CountingWindows, {"lead": 5461}, 5461),  # a record's 15-bit field would overflow
    (CountingWindows, {"split_ties": "yes"}, "yes"),
    (CountingWindows, {"split_ties": None}, None),
    (CountingWindows, {"tie_rules": 1}, 1),
    (CountingWindows, {"split_ties": True, "tie_rules": True}, True),  # two ways to credit a tie
    (CalibratedMarkovChain, {"seq_len": 0}, 0),
    (MetaOfAgents, {"max_order": 0}, 0),
    (MetaOfAgents, {"memory": 1}, 1),
    (MetaOfAgents, {"memory": 8.0}, 8.0),
    (MetaOfAgents, {"score_memory": True}, True),
    (MetaOfAgents, {"half": "neither"}, "neither"),
    (MetaOfAgents, {"min_score": -1}, -1),
    (MetaOfAgents, {"min_score": 1.5}, 1.5),
]


@pytest.mark.parametrize("cls, kwargs, bad", BAD_ARGUMENTS)
def test_constructor_rejects_bad_arguments_naming_them(
    cls: Callable[..., Predictor], kwargs: dict[str, object], bad: object
) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        cls(**kwargs)


DETERMINISTIC = [n for n in NAMES if reference_for(PREDICTORS[n](random.Random(0))) is not None]


@pytest.mark.parametrize("name", DETERMINISTIC)
@pytest.mark.parametrize("make_rounds", [random_rounds, mixed_rounds])
def test_registered_predictor_agrees_with_its_reference_model(
    name: str, make_rounds: Callable[[int, int], list[Round]]
) -> None:
    predictor = PREDICTORS[name](random.Random(0))
    model = reference_for(predictor)
    assert model is not None
    script = make_rounds(41, 250)
    got = predictions(predictor, script)
    for n in range(len(script) + 1):
        assert got[n] == model(script[:n]), f"{name}: after {n} rounds"


@pytest.mark.parametrize(
    "predictor",
    [
        FrequencyCounter(None),
        FrequencyCounter(1),
        FrequencyCounter(3),
        FrequencyCounter(7),
        FrequencyCounter(None, min_count=4),
        FrequencyCounter(5, least=True, min_count=2),
        TieReadingFrequency(1),
        TieReadingFrequency(4),
        TieReadingFrequency(6, least=True, min_count=2),
        TieReadingFrequency(None),
        TieReadingFrequency(None, least=True, min_count=3),
        MarkovChain(2, num_records=1),
        MarkovChain(2, num_records=4),
        MarkovChain(4, source="mine"),
        MarkovChain(3, num_records=7, source="both"),
        MarkovChain(3, num_records=5, least=True),
        HistoryMatcher("their", max_len=1),
        HistoryMatcher("mine", max_len=3, window=5),
        HistoryMatcher("both", max_len=2, window=1),
        OutcomeRollTable("their", decay=0.5),
        OutcomeRollTable("mine", decay=1.0),
        OutcomeRollTable("their", by_result=False),
        OutcomeRollTable("mine", decay=0.5, by_result=False),
        SharpestContext(0.5),
        SharpestContext(0.98),
        SharpestContext(1.0),
        LaggedRolls("mine", 1),
        LaggedRolls("their", 5, decay=0.5),
        LaggedRolls("mine", 3, decay=1.0, min_hits=4),
        DecayedContexts(1, (None,), half="both"),
        DecayedContexts(2, (2, 5), min_score=1, half="both"),
        # orders counted with fewer memories each (see order_memories): 3, 2, 1 and 1
        DecayedContexts(4, (2, 5, None), min_score=1, half="both", horizon=40),
        # no deep orders; and deep orders 2 to 12 over one row order (the trie and its runs)
        DecayedContexts(3, (4, None), half="both", deep=3),
        DecayedContexts(1, (2, None), min_score=1, half="both", deep=12),
        BlendedContexts(1),
        BlendedContexts(2, "their"),
        BlendedContexts(6, "mine"),
        MetaOfAgents(1, memory=3, score_memory=5, min_score=0),
        MetaOfAgents(2, memory=20, min_score=4),
    ],
    ids=lambda p: f"{type(p).__name__}-{'-'.join(map(str, vars(p).values()))[:40]}",
)
def test_other_configurations_agree_with_the_reference_model(predictor: Predictor) -> None:
    model = reference_for(predictor)
    assert model is not None
    script = mixed_rounds(43, 200)
    got = predictions(predictor, script)
    assert got == [model(script[:n]) for n in range(len(script) + 1)]


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("history")])
@pytest.mark.parametrize("make_rounds", [random_rounds, mixed_rounds])
def test_history_prediction_is_what_followed_a_latest_earlier_occurrence(
    name: str, make_rounds: Callable[[int, int], list[Round]]
) -> None:
    """Checked by rescanning: a prediction is what followed the latest earlier occurrence
    (within the window) of some recent context; there is one exactly when the last symbol
    occurred before within the window."""
    predictor = PREDICTORS[name](random.Random(0))
    assert isinstance(predictor, HistoryMatcher)
    script = make_rounds(47, 250)
    symbols = [symbol(predictor.source, m, t) for m, t in script]
    theirs = [t for _, t in script]
    window = predictor.window
    for n, got in enumerate(predictions(predictor, script)[1:], start=1):

        def in_window(e: int | None) -> bool:
            return e is not None and (window is None or e >= n - window)

        assert (got is None) == (not in_window(latest_occurrence(symbols[:n], 1))), n
        if got is not None:
            candidates = {
                theirs[e]
                for length in range(1, min(predictor.max_len, n - 1) + 1)
                if in_window(e := latest_occurrence(symbols[:n], length))
            }
            assert got in candidates, n


# --- scripted games per family --------------------------------------------------------------


@pytest.mark.parametrize(
    "cycle",
    ["R", "RPS", "RRPPS", "RPPSSS", "PSRRS", "RRRPPPSSS", "RRPPSRPS", "RPRPRSPSPS", "RRRRRRRP"],
)
@pytest.mark.parametrize("source", ["their", "mine", "both"])
def test_history_matcher_locks_on_a_cycle_within_three_periods(cycle: str, source: str) -> None:
    """Contexts are indexed one symbol longer each time they recur, so a cycle is predicted
    exactly once the contexts telling its positions apart have recurred (about two
    periods for these cycles; one period plus one move for an index of every context)."""
    period = len(cycle)
    theirs = moves(cycle * 12)
    mine = theirs if source != "their" else [R] * len(theirs)
    matcher = HistoryMatcher(source)
    got = predictions(matcher, list(zip(mine, theirs)))
    for k in range(3 * period, len(theirs) + 1):
        assert got[k] == theirs[k % period], f"after {k} moves of {cycle!r}"


def test_history_matcher_on_our_moves_and_on_pairs() -> None:
    mine = moves("RRPPSRPS" * 8)
    theirs = [beats(m) for m in mine]  # a mirror that answers our move of the same round
    rounds = list(zip(mine, theirs))
    for source in ("mine", "both"):
        got = predictions(HistoryMatcher(source), rounds)
        for k in range(3 * 8, len(rounds)):
            assert got[k] == theirs[k % 8], (source, k)
    # matching on our moves when ours carry no information finds nothing useful
    got = predictions(HistoryMatcher("mine"), [(R, t) for t in theirs])
    assert got[2:] == theirs[1:]  # "what followed our previous R": always their last move


def test_history_matcher_window_limits_how_old_a_match_may_be() -> None:
    rounds = [(R, t) for t in moves("RPS" * 10)]
    assert predictions(HistoryMatcher("their", window=3), rounds)[5:] == [
        moves("RPS")[k % 3] for k in range(5, 31)
    ]
    assert set(predictions(HistoryMatcher("their", window=2), rounds)) == {None}


def test_history_matcher_prefers_the_longest_context() -> None:
    # at the end R was last followed by S, but S R (seen three times) by P
    theirs = moves("SRPSRPSRPRSSR")
    got = predictions(HistoryMatcher("their"), [(R, t) for t in theirs])
    assert got[-1] == P
    assert predictions(HistoryMatcher("their", max_len=1), [(R, t) for t in theirs])[-1] == S


# what a mirrored twin of each history matcher indexes: the same real side as the direct
# matcher named here (pairs are the same pairs either way round)
SAME_INDEX = {"their": "mine", "mine": "their", "both": "both"}


@pytest.mark.parametrize("window", [None, 7])
@pytest.mark.parametrize("source", ["their", "mine", "both"])
def test_history_matchers_that_read_one_shared_index_predict_as_their_own_would(
    source: str, window: int | None
) -> None:
    rng = random.Random(21)
    rounds = [(rng.randrange(3), rng.choice([R, R, P, S])) for _ in range(300)] + [
        (R, t) for t in moves("RPPS" * 20)
    ]
    twin = SAME_INDEX[source]
    direct, mirrored = HistoryMatcher(source, 4, window), HistoryMatcher(twin, 4, window)
    hub = Features()
    direct.join(hub, mirrored=False)
    mirrored.join(hub, mirrored=True)
    assert len(hub) == 1  # one index for the two
    said = []
    for m, t in rounds:  # the hub takes the real round, a mirrored half the swapped one
        hub.update(m, t)
        said.append((direct.update(m, t), mirrored.update(t, m)))
    assert said == list(
        zip(
            predictions(HistoryMatcher(source, 4, window), rounds)[1:],
            predictions(HistoryMatcher(twin, 4, window), [(t, m) for m, t in rounds])[1:],
        )
    )
    # reset leaves the hub: alone, the matcher learns as a fresh one does
    mirrored.reset()
    alone = [(t, m) for m, t in rounds[:50]]
    assert [mirrored.update(*r) for r in alone] == predictions(
        HistoryMatcher(twin, 4, window), alone
    )[1:]


@pytest.mark.parametrize("mirrored", [False, True])
@pytest.mark.parametrize("window", [None, 9])
@pytest.mark.parametrize("source", ["their", "mine", "both"])
def test_a_chain_and_its_novelty_twin_read_one_shared_count_as_their_own_would(
    source: str, window: int | None, mirrored: bool
) -> None:
    rng = random.Random(23)
    rounds = [(rng.randrange(3), rng.choice([R, R, P, S])) for _ in range(300)]
    if mirrored:  # the ensemble shows a mirrored half the swapped histories
        rounds = [(t, m) for m, t in rounds]
    most, least = MarkovChain(3, window, source), MarkovChain(3, window, source, least=True)
    hub = Features()
    most.join(hub, mirrored)
    least.join(hub, mirrored)
    assert len(hub) == 1
    said = []
    for r in rounds:
        hub.update(*(r[::-1] if mirrored else r))  # the real round
        said.append((most.update(*r), least.update(*r)))
    assert said == list(
        zip(
            predictions(MarkovChain(3, window, source), rounds)[1:],
            predictions(MarkovChain(3, window, source, least=True), rounds)[1:],
        )
    )
    least.reset()  # alone again: learns as a fresh chain does
    assert [least.update(*r) for r in rounds[:40]] == predictions(
        MarkovChain(3, window, source, least=True), rounds[:40]
    )[1:]


def test_only_identical_markov_counts_are_one_feature() -> None:
    hub = Features()
    for chain, mirrored in [
        (MarkovChain(2), False),
        (MarkovChain(2), True),
        (MarkovChain(2, source="mine"), True),
        (MarkovChain(3), False),
        (MarkovChain(2, 5), False),
        (MarkovChain(2, source="both"), False),
        (MarkovChain(2, source="both"), True),
    ]:
        chain.join(hub, mirrored)
    assert len(hub) == 7  # the mirrored chain on our moves counts our moves, not theirs
    used = MarkovChain(2)
    used.update(R, P)
    with pytest.raises(ValueError, match="'markov2-their'.*mid-match"):
        used.join(hub, mirrored=False)


def test_only_identical_history_indexes_are_one_feature() -> None:
    hub = Features()
    for matcher, mirrored in [
        (HistoryMatcher("their"), False),
        (HistoryMatcher("their"), True),
        (HistoryMatcher("mine", max_len=3), True),
        (HistoryMatcher("mine", window=9), True),
        (HistoryMatcher("mine"), True),  # the same index as the first's
    ]:
        matcher.join(hub, mirrored)
    assert len(hub) == 4 and len(hub.taken) == 5
    used = HistoryMatcher("both")
    used.update(R, P)
    with pytest.raises(ValueError, match="'history-both'.*mid-match"):
        used.join(hub, mirrored=True)


def test_a_feature_key_names_one_kind_of_work() -> None:
    hub = Features()
    index = hub.get(ContextIndex("their", 3, None))
    assert hub.get(ContextIndex("their", 3, None)) is index
    assert ChainCounts("their", "their", 3, None).key != index.key

    class Impostor(ChainCounts):
        @property
        def key(self) -> tuple[str, str, int, int | None]:  # type: ignore[override]
            return ("history", "their", 3, None)

    with pytest.raises(ValueError, match="names both a ContextIndex and an? Impostor"):
        hub.get(Impostor("their", "their", 3, None))


def test_frequency_counter_window_semantics() -> None:
    rounds = [(S, t) for t in moves("RRPPS")]
    assert predictions(FrequencyCounter(), rounds) == [
        None,
        R,
        R,
        R,
        R,
        R,
    ]  # ties: first of R, P, S
    assert predictions(FrequencyCounter(3), rounds) == [None, R, R, R, P, P]
    assert predictions(FrequencyCounter(1), rounds) == [None, R, R, P, P, S]
    # our own moves never count
    assert predictions(FrequencyCounter(3), [(t, t) for _, t in rounds]) == predictions(
        FrequencyCounter(3), rounds
    )


def test_frequency_counter_waits_for_min_count_moves() -> None:
    rounds = [(S, t) for t in moves("RRPPS")]
    assert predictions(FrequencyCounter(min_count=3), rounds) == [None, None, None, R, R, R]
    assert predictions(FrequencyCounter(None, least=True, min_count=2), rounds) == [
        None,
        None,
        P,
        S,
        S,
        S,
    ]


def test_frequency_counter_window_forgets_exactly_what_slid_out() -> None:
    counter = FrequencyCounter(4)
    for t in moves("SSSS" + "PPP"):
        counter.update(R, t)
    assert counter.predict() == P  # S slid out: last 4 are S P P P
    counter.update(R, S)
    assert counter.predict() == P  # P P P S
    for t in moves("SS"):
        counter.update(R, t)
    assert counter.predict() == S  # P S S S


@pytest.mark.parametrize("half", ["both", "mirrored"])
@pytest.mark.parametrize(
    "window, least", [(1, False), (5, False), (7, True), (None, False), (None, True)]
)
def test_tie_reading_frequency_in_the_mirrored_half_agrees_with_its_reference(
    window: int, least: bool, half: str
) -> None:
    reader = TieReadingFrequency(window, least=least, half=half)
    reader.join(Features(), mirrored=True)
    script = mixed_rounds(43, 250)
    got = predictions(reader, script)
    assert all(
        got[n] == tie_reading_reference(script[:n], window, least, mirrored=True)
        for n in range(len(script) + 1)
    )


@pytest.mark.parametrize("tie", ["set", "first", "last", "SPR"])
@pytest.mark.parametrize("target", ["most", "least"])
def test_tie_reading_frequency_reads_how_a_window_counter_of_our_moves_breaks_ties(
    tie: str, target: str
) -> None:
    """Against a side beating the most (least) frequent of our last 10 moves, as the
    mirrored half sees it: at its ties the reader names the move it targets nine times in ten
    or more, where the first of R, P, S is right at most about half the time."""
    side = make_relative(f"counter:window=10,target={target},tie={tie}", random.Random(0))
    reader = TieReadingFrequency(10, least=target == "least")
    reader.join(Features(), mirrored=True)
    plain = FrequencyCounter(10, least=target == "least")
    ours = random.Random(5)
    our_last: Move | None = None
    read = fixed = ties = 0
    for _ in range(2000):
        theirs = side.move(our_last)
        if reader._ties.pending is not None:
            ties += 1
            read += theirs == beats(reader.predict())
            fixed += theirs == beats(plain.predict())
        our_last = ours.randrange(3)
        reader.update(theirs, our_last)
        plain.update(theirs, our_last)
    assert ties > 300
    assert read >= 0.9 * ties
    if tie != "set":  # a set's order may happen to be R, P, S under this hash seed
        assert fixed <= 0.65 * ties


def test_entry_orders_are_the_moves_sorted_by_where_they_entered() -> None:
    """The tie contexts' order of entry, looked up by entry_code, is the present moves sorted
    by position, for every set of moves present and every order (and the tied ones' alone)."""
    for positions in itertools.product((-1, 3, 5, 8), repeat=3):
        present = [p for p in positions if p >= 0]
        if len(set(present)) < len(present):
            continue  # positions are distinct: a round holds one move
        ranked = sorted((p, m) for m, p in enumerate(positions) if p >= 0)
        order, tied_orders = ENTRY_ORDERS[entry_code(*positions)]
        assert order == sum((m + 1) * 4 ** (len(ranked) - 1 - i) for i, (_, m) in enumerate(ranked))
        for mask in range(8):
            tied = [m for _, m in ranked if mask >> m & 1]
            assert tied_orders[mask] == sum(
                (m + 1) * 4 ** (len(tied) - 1 - i) for i, m in enumerate(tied)
            )


def test_tie_contexts_with_votes_name_the_most_picked_move_the_last_among_equals() -> None:
    def picks(ties: TieContexts, replies: str) -> Move:
        for reply in moves(replies):
            ties.read(entry_code(0, 1, -1), 0b011, P, 0, R)  # R, then P entered; tied, P seen last
            ties.learn(reply)
        return ties.read(entry_code(0, 1, -1), 0b011, P, 0, R)

    assert picks(TieContexts(votes=True), "PPR") == P
    assert picks(TieContexts(votes=True), "PR") == R  # one each: the later
    assert picks(TieContexts(votes=True), "S") == R  # not a tied move: nothing learnt, the default
    assert picks(TieContexts(), "PPR") == R  # without votes, the last pick
    with pytest.raises(ValueError, match="invalid votes 1"):
        TieContexts(votes=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("noise", [0.0, 0.2])
def test_whole_match_tie_reading_reads_a_noisy_counter_of_our_moves(noise: float) -> None:
    """Against a side beating the most frequent of all our moves (ties to the first seen),
    a fifth of its moves random or none: our counts stay level (we beat what it plays), so it
    ties every few rounds; read by votes, nearly every tie names the move its rule targets,
    more often than when each tie context keeps its last reply."""

    def read_ties(votes: bool) -> tuple[int, int]:
        side = make_relative("counter:window=all,target=most,tie=first", random.Random(0))
        noisy = Noisy(side, noise, random.Random(1)) if noise else side
        reader = TieReadingFrequency(None, min_count=3)
        reader.join(Features(), mirrored=True)
        reader._ties = TieContexts(votes=votes)
        ours = random.Random(5)
        our_last: Move | None = None
        right = ties = 0
        for _ in range(1500):
            theirs = noisy.move(our_last)
            if reader._ties.pending is not None:
                ties += 1
                rule = noisy.rule_move if noise else theirs
                right += rule == beats(reader.predict())
            # mostly what beats its rule (our counts stay level and tie), sometimes at random
            our_last = ours.randrange(3) if ours.random() < 0.2 else beats(theirs)
            reader.update(theirs, our_last)
        return right, ties

    right, ties = read_ties(votes=True)
    assert ties > 300
    assert right >= 0.98 * ties
    if noise:
        last_right, last_ties = read_ties(votes=False)
        assert last_ties == ties and last_right < right - 0.02 * ties


def test_markov_chain_predicts_the_most_counted_continuation() -> None:
    # contexts of one move: R was followed by P twice and S once
    chain = MarkovChain(2)
    got = predictions(chain, [(R, t) for t in moves("RPRPRSR")])
    assert got[-1] == P
    assert got[:2] == [None, None]  # nothing counted yet after one move
    chain3 = MarkovChain(3)
    got3 = predictions(chain3, [(R, t) for t in moves("RPSRPSRP")])
    assert got3[-1] == S and got3[2] is None


def test_markov_chain_num_records_slides() -> None:
    theirs = moves("RPRPRSRSR")  # records R>P P>R R>P P>R R>S S>R R>S S>R
    rounds = [(R, t) for t in theirs]
    assert predictions(MarkovChain(2), rounds)[-1] == P  # R>P 2, R>S 2: tie -> first
    assert predictions(MarkovChain(2, num_records=4), rounds)[-1] == S  # only R>S S>R R>S S>R
    assert predictions(MarkovChain(2, num_records=5), rounds)[-1] == S  # P>R R>S S>R R>S S>R
    assert predictions(MarkovChain(2, num_records=7), rounds)[-1] == S  # R>P once, R>S twice
    assert predictions(MarkovChain(2, num_records=8), rounds)[-1] == P  # all eight: a tie again


def test_markov_chain_forgets_a_context_entirely() -> None:
    chain = MarkovChain(2, num_records=2)
    for t in moves("RPSS"):
        chain.update(R, t)
    # records kept: P>S, S>S; R's only record R>P slid out
    chain.update(R, R)
    assert chain.predict() is None


# The calibrated chain models a side that replies to beat argmax(counts + hidden offsets),
# with its own tie order, of the other side's transitions. Seen from the replying side.

DE_BRUIJN = moves("RRPRSPPSS")  # every pair once per period: counts stay within one of each other
PRIORS: list[dict[Move, tuple[int, int, int]]] = [
    {},
    {R: (2, 0, 1), P: (0, 3, 0), S: (1, 1, 4)},
    {R: (1, 0, 1), P: (0, 1, 1), S: (1, 1, 0)},
]


def hidden_choice(counts: Sequence[int], order: Sequence[Move]) -> Move:
    top = max(counts)
    return next(m for m in order if counts[m] == top)


def replies_to_hidden_model(
    predictor: Predictor,
    theirs: Sequence[Move],
    prior: dict[Move, tuple[int, int, int]],
    order: Sequence[Move],
    each: Callable[[int, Move], None] | None = None,
) -> list[bool]:
    """Feed rounds where our side plays beats(hidden prediction); True where predict() erred.
    ``each(i, hidden)``, if given, sees every round after the first before it is fed."""
    errors = []
    counts = {m: list(prior.get(m, (0, 0, 0))) for m in range(3)}
    for i, their in enumerate(theirs):
        if i == 0:
            mine = R
            errors.append(False)
        else:
            hidden = hidden_choice(counts[theirs[i - 1]], order)
            errors.append(predictor.predict() != hidden)
            if each is not None:
                each(i, hidden)
            mine = beats(hidden)
            counts[theirs[i - 1]][their] += 1
        predictor.update(mine, their)
    return errors


def misses_of_hidden_model(
    predictor: Predictor,
    rng: random.Random,
    rounds: int,
    prior: dict[Move, tuple[int, int, int]],
    reply: Callable[[Move, random.Random], Move],
) -> int:
    """As :func:`replies_to_hidden_model`, with the other side random (from ``rng``) and our
    side playing ``reply(hidden prediction, rng)``: the rounds where predict() missed the
    hidden prediction (silence counts as a miss), after the first 100."""
    counts = {m: list(prior.get(m, (0, 0, 0))) for m in range(3)}
    misses = 0
    last = None
    for i in range(rounds):
        their = rng.randrange(3)
        if last is None:
            mine = R
        else:
            hidden = hidden_choice(counts[last], (R, P, S))
            misses += i >= 100 and predictor.predict() != hidden
            mine = reply(hidden, rng)
            counts[last][their] += 1
        predictor.update(mine, their)
        last = their
    return misses


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
@pytest.mark.parametrize("prior", PRIORS, ids=["no-prior", "prior-a", "prior-b"])
def test_calibrated_chain_learns_hidden_offsets_and_tie_order(
    order: tuple[Move, ...], prior: dict[Move, tuple[int, int, int]]
) -> None:
    theirs = DE_BRUIJN * 100
    errors = replies_to_hidden_model(CalibratedMarkovChain(2), theirs, prior, order)
    assert sum(errors[36:]) == 0, (
        f"errors after round 36: {[i for i, e in enumerate(errors) if e][:20]}"
    )
    if prior or order != (R, P, S):
        # the plain chain cannot see the offsets: the scenario really needs calibration
        plain = replies_to_hidden_model(MarkovChain(2), theirs, prior, order)
        assert sum(plain[36:]) > 0


DOUBT_PRIORS = PRIORS + [{R: (9, 2, 7), P: (4, 8, 8), S: (6, 6, 1)}]


def doubts_against_hidden_model(
    order: Sequence[Move], prior: dict[Move, tuple[int, int, int]], theirs: Sequence[Move]
) -> tuple[int, int, int]:
    """As :func:`replies_to_hidden_model`, asking doubt() each round: the rounds where the
    hidden choice was the prediction plus 2 (the one miss that beats the move answering the
    prediction), those of them not doubted, and the rounds doubted after round 100."""
    predictor = CalibratedMarkovChain(2)
    dangerous = undoubted = doubted_late = 0

    def ask(i: int, hidden: Move) -> None:
        nonlocal dangerous, undoubted, doubted_late
        predicted = predictor.predict()
        doubt = predictor.doubt()
        assert doubt is False or doubt is True
        assert predicted is not None or not doubt
        if predicted is not None and hidden == (predicted + 2) % 3:
            dangerous += 1
            undoubted += not doubt
        doubted_late += doubt and i >= 100

    replies_to_hidden_model(predictor, theirs, prior, order, ask)
    return dangerous, undoubted, doubted_late


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
@pytest.mark.parametrize(
    "prior", DOUBT_PRIORS, ids=["no-prior", "prior-a", "prior-b", "prior-large"]
)
@pytest.mark.parametrize("seed", [None, 1])
def test_calibrated_chain_doubts_whenever_its_miss_would_beat_our_answer(
    order: tuple[Move, ...], prior: dict[Move, tuple[int, int, int]], seed: int | None
) -> None:
    """Where the hidden choice is the prediction plus 2, the replies so far must have left
    it open: doubt() says so. And doubt() is not said for nothing: once the offsets are
    learnt, it falls (nearly) silent."""
    theirs = (
        DE_BRUIJN * 30 if seed is None else [random.Random(seed).randrange(3) for _ in range(270)]
    )
    _, undoubted, doubted_late = doubts_against_hidden_model(order, prior, theirs)
    assert undoubted == 0, f"{undoubted} misses beat our answer undoubted"
    assert doubted_late <= 2, f"doubt in {doubted_late} late rounds"


def test_a_dangerous_miss_is_doubted() -> None:
    """The test above is not vacuous: in this scenario (found by search: such misses are
    rare with two-move contexts) the hidden choice is once the prediction plus 2, and
    doubt() had said so (a chain that never doubted would fail)."""
    prior = {R: (0, 1, 1), P: (5, 2, 4), S: (4, 9, 3)}
    theirs = [random.Random(2).randrange(3) for _ in range(270)]
    dangerous, undoubted, _ = doubts_against_hidden_model((S, R, P), prior, theirs)
    assert dangerous >= 1 and undoubted == 0


def test_doubt_is_exactly_whether_the_bounds_admit_the_dangerous_argmax() -> None:
    """Against brute force: every offset pair inside a row's bounds (a small box suffices
    when counts are small), does any make the prediction plus 2 the argmax (first of R, P,
    S on ties)?"""
    from roshambo.engine.predictors.markov import UNBOUNDED

    rng = random.Random(7)
    outcomes: set[bool] = set()
    for _ in range(200):
        predictor = CalibratedMarkovChain(1)
        for _ in range(rng.randrange(1, 12)):
            predictor.update(rng.randrange(3), rng.randrange(3))
        predicted = predictor.predict()
        row = predictor._counts.table.get(predictor._context)
        bounds = predictor._bounds.get(predictor._context)
        if predicted is None or row is None or bounds is None:
            assert not predictor.doubt()
            continue
        low_a, high_a, low_b, high_b, low_c, high_c = (
            max(-60, min(60, x)) if abs(x) >= UNBOUNDED // 2 else x for x in bounds
        )
        target = (predicted + 2) % 3
        feasible = any(
            low_c <= x1 - x2 <= high_c and argmax3([row[0], row[1] + x1, row[2] + x2]) == target
            for x1 in range(low_a, high_a + 1)
            for x2 in range(low_b, high_b + 1)
        )
        assert predictor.doubt() == feasible, (row, bounds, predicted)
        outcomes.add(feasible)
    assert outcomes == {False, True}


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
@pytest.mark.parametrize("seed", [1, 2])
def test_calibrated_windowed_frequency_learns_a_hidden_tie_order(
    order: tuple[Move, ...], seed: int
) -> None:
    """The shape of a bot that counts the other side's last ten moves and breaks ties in its
    own (for example hash-seed dependent) order."""
    rng = random.Random(seed)
    predictor = CalibratedMarkovChain(1, num_records=10)
    theirs: list[Move] = []
    errors = []
    for _ in range(1000):
        if theirs:
            last_ten = theirs[-10:]
            hidden = hidden_choice([last_ten.count(m) for m in range(3)], order)
            errors.append(predictor.predict() != hidden)
            mine = beats(hidden)
        else:
            mine = R
        their = rng.randrange(3)
        predictor.update(mine, their)
        theirs.append(their)
    assert sum(errors[-500:]) == 0, f"{sum(errors[-500:])} errors in the last 500 rounds"


def closure(bounds: list[int]) -> list[int] | None:
    """The difference-bound closure of a = b + c's intervals [low a, high a, low b, high b,
    low c, high c], by the triangle rules written with max and min (a test oracle for the
    calibrated chain's closure); None if infeasible."""
    low_a, high_a, low_b, high_b, low_c, high_c = bounds
    low_a, high_a = max(low_a, low_b + low_c), min(high_a, high_b + high_c)
    low_b, high_b = max(low_b, low_a - high_c), min(high_b, high_a - low_c)
    low_c, high_c = max(low_c, low_a - high_b), min(high_c, high_a - low_b)
    closed = [low_a, high_a, low_b, high_b, low_c, high_c]
    return closed if low_a <= high_a and low_b <= high_b and low_c <= high_c else None


def reply_limits(winner: int, d01: int, d02: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two bounds (slot, limit) a reply whose argmax is ``winner`` sets: a <= d01 and
    b <= d02 for the first move, a >= d01 + 1 and c >= d21 for the second, b >= d02 + 1 and
    c <= d21 - 1 for the third."""
    d21 = d01 - d02
    return (((1, d01), (3, d02)), ((0, d01 + 1), (4, d21)), ((2, d02 + 1), (5, d21 - 1)))[winner]


def test_calibrated_restart_is_the_closure_of_one_reply() -> None:
    """A contradicted (or new) row restarts from one reply's bounds, closed by a formula
    written out instead of by the closure: the two must agree on every count difference."""
    from roshambo.engine.predictors.markov import UNBOUNDED, _restarted

    rng = random.Random(3)
    for _ in range(3000):
        d01, d02 = (
            rng.randint(-3 * 10**6, 3 * 10**6) if rng.random() < 0.3 else rng.randint(-4, 4)
            for _ in range(2)
        )
        for winner in range(3):
            bounds = [-UNBOUNDED, UNBOUNDED] * 3
            for slot, limit in reply_limits(winner, d01, d02):
                bounds[slot] = limit
            assert closure(bounds) == _restarted(winner, d01, d02, d21=d01 - d02)


def test_calibrated_constraint_is_the_closure_of_the_bounds_and_the_reply() -> None:
    """A reply tightens a row's closed bounds by its two limits and the closure, in
    ``_constrain`` and ``_tightened`` alike: where that is feasible both give the closure's
    bounds (and the row is no longer contradicted), else the row restarts from the reply
    alone."""
    from roshambo.engine.predictors.markov import UNBOUNDED, _constrain, _restarted, _tightened

    rng = random.Random(5)
    feasible = infeasible = 0
    for _ in range(4000):
        # closed bounds from a few replies, as a row's are
        bounds = [-UNBOUNDED, UNBOUNDED] * 3
        for _ in range(rng.randint(0, 4)):
            limited = list(bounds)
            for slot, limit in reply_limits(
                rng.randrange(3), rng.randint(-5, 5), rng.randint(-5, 5)
            ):
                limited[slot] = min(limited[slot], limit) if slot % 2 else max(limited[slot], limit)
            bounds = closure(limited) or bounds
        n0, n1, n2 = (rng.randint(0, 9) for _ in range(3))
        d01, d02, d21 = n0 - n1, n0 - n2, n2 - n1
        winner = rng.randrange(3)
        limited = list(bounds)
        for slot, limit in reply_limits(winner, d01, d02):
            limited[slot] = min(limited[slot], limit) if slot % 2 else max(limited[slot], limit)
        expected = closure(limited)
        rows, contradicted = {7: list(bounds)}, {7}
        broke = _constrain(rows, contradicted, 7, winner, d01, d02, d21)
        shift = rng.randrange(3)  # _tightened reads the argmax as our move plus 2 less the shift
        tightened = _tightened(bounds, (n0, n1, n2, (winner + 1 + shift) % 3), shift)
        if expected is None:
            infeasible += 1
            assert broke and rows[7] == _restarted(winner, d01, d02, d21) and contradicted == {7}
            assert tightened is None
        else:
            feasible += 1
            assert not broke and rows[7] == expected and not contradicted
            assert tightened == expected
    assert feasible > 1000 and infeasible > 500, (feasible, infeasible)


def test_outcome_roll_table_decays_by_0_9_by_default() -> None:
    table = OutcomeRollTable()
    assert table.decay == 0.9
    script = random_rounds(51, 250)
    got = predictions(table, script)
    expected = [
        outcome_roll_reference(script[:n], "their", Fraction(9, 10)) for n in range(len(script) + 1)
    ]
    assert got == expected
    # and the check can tell 0.9 from its neighbours
    for other in (Fraction(8, 10), Fraction(1)):
        assert expected != [
            outcome_roll_reference(script[:n], "their", other) for n in range(len(script) + 1)
        ]


@pytest.mark.parametrize("roll", [0, 1, 2])
def test_outcome_roll_table_predicts_a_constant_roll_of_their_moves(roll: int) -> None:
    rng = random.Random(roll)
    theirs = [R]
    for _ in range(60):
        theirs.append((theirs[-1] + roll) % 3)
    rounds = [(rng.randrange(3), t) for t in theirs]
    got = predictions(OutcomeRollTable("their"), rounds)
    assert got[0] is None
    for k in range(1, len(rounds)):
        # nothing to say until this round's result row has seen a roll; then exact
        assert got[k] in (None, (theirs[k - 1] + roll) % 3), k
    assert got[20:] == [(t + roll) % 3 for t in theirs[19:]]


@pytest.mark.parametrize("roll", [0, 1, 2])
def test_outcome_roll_table_predicts_a_constant_roll_of_our_moves(roll: int) -> None:
    rng = random.Random(10 + roll)
    mine = [rng.randrange(3) for _ in range(60)]
    theirs = [R] + [(m + roll) % 3 for m in mine[:-1]]  # e.g. roll 1: kris, beating our last move
    got = predictions(OutcomeRollTable("mine"), list(zip(mine, theirs)))
    for k in range(1, len(mine)):
        assert got[k] in (None, (mine[k - 1] + roll) % 3), k
    assert got[20:] == [(m + roll) % 3 for m in mine[19:]]


def test_outcome_roll_table_recent_evidence_outweighs_old() -> None:
    """All ties: 50 rolls of +1, then their move stays put (roll 0). With weights 0.9 ** age
    the roll-0 row wins once 0.9 ** k * (2 - 0.9 ** 50) < 1, i.e. after k = 7 rounds
    (undecayed counts would need 51)."""
    theirs = [k % 3 for k in range(51)] + [S] * 20  # R P S ... S, then S S S ...
    got = predictions(OutcomeRollTable("their"), [(t, t) for t in theirs])
    for k in range(1, 21):
        expected = R if k <= 6 else S  # S + 1 while +1 still dominates, then S + 0
        assert got[51 + k] == expected, f"after {k} rounds of roll 0"


@pytest.mark.parametrize("lag", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("roll", [0, 1, 2])
def test_lagged_rolls_lock_on_a_reaction_to_our_move_k_rounds_back(lag: int, roll: int) -> None:
    """A bot playing our move ``lag`` rounds back turned by ``roll`` (beat it, copy it,
    lose to it) is predicted within a few rounds of its first reactions, whatever the lag
    (chance agreements of the other lags over the random opening may lead for a round or
    three), and from then on without a miss."""
    rng = random.Random(31 * lag + roll)
    mine = [rng.randrange(3) for _ in range(80)]
    theirs = [rng.randrange(3) if i < lag else (mine[i - lag] + roll) % 3 for i in range(80)]
    got = predictions(LaggedRolls("mine", 8), list(zip(mine, theirs)))
    # got[i] predicts round i; the reaction has been seen three times after round lag + 2
    wrong = [i for i in range(lag + 3, 80) if got[i] != theirs[i]]
    assert len(wrong) <= 3 and all(i < lag + 6 for i in wrong), wrong
    assert got[lag + 12 : -1] == theirs[lag + 12 :]


def test_lagged_rolls_wait_for_three_hits_and_relearn_a_new_lag() -> None:
    """Silent until a (lag, roll) has held three times running; after a switch from lag 1 to
    lag 3 the decayed counts (0.9) let the new reaction lead within ten rounds."""
    rng = random.Random(5)
    mine = [rng.randrange(3) for _ in range(200)]
    theirs = [R] + [(mine[i - 1] + 1) % 3 if i < 100 else mine[i - 3] for i in range(1, 200)]
    got = predictions(LaggedRolls("mine", 4), list(zip(mine, theirs)))
    assert got[:3] == [None, None, None]
    assert got[10:100] == theirs[10:100]
    assert got[110:-1] == theirs[110:]


def test_lagged_rolls_keep_predicting_after_the_weights_are_folded_back() -> None:
    """At decay 0.5 the scale passes RESCALE_AT after about 330 rounds: the fold must not
    change what is predicted."""
    rng = random.Random(9)
    mine = [rng.randrange(3) for _ in range(1000)]
    theirs = [R, R] + [(mine[i - 2] + 2) % 3 for i in range(2, 1000)]
    got = predictions(LaggedRolls("mine", 3, decay=0.5), list(zip(mine, theirs)))
    assert got[10:-1] == theirs[10:]


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("decay", [1.0, 0.95, 0.8])
@pytest.mark.parametrize("rotation", [0, 1, 2])
def test_decayed_contexts_read_a_context_counter_of_any_order_memory_and_turn(
    k: int, decay: float, rotation: int
) -> None:
    """Shown the swapped histories (as the mirrored half is), the predictor names the move
    a counter of our last k moves expects of us, turned as the counter turns it: the counter
    then plays that move + 1. Our moves: random stretches and repeated patterns, so that
    contexts recur. Few misses after the first 150 rounds, whatever the order, the decay
    (memories 20 and 5 are not on the grid) and the second-guessing."""
    rng = random.Random(100 * k + rotation)
    misses = _misses_against_a_context_counter(
        k, decay, rotation, lambda t: rng.randrange(3) if t % 40 < 25 else (0, 1, 1, 2)[t % 4]
    )
    assert misses <= 60, misses  # of 450 (a guess would miss about 300)


def _misses_against_a_context_counter(
    k: int, decay: float, rotation: int, our_move: Callable[[int], Move]
) -> int:
    """How often DecayedContexts(), shown the swapped histories (as the mirrored half is),
    fails to name the move a counter of our last k moves expects of us, turned as it turns
    it (the counter then plays that move + 1), over rounds 150-599; our move in round t is
    ``our_move(t)``."""
    from roshambo.opponents.relatives import ContextCounter

    bot = ContextCounter(k, decay, rotation)
    predictor = DecayedContexts()
    ours: Move | None = None
    misses = 0
    for t in range(600):
        theirs = bot.move(ours)
        if t >= 150:
            q = predictor.predict()
            misses += q is None or (q + 1) % 3 != theirs
        ours = our_move(t)
        predictor.update(theirs, ours)  # swapped: the bot's reply is "mine", our move "theirs"
    return misses


@pytest.mark.parametrize("k", [7, 9, 16, 30])
@pytest.mark.parametrize("decay", [1.0, 0.8])
@pytest.mark.parametrize("rotation", [0, 2])
def test_decayed_contexts_read_a_context_counter_of_an_order_above_the_rows(
    k: int, decay: float, rotation: int
) -> None:
    """Orders above max_order (here 3) are read off the trie of longer contexts, up to
    ``deep`` (32): against a counter of our last 7 to 30 moves, few misses after the first
    150 rounds. Our moves: random stretches, and a pattern repeated long enough that those
    orders' contexts recur (a context never seen, or longer than the moves so far, predicts
    R)."""
    rng = random.Random(10 * k + rotation)
    misses = _misses_against_a_context_counter(
        k,
        decay,
        rotation,
        lambda t: rng.randrange(3) if t % 100 < 40 else (0, 1, 1, 2, 0, 2, 2)[t % 7],
    )
    assert misses <= 60, misses  # of 450 (a guess would miss about 300)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(["R", "RP", "RPS", "PPS", "SRRP", "S"]), min_size=2, max_size=14),
    st.integers(0, 2**16),
)
def test_decayed_contexts_deep_orders_agree_with_the_reference(
    pieces: list[str], seed: int
) -> None:
    """Scripts of repeated pieces (so long contexts recur and part at every depth): the trie
    of orders 2 to 10 and its shared runs predict, after every round, what recounting every
    order from scratch does."""
    rng = random.Random(seed)
    theirs = moves("".join(piece * rng.randrange(1, 5) for piece in pieces))[:90]
    script = [(rng.randrange(3), t) for t in theirs]
    predictor = DecayedContexts(1, (3, None), min_score=1, half="both", deep=10)
    model = reference_for(predictor)
    assert model is not None
    got = predictions(predictor, script)
    assert got == [model(script[:n]) for n in range(len(script) + 1)]


def test_decayed_contexts_split_a_leaf_of_several_occurrences() -> None:
    """A leaf whose occurrences share all ``deep`` moves but were followed by different
    moves, parted from by a later occurrence: the chain above it and the leaf keep every
    count (a script found against a mutant that kept one)."""
    theirs = moves("RRPPPPRRPPPPRPRPPPPRRPP")
    mine = [1, 0, 2, 0, 1, 1, 0, 2, 0, 0, 2, 2, 0, 1, 2, 1, 0, 1, 2, 0, 1, 0, 0]
    script = list(zip(mine, theirs))
    predictor = DecayedContexts(1, (4, None), min_score=1, half="both", deep=6)
    model = reference_for(predictor)
    assert model is not None
    assert predictions(predictor, script) == [model(script[:n]) for n in range(len(script) + 1)]


def test_decayed_contexts_count_each_order_with_the_memories_it_can_tell_apart() -> None:
    """An order keeps the memories up to twice its contexts' recurrences in the horizon (at
    least the shortest), and the whole match; with no horizon, every memory."""
    from roshambo.engine.predictors.decayed import order_memories

    grid = (4, 8, 16, 32, 64, None)
    assert [order_memories(k, grid, 1000) for k in (1, 3, 4, 5, 6, 9)] == [
        grid,
        grid,  # 74 recurrences' worth
        (4, 8, 16, None),  # 24
        (4, 8, None),  # 8
        (4, None),  # 2.7: the shortest still
        (4, None),
    ]
    assert order_memories(9, grid, None) == grid
    assert order_memories(2, (None,), 10) == (None,)
    assert DecayedContexts(6).order_memories == tuple(
        order_memories(k, grid, 1000) for k in range(1, 7)
    )
    # the trie's orders, above the rows, count with the memories of the first of them
    assert DecayedContexts(5).deep_memories == (4, None) == order_memories(6, grid, 1000)
    assert DecayedContexts(2, horizon=None).deep_memories == grid


def test_decayed_contexts_idle_in_the_direct_half() -> None:
    predictor = DecayedContexts()
    predictor.join(Features(), mirrored=False)
    assert [predictor.update(m, t) for m, t in random_rounds(3, 50)] == [None] * 50
    predictor.reset()
    predictor.join(Features(), mirrored=True)
    assert any(predictor.update(m, m) is not None for m, _ in random_rounds(3, 50))


class MetaPlayer:
    """A meta-player written here: agents predicting the other side's next move (its move
    frequencies, what followed the last 1 to 3 moves of either side or of both) or this
    side's own (answered: the other side would beat it), counts forgetting with ``memory``,
    an arm per turn of each, scored +1 / -1 forgetting with ``score_memory``; it plays the
    best arm's move, at random while none is positive. No history matcher: a meta-player
    with fewer agents than the model."""

    def __init__(self, memory: int, score_memory: int, seed: int) -> None:
        self.keep, self.score_keep = 1 - 1 / memory, 1 - 1 / score_memory
        self.rng = random.Random(seed)
        self.frequency = [[0.0] * 3, [0.0] * 3]  # the other side's moves, then its own
        self.rows: dict[object, list[list[float]]] = {}
        self.history: list[Round] = []  # (the other side's move, its own)
        self.scores = [0.0] * (3 * 20)
        self.expected: list[Move | None] = [None] * 20  # the other side's move each expects

    def move(self) -> Move:
        arms = [arm for arm in range(len(self.scores)) if self.expected[arm // 3] is not None]
        best = max(arms, key=lambda arm: (self.scores[arm], -arm), default=None)
        if best is None or self.scores[best] <= 0:
            return self.rng.randrange(3)
        return (self.expected[best // 3] + 1 + best % 3) % 3  # type: ignore[operator]

    def contexts(self) -> list[object]:
        h = self.history
        return [
            (view, tuple(r if view == 2 else r[view] for r in h[-k:]))
            for k in (1, 2, 3)
            for view in (0, 1, 2)
            if len(h) >= k
        ]

    def observe(self, other: Move, own: Move) -> None:
        self.scores = [score * self.score_keep for score in self.scores]
        for a, e in enumerate(self.expected):
            if e is not None:
                for k in range(3):
                    self.scores[3 * a + k] += outcome(e + 1 + k, other)
        for side, move in enumerate((other, own)):
            self.frequency[side] = [c * self.keep for c in self.frequency[side]]
            self.frequency[side][move] += 1
        for key in self.contexts():
            rows = self.rows.setdefault(key, [[0.0] * 3, [0.0] * 3])
            for side, move in enumerate((other, own)):
                rows[side] = [c * self.keep for c in rows[side]]
                rows[side][move] += 1
        self.history.append((other, own))
        keys = self.contexts()
        sides: list[list[Move | None]] = []
        for side in range(2):
            said = [argmax_first(self.frequency[side])]
            said += [
                argmax_first(self.rows[key][side]) if key in self.rows else None for key in keys
            ]
            said += [None] * (10 - len(said))
            sides.append(said if side == 0 else [None if q is None else (q + 1) % 3 for q in said])
        self.expected = sides[0] + sides[1]


@pytest.mark.parametrize("memory, score_memory", [(5, 10), (10, 14), (20, 40)])
def test_meta_of_agents_predicts_a_meta_player_of_other_memories(
    memory: int, score_memory: int
) -> None:
    """A meta-player whose agents are among the model's but whose memories are not: its
    moves are named far more often than a guess's third (56%, 51% and over 60% here),
    though our moves are random, so its best arm changes every few rounds."""
    rng = random.Random(memory)
    player, predictor = MetaPlayer(memory, score_memory, seed=memory), MetaOfAgents()
    hits = spoken = 0
    for t in range(600):
        theirs, mine = player.move(), rng.randrange(3)
        if t >= 100 and predictor.predict() is not None:
            spoken += 1
            hits += predictor.predict() == theirs
        player.observe(mine, theirs)
        predictor.update(mine, theirs)
    assert spoken >= 400 and hits >= 0.45 * spoken, (spoken, hits)


def test_meta_of_agents_idles_in_the_mirrored_half_and_reads_the_shared_pair_index() -> None:
    rounds = mixed_rounds(12, 300)
    idle = MetaOfAgents()
    idle.join(Features(), mirrored=True)
    assert [idle.update(m, t) for m, t in rounds] == [None] * len(rounds)
    # in the direct half it reads the pair index the line-up's matcher reads too
    matcher, hub = HistoryMatcher("both", 12, 1000), Features()
    matcher.join(hub, mirrored=False)
    reader = MetaOfAgents()
    reader.join(hub, mirrored=False)
    assert len(hub) == 1 and len(hub.taken) == 2
    said = []
    for m, t in rounds:
        hub.update(m, t)
        matcher.update(m, t)
        said.append(reader.update(m, t))
    assert said == predictions(MetaOfAgents(), rounds)[1:]
    assert any(s is not None for s in said)


def test_tie_reading_frequency_for_the_mirrored_half_idles_in_the_direct_half() -> None:
    reader = TieReadingFrequency(None, min_count=3, half="mirrored")
    reader.join(Features(), mirrored=False)
    assert [reader.update(m, t) for m, t in random_rounds(3, 50)] == [None] * 50
    assert reader.predict() is None
    reader.reset()
    reader.join(Features(), mirrored=True)
    assert any(reader.update(m, t) is not None for m, t in random_rounds(3, 50))


def test_sharpest_context_decays_by_0_9_by_default() -> None:
    predictor = SharpestContext()
    assert predictor.decay == 0.9 and predictor.name == "sharpest"
    assert SharpestContext(0.98).name == "sharpest-0_98"
    script = mixed_rounds(52, 250)
    expected = [sharpest_reference(script[:n], Fraction(9, 10)) for n in range(len(script) + 1)]
    assert predictions(predictor, script) == expected
    for other in (Fraction(8, 10), Fraction(1)):
        assert expected != [sharpest_reference(script[:n], other) for n in range(len(script) + 1)]


def test_sharpest_context_follows_a_rule_keyed_on_both_moves() -> None:
    """Their move is a fixed function of the previous (ours, theirs) pair; our moves are
    random. Only the joint view is sharp, and it is exact once each pair was seen."""
    rng = random.Random(6)
    rule = {(m, t): rng.randrange(3) for m in range(3) for t in range(3)}
    rounds = [(rng.randrange(3), R)]
    for _ in range(300):
        rounds.append((rng.randrange(3), rule[rounds[-1]]))
    got = predictions(SharpestContext(), rounds)
    assert got[0] is None and got[1] is None  # nothing counted before a second round
    assert all(got[n] == rule[rounds[n - 1]] for n in range(100, len(rounds) + 1))


def test_sharpest_context_prefers_the_more_specific_view_on_ties() -> None:
    # after R-then-P twice (ours and theirs alike), every view that saw it is fully sharp
    predictor = SharpestContext()
    for mine, theirs in [(R, R), (P, P), (R, R), (P, P), (R, R)]:
        predictor.update(mine, theirs)
    assert predictor.predict() == P


def test_sharpest_context_follows_a_switch_through_its_specific_views() -> None:
    """Thirty rounds of rock, then paper: the views keyed on their paper are new and fully
    sharp after one paper-after-paper round, while the views that do not see their move
    still lean to rock (30 decayed rocks against 1 paper)."""
    rounds = [(S, R)] * 30 + [(S, P)] * 10
    got = predictions(SharpestContext(), rounds)
    assert got[2:32] == [R] * 30  # up to and including the first paper round
    assert got[32:] == [P] * 9


def test_blended_contexts_scripted() -> None:
    rounds = [(R, t) for t in moves("RRRRRRP")]
    # after six rocks every order's context was followed by rock only
    assert predictions(BlendedContexts(3, "their"), rounds)[6] == R
    # a paper never followed by anything: no order has a row, no prediction
    assert predictions(BlendedContexts(1, "their"), rounds)[7] is None
    # a cycle locks on as soon as each context has been followed once
    cycle = [(R, t) for t in moves("RPS" * 10)]
    assert predictions(BlendedContexts(4, "both"), cycle)[4:] == moves("RPS" * 10)[4:] + [R]


def test_blended_contexts_weighting_is_what_decides() -> None:
    """The reference pins the count weighting: a plain sum of the orders' rows, or the
    longest order alone, would predict differently on the same rounds."""
    script = mixed_rounds(53, 250)
    got = predictions(BlendedContexts(4), script)

    def plain_sum(rounds: Sequence[Round]) -> Move | None:
        n, total = len(rounds), [0, 0, 0]
        for length in range(1, min(4, n) + 1):
            row = [
                sum(
                    1
                    for i in range(length, n)
                    if [symbol("both", *r) for r in rounds[i - length : i]]
                    == [symbol("both", *r) for r in rounds[n - length :]]
                    and rounds[i][1] == m
                )
                for m in range(3)
            ]
            total = [a + b for a, b in zip(total, row)]
        return argmax_first(total)

    assert got != [plain_sum(script[:n]) for n in range(len(script) + 1)]
    assert got != [markov_reference(script[:n], 5, None, "both") for n in range(len(script) + 1)]


def test_random_guess_is_seeded_and_silent_before_the_first_round() -> None:
    guess = RandomGuess(random.Random(3))
    assert guess.predict() is None
    script = random_rounds(4, 100)
    assert predictions(guess, script) == predictions(RandomGuess(random.Random(3)), script)
    assert len(set(predictions(RandomGuess(random.Random(5)), script)[1:])) == 3


@pytest.mark.parametrize("shift", [0, 1, 2])
def test_shifted_calibration_reads_a_second_guessing_reply(shift: int) -> None:
    """A side that counts the other's transitions, with hidden prior counts, and replies to
    its prediction rotated by ``shift``: the shift-inferring chain learns it, for every
    shift; the plain chain only for shift 0."""
    rng = random.Random(shift)
    prior = PRIORS[1]

    def errors(predictor: Predictor) -> int:
        return misses_of_hidden_model(
            predictor, rng, 600, prior, lambda hidden, _: (hidden + 1 + shift) % 3
        )

    assert errors(CalibratedMarkovChain(2, infer_shift=True)) <= 5  # of 500 rounds
    if shift:
        assert errors(CalibratedMarkovChain(2)) > 100


# --- counting windows ----------------------------------------------------------------------


def test_counting_windows_keep_every_windows_counts_packed() -> None:
    rng = random.Random(3)
    predictor = CountingWindows("their", max_window=20)
    theirs: list[Move] = []
    for _ in range(200):
        move = rng.randrange(3)
        predictor.update(rng.randrange(3), move)
        theirs.append(move)
        for window in (1, 2, 7, 20):
            packed = [(c >> (FIELD * (window - 1))) & 0x7FFF for c in predictor._counted.counts]
            assert packed == [theirs[-window:].count(m) for m in range(3)]
        whole = [theirs.count(m) for m in range(3)]  # the field after the last window's
        assert [(c >> (FIELD * 20)) & 0x7FFF for c in predictor._counted.counts] == [
            n - min(whole) for n in whole
        ]


@pytest.mark.parametrize(
    "window, target, tie",
    [(23, "most", "first"), (41, "least", "last"), (3, "most", "SRP"), (50, "most", "last")],
)
def test_counting_windows_find_the_window_target_and_tie_rule(
    window: int, target: str, tie: str
) -> None:
    from roshambo.opponents.relatives import RecentCounter

    bot = RecentCounter(window, target, tie)
    predictor = CountingWindows("mine", max_window=64)
    rng = random.Random(window)
    wrong = 0
    ours: Move | None = None
    for i in range(1500):
        theirs = bot.move(ours)
        wrong += i >= 500 and predictor.predict() != theirs
        ours = rng.randrange(3)
        predictor.update(ours, theirs)
    assert wrong <= 20, wrong  # of 1000 rounds against random moves of ours, ties and all


def read_through_noise(
    predictor: CountingWindows, bot: Any, noise: random.Random, play: Callable[[int, Move], Move]
) -> float:
    """How often ``predictor`` predicts what ``bot`` meant to play in rounds 300-1499, while
    it plays a random move one time in five (drawn from ``noise``) and we play ``play(i,
    meant)`` in round i, where it meant to play ``meant``."""
    right = 0
    ours: Move | None = None
    for i in range(1500):
        meant = bot.move(ours)
        theirs = noise.randrange(3) if noise.random() < 0.2 else meant
        right += i >= 300 and predictor.predict() == meant
        ours = play(i, meant)
        predictor.update(ours, theirs)
    return right / 1200


def share_of_meant_moves_read(window: int | None, target: str, tie: str, seed: int) -> float:
    """How often the counting windows predict what a counter of our last ``window`` moves
    (None: all of them) meant to play, in rounds 300-1499, while it plays a random move one
    time in five and we play at random."""
    from roshambo.opponents.relatives import RecentCounter

    rng, noise = random.Random(seed), random.Random(seed + 100)
    return read_through_noise(
        CountingWindows("mine", max_window=64),
        RecentCounter(window, target, tie),
        noise,
        lambda i, meant: rng.randrange(3),
    )


@pytest.mark.parametrize(
    "window, target, tie", [(20, "most", "first"), (35, "most", "last"), (50, "most", "RPS")]
)
def test_counting_windows_keep_the_true_window_through_random_moves(
    window: int, target: str, tie: str
) -> None:
    """The window that explains a noisy counter's other moves keeps its lead over
    neighbours that agree with it but for a leader change now and then. Following the best
    decayed score instead, a neighbour took over after random moves and the predictor was
    right about 89-93% of those moves."""
    assert share_of_meant_moves_read(window, target, tie, seed=0) >= 0.97


@pytest.mark.parametrize("target, tie", [("most", "first"), ("least", "last"), ("most", "RPS")])
def test_counting_windows_read_a_counter_of_the_whole_match(target: str, tie: str) -> None:
    """The whole match's field explains a noisy counter of all our moves so far (the
    windows up to 64 moves were right about 60% of the time)."""
    assert share_of_meant_moves_read(None, target, tie, seed=1) >= 0.99


def test_counting_windows_follow_the_best_decayed_score_after_new_match() -> None:
    """Carried into a new match, the counting windows choose as they did before the
    records: whenever the followed window misses, the best decayed score's is taken."""
    from roshambo.opponents.relatives import RecentCounter

    predictor = CountingWindows("mine", max_window=64)
    rng = random.Random(4)
    changes = 0
    bots = [
        RecentCounter(w, t, "first")
        for w, t in ((3, "least"), (10, "most"), (4, "least"), (25, "most"))
    ]
    for number, bot in enumerate(bots):
        ours: Move | None = None
        for _ in range(150):
            theirs = bot.move(ours)
            ours = rng.randrange(3)
            before = predictor._best
            predictor.update(ours, theirs)
            if number and predictor._best != before:
                changes += 1
                assert predictor._best == predictor._rescan()
        if not number:
            records = predictor._records
            predictor.new_match()
        assert predictor._records == records  # kept, no longer read
    assert changes >= 3, changes


@pytest.mark.parametrize("lead, split_ties", [(6, False), (48, False), (6, True), (48, True)])
def test_counting_windows_keep_every_record_within_the_lead_of_the_best(
    lead: int, split_ties: bool
) -> None:
    from roshambo.engine.predictors.windows import FULL

    most = FULL * lead  # records count a hit on an untied move as FULL
    rng = random.Random(5)
    predictor = CountingWindows("their", max_window=16, lead=lead, split_ties=split_ties)
    reached = False
    for i in range(1500):
        predictor.update(rng.randrange(3), rng.randrange(3) if i % 50 < 25 else i % 3)
        n = predictor._fields  # 16 windows and the whole match, per target
        fields = [(predictor._records >> (FIELD * j)) & 0xFFFF for j in range(2 * n)]
        kind, window = predictor._best
        assert fields[n * kind + window] == max(fields) <= most and min(fields) >= 0
        reached = reached or max(fields) == most
        assert (
            max(fields) == most or not reached
        )  # once some record is the lead, the best stays there
    assert reached and min(fields) < most


def tied_with(counts: Sequence[int], move: Move) -> int:
    """How many moves' counts equal ``move``'s (itself included)."""
    return sum(c == counts[move] for c in counts)


def test_split_ties_credit_a_hit_by_the_moves_tied_with_the_one_beaten() -> None:
    """With ``split_ties``, a window's record gains FULL (6) where their move beat the one
    move leading (trailing) its counts, 3 where it beat one of two tied there, 2 where all
    three tie, and nothing otherwise; without it, FULL for any hit, ties and all (a
    reference over the moves themselves, every window and the whole match)."""
    from roshambo.engine.predictors.windows import FULL

    rng = random.Random(8)
    for split_ties in (False, True):
        predictor = CountingWindows("mine", max_window=9, split_ties=split_ties)
        credited: list[int] = []
        follow = predictor._follow
        predictor._follow = lambda hits: (credited.append(hits), follow(hits))[1]  # type: ignore[method-assignment]
        mine: list[Move] = []
        for i in range(600):
            ours, theirs = (i // 3) % 3 if i % 4 else rng.randrange(3), rng.randrange(3)
            predictor.update(ours, theirs)
            if len(mine):
                hits = credited[-1]
                beaten = (theirs - 1) % 3
                for kind in (0, 1):
                    for j in range(10):
                        seen = mine[-(j + 1) :] if j < 9 else mine
                        counts = [seen.count(m) for m in range(3)]
                        if j == 9:
                            counts = [c - min(counts) for c in counts]
                        extreme = max(counts) if kind == 0 else min(counts)
                        hit = counts[beaten] == extreme
                        credit = (
                            (FULL // tied_with(counts, beaten) if split_ties else FULL)
                            if hit
                            else 0
                        )
                        assert (hits >> (FIELD * (10 * kind + j))) & 0xFFFF == credit, (i, kind, j)
            mine.append(ours)


def meant_moves_read(predictor: CountingWindows, pattern: Sequence[Move], seed: int) -> float:
    """How often ``predictor`` predicts what a counter of our last 5 moves, beating the most
    frequent (ties to the first seen), meant to play in rounds 300-1499, while it plays a
    random move one time in five and we play ``pattern`` over and over (a random move one
    time in ten)."""
    from roshambo.opponents.relatives import RecentCounter

    rng = random.Random(seed)  # the counter's random moves and ours, drawn in turn
    return read_through_noise(
        predictor,
        RecentCounter(5, "most", "first"),
        rng,
        lambda i, meant: pattern[i % len(pattern)] if rng.random() < 0.9 else rng.randrange(3),
    )


def test_split_ties_keep_a_window_whose_counts_all_tie_from_outscoring_the_true_one() -> None:
    """We play runs of three of each move: the last 9 moves then tie three ways almost
    always, so any reply "beats a leading move" there and that window hits every round,
    noise or not, while the true window (5) misses the counter's random moves. Credited a
    third, the all-tied window no longer takes the lead: the meant moves are read 98-99% of
    the time, against 92-97% with every hit counted whole (any lead)."""
    runs = [R, R, R, P, P, P, S, S, S]
    for seed in range(3):
        assert (
            meant_moves_read(CountingWindows("mine", 64, lead=48, split_ties=True), runs, seed)
            >= 0.98
        )
    whole = [
        meant_moves_read(CountingWindows("mine", 64, lead=lead), runs, seed)
        for lead in (6, 48)
        for seed in range(3)
    ]
    assert max(whole) < 0.97, whole


def tie_rule_misfits(
    mine: Sequence[Move], theirs: Sequence[Move], max_window: int
) -> list[list[list[int]]]:
    """The reference for the counting windows' tie-rule records, from their docstring: per
    field (windows 1 to ``max_window``, the whole match; MOST's, then LEAST's), pair i of
    moves (i, i + 1) and rule (a fixed preference for i, for i + 1, the move that entered
    the counted moves first, the one seen last; where neither is counted, R, P, S order),
    at every round where their move beat a leading (trailing) move of the field that tied
    the pair's other move, one more misfit for each rule that named the other move first;
    each field's four counts less the least of them, capped at RULE_CAP."""
    fields = max_window + 1
    misfits = [[[0] * 4 for _ in range(3)] for _ in range(2 * fields)]
    for t in range(1, len(mine)):
        beaten = (theirs[t] - 1) % 3
        for kind in (0, 1):
            for j in range(fields):
                seen = list(mine[:t]) if j == max_window else list(mine[max(0, t - j - 1) : t])
                base = t - len(seen)
                counts = [seen.count(m) for m in range(3)]
                extreme = max(counts) if kind == 0 else min(counts)
                if counts[beaten] != extreme:
                    continue
                entered = [base + seen.index(m) if m in seen else -1 for m in range(3)]
                last = [
                    base + len(seen) - 1 - seen[::-1].index(m) if m in seen else -1
                    for m in range(3)
                ]
                for other in range(3):
                    if other == beaten or counts[other] != extreme:
                        continue
                    i = beaten if (beaten + 1) % 3 == other else other
                    k = (i + 1) % 3
                    if entered[i] < 0 and entered[k] < 0:
                        first_entered = first_seen = i if i < 2 else k  # R, P, S order
                    else:
                        first_entered = i if entered[i] < entered[k] else k
                        first_seen = i if last[i] > last[k] else k
                    row = misfits[kind * fields + j][i]
                    for rule, named in enumerate((i, k, first_entered, first_seen)):
                        row[rule] += named != beaten
                    least = min(row)
                    row[:] = [min(x - least, RULE_CAP) for x in row]
    return misfits


@pytest.mark.parametrize("seed", range(3))
def test_tie_rule_records_count_each_fields_misfits_as_the_reference_does(seed: int) -> None:
    """Against the reference above, every field, pair and rule, every round: random moves on
    both sides, and ours drawn from two moves half the time (ties of every kind, absent
    moves included)."""
    rng = random.Random(seed)
    max_window, fields = 6, 7
    predictor = CountingWindows("mine", max_window=max_window, tie_rules=True)
    mine: list[Move] = []
    theirs: list[Move] = []
    for t in range(300):
        ours = rng.choice((R, P)) if (t // 40) % 2 else rng.randrange(3)
        mine.append(ours)
        theirs.append(rng.randrange(3))
        predictor.update(ours, theirs[-1])
        if t % 25 == 24 or t < 12:
            expected = tie_rule_misfits(mine, theirs, max_window)
            for f in range(2 * fields):
                got = [
                    [(predictor._counted.misfits[i][r] >> (FIELD * f)) & 0x7FFF for r in range(4)]
                    for i in range(3)
                ]
                assert got == expected[f], (t, f)


def test_tie_rules_cap_a_wrong_rules_misfits() -> None:
    """A fixed preference that a counter never follows runs at most RULE_CAP ahead."""
    predictor = CountingWindows("mine", max_window=4, tie_rules=True)
    # we alternate R and P; the counter of our last 2 (first seen) beats the one that
    # entered first: the fixed preference for P then misfits at every R-first tie
    from roshambo.opponents.relatives import RecentCounter

    bot = RecentCounter(2, "most", "first")
    ours: Move | None = None
    for i in range(400):
        theirs = bot.move(ours)
        ours = (R, P)[i % 2]
        predictor.update(ours, theirs)
    assert (
        max(
            (row[r] >> (FIELD * f)) & 0x7FFF
            for row in predictor._counted.misfits
            for r in range(4)
            for f in range(10)
        )
        == RULE_CAP
    )


@pytest.mark.parametrize("window, tie", [(3, "last"), (5, "first"), (12, "last"), (8, "RPS")])
def test_tie_rules_read_a_noisy_counters_ties_as_it_breaks_them(window: int, tie: str) -> None:
    """We play what beats the counter's move most of the time, as the engine does once it
    has found the counter out; that keeps our own counts level, so the counter's window
    ties in most rounds, and a fifth of its moves are random. Each window learns which of
    its tied moves the counter names first from its own ties (per pair of moves, the tie
    rule with the fewest misfits), and credits a hit on a tie only where that rule named
    the move beaten: in rounds 300-1499 the meant moves are read 99.9% of the time or more,
    where the reading that credits ties by the moves tied reads 89-98%."""
    from roshambo.opponents.relatives import RecentCounter

    for seed in range(2):
        reads = []
        for variant in ({"tie_rules": True}, {"split_ties": True}):
            rng = random.Random(seed)  # the counter's random moves and ours, drawn in turn
            reads.append(
                read_through_noise(
                    CountingWindows("mine", 64, lead=48, **variant),
                    RecentCounter(window, "most", tie),
                    rng,
                    lambda i, meant: (meant + 1) % 3 if rng.random() < 0.8 else rng.randrange(3),
                )
            )
        assert reads[0] >= 0.99 and reads[0] > reads[1], reads


@pytest.mark.parametrize("reading", [{"split_ties": True}, {"tie_rules": True}])
def test_counting_windows_that_read_one_shared_count_say_what_they_would_alone(
    reading: dict[str, bool],
) -> None:
    """Counting-windows predictors over the same side and windows read one feature (the
    counts, comparisons, decayed scores and tie rules' records), each keeping its own
    records, tie contexts and choice: each says exactly what it would alone, carried into a
    new match and all; only the first offers the exact model; it must be fresh, and
    ``reset`` leaves the hub."""
    rng = random.Random(9)
    rounds = [
        (rng.randrange(3), rng.randrange(3) if rng.random() < 0.3 else i % 3) for i in range(900)
    ]
    first, second = CountingWindows("mine", 32), CountingWindows("mine", 32, lead=48, **reading)
    alone = CountingWindows("mine", 32, lead=48, **reading)
    hub = Features()
    first.join(hub, False)
    second.join(hub, False)
    assert first.exact is not None and second.exact is None and alone.exact is not None
    other = CountingWindows("mine", 16)  # other windows: other counts
    other.join(hub, False)
    assert len(hub) == 2
    for i, (mine, theirs) in enumerate(rounds):
        if i == 600:
            for predictor in (first, second, alone):
                predictor.new_match()
        hub.update(mine, theirs)
        first.update(mine, theirs)
        assert second.update(mine, theirs) == alone.update(mine, theirs)
        assert second._best == alone._best
    assert second.predict() == alone.predict()
    with pytest.raises(ValueError, match="mid-match"):
        second.join(Features(), False)
    second.reset()
    second.update(R, P)
    assert second._counted.seen == 1 and second._counted is not first._counted


@pytest.mark.parametrize(
    "opponent",
    [
        "counter:window=3,target=most,tie=SPR",
        "counter:window=7,target=least,tie=RPS",
        "counter:window=12,target=most,tie=first",
        "counter:window=all,target=most,tie=last",
        "counter:window=5,target=most,tie=RPS,noise=0.2",
        "random",
    ],
)
def test_counting_windows_exact_is_what_a_rescan_of_every_window_finds(opponent: str) -> None:
    """``exact()`` is, after every round, what a rescan of the whole history finds (see
    windows_exact_by_rescan): against counters of our moves it names their next move in most
    rounds, and never wrongly (the counter's own field and tie rule fit every move, so any
    other move it leads or ties is named after the counter's); against random moves,
    windows that fit them by chance soon miss, so its tests stay few."""
    rng = random.Random(opponent)
    bot = None if opponent == "random" else make_relative(opponent, random.Random(3))
    predictor = CountingWindows("mine", max_window=12)
    ours: list[Move] = []
    theirs: list[Move] = []
    named = wrong = most_tests = 0
    mine: Move | None = None
    for t in range(60):
        their = rng.randrange(3) if bot is None else bot.move(mine)
        said = predictor.exact()
        if said is not None:
            named += 1
            wrong += said[0] != their
            most_tests = max(most_tests, said[1])
        mine = rng.randrange(3)
        ours.append(mine)
        theirs.append(their)
        predictor.update(mine, their)
        assert predictor.exact() == windows_exact_by_rescan(ours, theirs, 12), t
    if "noise" not in opponent and bot is not None:
        assert named >= 10 and wrong == 0, (named, wrong)
    if bot is None:
        assert most_tests < 3, most_tests


@pytest.mark.parametrize(
    "before",
    [
        "random",
        "counter:window=4,target=most,tie=RPS",
        "counter:window=9,target=least,tie=PSR",
        "cycle:pattern=RPSSP",
    ],
)
@pytest.mark.parametrize("seed", range(3))
def test_counting_windows_exact_starts_over_when_every_window_has_missed(
    before: str, seed: int
) -> None:
    """Once every window and target has missed, each starts over: a counter that takes over
    from another opponent (a switcher's next member, the next opponent of a carried match)
    is named with five tests within a few rounds of its first move, and from 50 rounds after
    the change in most rounds (at its ties, once its order is told apart from the others'),
    never wrongly (it breaks ties by a fixed order). A model tested before the
    change, or a window that fitted the other opponent and the counter's first moves by
    chance, misses once, and is out."""
    rng = random.Random(seed)
    first = None if before == "random" else make_relative(before, random.Random(seed))
    then = make_relative("counter:window=9,target=least,tie=SPR", random.Random(seed))
    predictor = CountingWindows("mine", max_window=16)
    mine: Move | None = None
    tested_from = None
    wrong = settled = 0
    for t in range(300):
        theirs = then.move(mine)  # it sees every move, as a switcher's members do
        if t < 100:
            theirs = rng.randrange(3) if first is None else first.move(mine)
        said = predictor.exact()
        if t >= 100 and said is not None and said[1] >= 5:
            tested_from = t if tested_from is None else tested_from
            wrong += said[0] != theirs
            settled += t >= 150 and said[0] == theirs
        mine = rng.randrange(3)
        predictor.update(mine, theirs)
    assert tested_from is not None and tested_from < 130 and wrong <= 1 and settled >= 100, (
        tested_from,
        wrong,
        settled,
    )


def tie_pick(moves: Sequence[Move], tied: list[Move], rule: str) -> Move:
    """Which of the ``tied`` moves (counted in ``moves``, or none of them) a tie ``rule``
    picks: a fixed order ("SPR"), the one that entered ``moves`` first or was seen last, or
    "set": R and P in the order they entered, S after both (a ``set``'s order where R and
    P share a slot, as under PYTHONHASHSEED=1)."""
    if rule == "last":
        seen = [len(moves) - moves[::-1].index(m) if m in moves else -1 for m in range(3)]
        return max(tied, key=lambda m: (seen[m], -m))
    if rule in ("first", "set"):
        entry = [moves.index(m) if m in moves else -1 for m in range(3)]
        if rule == "set":
            entry[S] = len(moves)
        return min(tied, key=lambda m: (entry[m], m))
    return next("RPS".index(letter) for letter in rule if "RPS".index(letter) in tied)


@pytest.mark.parametrize("rule", ["RPS", "SPR", "PSR", "first", "last", "set"])
@pytest.mark.parametrize("target", ["most", "least"])
def test_counting_windows_exact_names_a_counters_ties_by_its_rule(rule: str, target: str) -> None:
    """Against a counter of our last 5 moves that breaks its ties by a fixed order, by which
    tied move entered the window first or was seen last, or by a mix (a ``set`` whose
    order puts two moves in the order they entered), the exact model comes to name the
    moves it plays at its ties too, once the rules that do not fit have named another move
    first at some tie; it never names one wrongly."""
    predictor = CountingWindows("mine", max_window=16)
    rng = random.Random(rule + target)
    ours: list[Move] = []
    ties_named = wrong = 0
    for _ in range(300):
        window = ours[-5:]
        counts = [window.count(m) for m in range(3)]
        extreme = max(counts) if target == "most" else min(counts)
        tied = [m for m in range(3) if counts[m] == extreme]
        theirs = beats(tie_pick(window, tied, rule))
        said = predictor.exact()
        if said is not None:
            wrong += said[0] != theirs
            ties_named += len(tied) > 1
        ours.append(rng.randrange(3))
        predictor.update(ours[-1], theirs)
    assert wrong == 0 and ties_named >= 50, (wrong, ties_named)


@settings(max_examples=60, deadline=None)
@given(
    window=st.one_of(st.integers(1, 30), st.none()),
    target=st.sampled_from(["most", "least"]),
    rule=st.sampled_from(
        ["".join(order) for order in itertools.permutations("RPS")] + ["first", "last", "set"]
    ),
    weights=st.lists(st.integers(0, 4), min_size=3, max_size=3).filter(any),
    seed=st.integers(0, 2**32 - 1),
)
def test_counting_windows_exact_never_names_a_counters_move_wrongly(
    window: int | None, target: str, rule: str, weights: list[int], seed: int
) -> None:
    """Whatever a counter's window (1 to 30, or the whole match), target and tie rule, and
    however skewed our moves (some never played: ties of moves not counted), the exact model
    never names a move the counter does not play: its own field names the counter's move
    before any other it leads or ties, so no other move is forced."""
    predictor = CountingWindows("mine", max_window=32)
    rng = random.Random(seed)
    ours: list[Move] = []
    for _ in range(150):
        counted = ours if window is None else ours[-window:]
        counts = [counted.count(m) for m in range(3)]
        extreme = max(counts) if target == "most" else min(counts)
        theirs = beats(tie_pick(counted, [m for m in range(3) if counts[m] == extreme], rule))
        said = predictor.exact()
        assert said is None or said[0] == theirs, (len(ours), said, theirs)
        ours.append(rng.choices(range(3), weights)[0])
        predictor.update(ours[-1], theirs)


def test_counting_windows_exact_is_asked_of_the_first_reader_only() -> None:
    """Of two counting windows reading one feature, only the first offers ``exact`` (the
    second would say the same), so the ensemble asks one; idle in its other half, it says
    nothing; carried over, the windows' exact model spans matches (see the comments below)."""
    from roshambo.engine.ensemble import Ensemble
    from roshambo.engine.predictors.carried import CarriedOver

    hub = Features()
    first, second = (
        CountingWindows("mine", 16, half="direct"),
        CountingWindows("mine", 16, half="direct", lead=48),
    )
    first.join(hub, False)
    second.join(hub, False)
    assert callable(first.exact) and second.exact is None
    idle = CountingWindows("mine", 16, half="direct")
    idle.join(Features(), True)
    idle.update(R, P)
    assert idle.exact() is None
    ensemble = Ensemble(random.Random(1))
    names = list(ensemble._lineup.factories)
    asked = {names[i] for i, _ in ensemble._lineup.exacts}
    assert "windows200-mine" in asked and "windows200-mine-lead48-rules" not in asked

    def carried_tests(first: str) -> list[int]:
        """The exact model's tests before each of 3 x 40 rounds, carried over, against a
        counter of our last 4 moves, or in the first match ``first`` ("random") moves."""
        bot = make_relative("counter:window=4,target=most,tie=RPS")
        carried = CarriedOver(CountingWindows("mine", 16, half="direct"))
        carried.join(Features(), False)
        rng = random.Random(2)
        mine: Move | None = None
        tests = []
        for match in range(3):
            carried.new_match()
            for _ in range(40):
                theirs = bot.move(mine)
                if first == "random" and match == 0:
                    theirs = rng.randrange(3)
                said = carried.exact()
                assert said is None or said[1] < 5 or said[0] == theirs
                tests.append(0 if said is None else said[1])
                mine = rng.randrange(3)
                carried.update(mine, theirs)
        return tests

    # fitted since reset, the model counts its tests on from a new match's first move
    same = carried_tests("counter")
    assert max(same[:40]) >= 20 and same[40] >= max(same[:40]) and same[80] >= max(same[40:80]), (
        same
    )
    # found after every window missed (the opponent has changed before), its tests start
    # over in a new match, the windows kept, less the handicap of the searches so far (the
    # first match's random moves made every window miss ten times: one test)
    found = carried_tests("random")
    assert max(found[40:80]) >= 20 and found[80] == -1 and max(found[80:]) >= 20, found


def test_counting_windows_read_one_feature_only_within_one_half() -> None:
    """The two halves of one predictor count different real sides (a mirrored half is
    shown the histories swapped): from the same hub, each takes its own counts."""
    hub = Features()
    direct, mirrored = CountingWindows("mine", 16), CountingWindows("mine", 16)
    direct.join(hub, False)
    mirrored.join(hub, True)
    assert len(hub) == 2 and direct._counted is not mirrored._counted
    twin = CountingWindows("mine", 16, split_ties=True)
    twin.join(hub, True)
    assert len(hub) == 2 and twin._counted is mirrored._counted


def test_counting_windows_read_a_new_tie_by_the_order_its_tied_moves_entered() -> None:
    """Against a counter whose ties go to the tied move seen first in its window
    (``Counter.most_common``), a tie whose finer context (the order of every move present,
    the last seen) is new is read as the same tied moves in the same order were last: the
    opening's mistakes drop by two fifths against backing off to the tied moves alone
    (about 11 a match of 300 rounds here, against 19)."""
    from roshambo.opponents.relatives import RecentCounter

    wrong = 0
    for seed in range(20):
        bot = RecentCounter(10, "most", "first")
        predictor = CountingWindows("mine", max_window=64)
        rng = random.Random(seed)
        ours: Move | None = None
        for _ in range(300):
            theirs = bot.move(ours)
            guess = predictor.predict()
            wrong += guess is not None and guess != theirs
            ours = rng.randrange(3)
            predictor.update(ours, theirs)
    assert wrong <= 15 * 20, wrong / 20


def test_counting_windows_answer_a_tie_with_a_tied_move() -> None:
    """Every tie context, however coarse, is keyed by the tied moves: a least-counter whose
    window holds one move only (the two others tied at zero), in runs of every move, must
    never be answered by a move learnt for another pair (a middle context keyed on the
    tied moves' order alone was)."""
    from roshambo.opponents.relatives import RecentCounter

    bot = RecentCounter(3, "least", "SRP")
    predictor = CountingWindows("mine", max_window=64)
    rng = random.Random(1)
    runs = [R] * 5 + [P] * 5 + [S] * 5
    ours: Move | None = None
    ties = 0
    for i in range(3000):
        theirs = bot.move(ours)
        pending = predictor._ties.pending
        if pending is not None:
            ties += 1
            assert (predictor.predict() - 1) % 3 in pending[-1], i  # it beats a tied move
        ours = runs[i % 15] if i % 60 < 30 else rng.randrange(3)
        predictor.update(ours, theirs)
    assert ties > 100


# --- periods -------------------------------------------------------------------------------


@pytest.mark.parametrize("pattern", ["RP", "RRPPS", "SPSPPRPSPPS", "PPSSRPPPRPSS"])
@pytest.mark.parametrize("noise", [0.0, 0.1, 0.2])
def test_periodic_moves_read_a_cycle_through_its_noise(pattern: str, noise: float) -> None:
    """Against a cycle with a share of random moves, the prediction is the cycle's next move
    nearly whenever the cycle plays it: at most a third of the noise's share of rounds go
    wrong, plus a little (random moves among the eleven voted on each time are outvoted by
    the others; a vote over three periods back misses 82 and 84 of 1000 at a fifth)."""
    rng = random.Random(len(pattern))
    predictor = PeriodicMoves("their", 16)
    cycle = [LETTER[c] for c in pattern]
    wrong_on_cycle = 0
    for i in range(1200):
        theirs = cycle[i % len(cycle)]
        if i >= 200:
            wrong_on_cycle += predictor.predict() != theirs
        if rng.random() < noise:
            theirs = rng.randrange(3)
        predictor.update(rng.randrange(3), theirs)
    assert wrong_on_cycle <= 1000 * (noise / 3 + 0.01), wrong_on_cycle


def test_periodic_moves_hold_to_a_noisy_cycles_period_and_outvote_its_noise() -> None:
    """Against cycles of every length from 2 to 12 with a fifth of their moves random, once
    the cycle is found (round 200 on) the prediction is the cycle's move in all but about one
    round in 2,000: the vote of eleven periods back seldom errs, and a period that fits part
    of the cycle, its score ahead by chance for a few rounds, does not take the lead (a vote
    of seven and no margin missed 149 of these 17,600 rounds, both 7)."""
    rng = random.Random(12)
    missed = 0
    for n in range(2, 13):
        while True:  # a cycle whose period is n, not a divisor of it
            cycle = [rng.randrange(3) for _ in range(n)]
            if all(cycle != cycle[k:] + cycle[:k] for k in range(1, n)):
                break
        for seed in range(2):
            noise = random.Random(100 * n + seed)
            predictor = PeriodicMoves("their", 16)
            for i in range(1000):
                rule = cycle[i % n]
                if i >= 200:
                    missed += predictor.predict() != rule
                theirs = noise.randrange(3) if noise.random() < 0.2 else rule
                predictor.update(noise.randrange(3), theirs)
    assert missed <= 22, missed


@pytest.mark.parametrize("pattern", ["RP", "RRPSPS", "PPSRSRRP"])
def test_periodic_moves_follow_a_changed_cycle_of_the_same_period_after_four_periods(
    pattern: str,
) -> None:
    """A cycle that changes every move but keeps its period (up to 10: from 11 on, its
    misses take the period's score below the vote's hold) keeps the vote speaking, and the old
    cycle's moves go on voting: the new cycle outvotes the old after four of its periods
    (the latest four agree), not before, and from then on every prediction is the new
    cycle's."""
    old = [LETTER[c] for c in pattern]
    new = [(m + 1) % 3 for m in old]
    period, change = len(old), 20 * len(old)
    predictor = PeriodicMoves("their", 16)
    rng = random.Random(period)
    wrong = []
    for i in range(change + 12 * period):
        theirs = old[i % period] if i < change else new[i % period]
        if i >= change and predictor.predict() != theirs:
            wrong.append(i - change)
        predictor.update(rng.randrange(3), theirs)
    assert wrong == list(range(4 * period))


@pytest.mark.parametrize(
    "pattern", ["RP", "RRPPS", "SPSPPRPSPPS", "PPSSRPPPRPSS", "RPSSPRRSPPSRSPRS"]
)
@pytest.mark.parametrize("run_limit", [None, 3])
def test_periodic_moves_follow_an_exact_cycle_from_its_second_period(
    pattern: str, run_limit: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Long before the decayed score speaks, the longest run of exact repeats names the
    period: once the cycle's second period has repeated min_run moves of its first, every
    prediction is the cycle's next move. Runs halved at 2 ** 3 keep their leader."""
    if run_limit is not None:
        monkeypatch.setattr(periods, "RUN_LIMIT", run_limit)
    predictor = PeriodicMoves("their", 16)
    cycle = [LETTER[c] for c in pattern]
    said = [predictor.update(R, cycle[i % len(cycle)]) for i in range(400)]  # said[i]: move i + 1
    first = len(cycle) + predictor.min_run - 1  # the run of the cycle's period is min_run long
    assert [said[i] for i in range(first, 400)] == [
        cycle[(i + 1) % len(cycle)] for i in range(first, 400)
    ]


@pytest.mark.parametrize(
    "pattern", ["RP", "RRPPS", "SPPPRPPRRRS", "SPSPPRPSPPS", "PPSSRPPPRPSS", "RPSSPRRSPPSRSPRS"]
)
def test_periodic_moves_follow_a_cycle_from_the_start_at_its_first_repeat(pattern: str) -> None:
    """A side that has cycled from its first move is predicted from the second move of its
    second period on: once its first move has repeated, the period has held since the start
    (and every shorter one has failed), before any run is min_run long."""
    predictor = PeriodicMoves("their", 16)
    cycle = [LETTER[c] for c in pattern]
    said = [predictor.update(R, cycle[i % len(cycle)]) for i in range(200)]  # said[i]: move i + 1
    first = len(cycle)  # said[first]: the second period's second move
    assert [said[i] for i in range(first, 200)] == [
        cycle[(i + 1) % len(cycle)] for i in range(first, 200)
    ]


@pytest.mark.parametrize("seed", range(6))
def test_periodic_moves_follow_the_shortest_period_exact_since_the_start(seed: int) -> None:
    """Against a side that cycles only after some random moves, or never: whenever some
    period up to 16 has been repeated by every move since the start (at least once), the
    prediction is the move that the shortest such period repeats, as a rescan of the whole
    history finds it. Random moves break every period within the first rounds."""
    rng = random.Random(seed)
    prefix = [rng.randrange(3) for _ in range(seed * 3)]
    cycle = [rng.randrange(3) for _ in range(rng.randrange(1, 6))]
    moves = (
        prefix + cycle * (60 // len(cycle)) if seed % 2 else [rng.randrange(3) for _ in range(60)]
    )
    predictor = PeriodicMoves("their", 16)
    exact_rounds = 0
    for t, theirs in enumerate(moves):
        said = predictor.update(R, theirs)
        seen = moves[: t + 1]
        exact = [
            p
            for p in range(1, 17)
            if p < len(seen) and all(seen[i] == seen[i - p] for i in range(p, len(seen)))
        ]
        if exact:
            exact_rounds += 1
            assert said == seen[len(seen) - exact[0]], (t, exact)
    assert exact_rounds > 0


@pytest.mark.parametrize("seed", range(8))
def test_periodic_moves_exact_names_the_shortest_period_fitting_every_move_and_its_tests(
    seed: int,
) -> None:
    """``exact()`` is, after every move, what a rescan of the whole history finds: the move
    p back for the shortest period p up to 16 that every move since the start has repeated
    (once at least), with the n - p moves that tested it; None once every period has failed.
    In the half the predictor idles in, or reading our moves, it is always None."""
    rng = random.Random(seed)
    prefix = [rng.randrange(3) for _ in range(seed * 2)]
    cycle = [rng.randrange(3) for _ in range(rng.randrange(1, 13))]
    moves = (
        prefix + cycle * (80 // len(cycle)) if seed % 2 else [rng.randrange(3) for _ in range(80)]
    )
    predictor = PeriodicMoves("their", 16, half="direct")
    idle = PeriodicMoves("their", 16, half="direct")
    idle.join(Features(), True)
    ours = PeriodicMoves("mine", 16)
    named = 0
    for t, theirs in enumerate(moves):
        predictor.update(R, theirs)
        idle.update(theirs, R)
        ours.update(theirs, R)
        assert ours.exact() is None
        seen = moves[: t + 1]
        exact = [
            p
            for p in range(1, 17)
            if p < len(seen) and all(seen[i] == seen[i - p] for i in range(p, len(seen)))
        ]
        expected = (seen[len(seen) - exact[0]], len(seen) - exact[0]) if exact else None
        assert predictor.exact() == expected, (t, exact)
        assert idle.exact() is None
        named += expected is not None
    assert named > 0


def test_a_carried_period_reads_exact_over_every_match_since_reset() -> None:
    """Carried over, the period predictor names nothing while it follows its fresh twin, then
    its exact model spans every match since ``reset``: a cycle that goes on into the next
    match is named from that match's first move, tested by every move since the first
    repeat; a wrapped predictor that cannot say offers no ``exact`` at all."""
    from roshambo.engine.predictors.carried import CarriedOver

    cycle = [S, P, P, R, P, S, P, R, S]
    twin = PeriodicMoves("their", 16, half="direct")
    carried = CarriedOver(PeriodicMoves("their", 16, half="direct"))
    hub = Features()
    twin.join(hub, False)
    carried.join(Features(), False)
    carried.follow(twin, [feature for feature, _ in hub.taken])
    for i in range(100):
        twin.update(R, cycle[i % 9])
        carried.update(R, cycle[i % 9])
        assert carried.exact() is None  # following its twin
    carried.adopt()
    carried.new_match()
    assert carried.exact() == (cycle[100 % 9], 100 - 9)
    assert carried.predict() is None  # speaking waits for its proof; exact does not
    for i in range(100, 120):
        carried.update(R, cycle[i % 9])
        assert carried.exact() == (cycle[(i + 1) % 9], i + 1 - 9)
    carried.update(R, (cycle[120 % 9] + 1) % 3)  # off the cycle: broken for good
    assert carried.exact() is None
    for i in range(121, 200):
        carried.update(R, cycle[i % 9])
        assert carried.exact() is None
    assert carried.exact is not None
    assert CarriedOver(MarkovChain(2, source="their")).exact is None


@pytest.mark.parametrize("pattern", ["RSPPRSSRP", "RPSSPRRSPPSR"])
def test_periodic_moves_vote_holds_a_noisy_cycle(pattern: str) -> None:
    """With a fifth of a cycle's moves random, the best period's decayed hit rate (about
    0.76: a random move misses twice, as the move and as the one p back) dips under 0.6, and
    now and then under 0.5; the vote's own hit rate (about 0.87) seldom does, and holds it
    speaking. Vote alone (no run is min_run long), three matches, after round 200: it is never
    silent (held by the period's rate alone, 65 and 11 rounds), and it names at most 1% of the
    cycle's moves wrongly (the majority of seven periods back against a fifth of random votes)."""
    cycle = [LETTER[c] for c in pattern]
    silent = wrong = 0
    for seed in range(3):
        rng = random.Random(seed)
        predictor = PeriodicMoves("their", 16, min_run=8192)
        for i in range(1200):
            random_move = rng.random() < 0.2
            theirs = rng.randrange(3) if random_move else cycle[i % len(cycle)]
            if i >= 200:
                silent += predictor.predict() is None
                wrong += not random_move and predictor.predict() not in (None, theirs)
            predictor.update(rng.randrange(3), theirs)
    assert silent == 0 and wrong <= 24, (silent, wrong)


def test_periodic_moves_read_a_noisy_cycle_from_its_third_period() -> None:
    """A period's score starts at the chance rate, a third, at its first test, so that a
    cycle with a fifth of its moves random is voted on after about eight hits running: from
    the cycle's third period to round 60, 20 matches against each of five cycles of 4 to 12,
    the predictor names at least 89% of the cycle's moves (91.6%; 86.5% with scores starting
    at nothing, which waited for fifteen hits)."""
    named = rounds = 0
    for pattern, seed in itertools.product(
        ["RPPS", "RRPSPS", "RPSRRSPP", "RSPPRSSRP", "RPSSPRRSPPSR"], range(20)
    ):
        cycle = [LETTER[c] for c in pattern]
        rng = random.Random(seed)
        predictor = PeriodicMoves("their", 16)
        for i in range(60):
            theirs = rng.randrange(3) if rng.random() < 0.2 else cycle[i % len(cycle)]
            if i >= 3 * len(cycle):
                named += predictor.predict() == cycle[i % len(cycle)]
                rounds += 1
            predictor.update(rng.randrange(3), theirs)
    assert named >= 0.89 * rounds, (named, rounds)


def test_periodic_moves_vote_starts_at_min_rate_whatever_it_holds_to() -> None:
    """Holding lowers the bar only for a vote already speaking: the first prediction after
    random moves, then a cycle, comes in the same round with or without it."""
    rng = random.Random(9)
    moves = [rng.randrange(3) for _ in range(300)] + [LETTER[c] for c in "RSPPRSSRP" * 30]
    first = []
    for hold_rate in (0.6, None):
        predictor = PeriodicMoves("their", 16, min_run=8192, hold_rate=hold_rate)
        said = [predictor.update(R, theirs) for theirs in moves]
        first.append(
            next(i for i in range(300, len(moves)) if said[i] is not None and said[i - 1] is None)
        )
    assert first[0] == first[1], first


def test_periodic_moves_vote_stays_mostly_silent_against_random_moves() -> None:
    rng = random.Random(4)
    predictor = PeriodicMoves(
        "their", 16, min_run=8192
    )  # no run gets that long by chance: the vote alone
    spoke = sum(
        predictor.update(rng.randrange(3), rng.randrange(3)) is not None for _ in range(3000)
    )
    assert spoke < 300, spoke


def test_periodic_moves_runs_have_no_skill_against_random_moves() -> None:
    """Against random moves a run of min_run repeats is chance (among 16 periods, about one
    round in two at 3): the predictions it makes are right a third of the time."""
    rng = random.Random(4)
    predictor = PeriodicMoves("their", 16, min_run=3)
    spoke = right = 0
    prediction = None
    for _ in range(6000):
        theirs = rng.randrange(3)
        spoke += prediction is not None
        right += prediction == theirs
        prediction = predictor.update(rng.randrange(3), theirs)
    assert 1500 < spoke < 4500 and abs(right / spoke - 1 / 3) < 0.03, (spoke, right)


def test_periodic_moves_hold_to_a_lower_min_rate_by_default() -> None:
    """The default hold (0.5) gives way to a min_rate below it: no argument the caller did not
    pass is refused."""
    assert PeriodicMoves(min_rate=0.4).hold_rate == 0.4
    assert PeriodicMoves().hold_rate == 0.5
    assert PeriodicMoves(min_rate=0.7, hold_rate=0.7).hold_rate == 0.7


def test_periodic_moves_reject_bad_arguments() -> None:
    for kwargs, bad in (
        ({"source": "both"}, "'both'"),
        ({"max_period": 0}, "0"),
        ({"min_rate": 1.0}, "1.0"),
        ({"min_run": 0}, "0"),
        ({"min_run": 8193}, "8193"),
        ({"hold_rate": 0.7}, "0.7"),
        ({"hold_rate": 0}, "0"),
        ({"hold_rate": True}, "True"),
        ({"hold_rate": "0.5"}, "'0.5'"),
    ):
        with pytest.raises(ValueError, match=re.escape(bad)):
            PeriodicMoves(**kwargs)


# --- predictors that work in one half only ---------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: CountingWindows("mine", 64, half="direct"),
        lambda: PeriodicMoves("their", 16, half="direct"),
        lambda: CalibratedMarkovChain(3, infer_shift=True, half="mirrored"),
    ],
)
def test_a_one_half_predictor_idles_in_the_other_half_until_reset_by_the_ensemble(make) -> None:
    rng = random.Random(5)
    rounds = [(rng.randrange(3), i % 3) for i in range(200)]
    working, idle, alone = make(), make(), make()
    working_mirrored = working.half == "mirrored"
    hub = Features()
    working.join(hub, working_mirrored)
    idle.join(Features(), not working_mirrored)
    said = []
    for a, b in rounds:  # the hub takes the real round
        hub.update(*((b, a) if working_mirrored else (a, b)))
        said.append(working.update(a, b))
    assert said == [alone.update(a, b) for a, b in rounds] and any(p is not None for p in said)
    assert all(idle.update(a, b) is None for a, b in rounds)


def test_half_must_be_named() -> None:
    for cls, kwargs in ((CountingWindows, {}), (PeriodicMoves, {}), (CalibratedMarkovChain, {})):
        with pytest.raises(ValueError, match="'neither'"):
            cls(**kwargs, half="neither")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_calibrated_chain_reads_a_counting_side_through_its_noise(seed: int) -> None:
    """A side carrying hidden counts (an earlier match) that replies at random one round in
    ten: a contradiction that the row's other recent replies outvote is taken for noise, so
    the chain keeps predicting instead of relearning the row from one reply."""
    prior = {R: (30, 31, 29), P: (33, 30, 30), S: (28, 29, 30)}

    class Forgetful(CalibratedMarkovChain):
        MEMORY = 0  # rebuilds a contradicted row from the latest reply alone

    def noisy(hidden: Move, rng: random.Random) -> Move:
        return rng.randrange(3) if rng.random() < 0.1 else beats(hidden)

    remembering = misses_of_hidden_model(
        CalibratedMarkovChain(2), random.Random(seed), 1000, prior, noisy
    )
    forgetting = misses_of_hidden_model(Forgetful(2), random.Random(seed), 1000, prior, noisy)
    assert remembering < 0.6 * forgetting


# --- capabilities, declared as data ----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PREDICTORS))
def test_every_registered_predictor_declares_what_it_offers(name: str) -> None:
    """The registry's check holds for every entry, in every half it may be built for: what
    a predictor declares it implements, and what it implements (a wrapper aside) it
    declares."""
    from roshambo.engine.predictors.base import Capabilities, check_capabilities

    predictor = PREDICTORS[name](random.Random(0))
    caps = check_capabilities(predictor)
    assert isinstance(caps, Capabilities) and caps.half == predictor.half
    assert caps.carried == name.startswith("carried-")
    assert caps.selectable == (name != "random")


def test_a_mismatch_between_declared_and_implemented_capabilities_is_named() -> None:
    from roshambo.engine.predictors.base import Capabilities, PredictorBase, check_capabilities

    class Undeclared(PredictorBase):
        name = "undeclared"

        def doubt(self) -> bool:
            return False

    class Unimplemented(PredictorBase):
        name = "unimplemented"
        OFFERS = Capabilities(exact=True)

    class Bare:
        name = "bare"

    with pytest.raises(ValueError, match="'undeclared' implements doubt but does not declare"):
        check_capabilities(Undeclared())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'unimplemented' declares exact but does not implement"):
        check_capabilities(Unimplemented())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'bare' declares no Capabilities"):
        check_capabilities(Bare())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'bare' declares no Capabilities"):
        Ensemble(random.Random(0), factories={"bare": lambda rng: Bare()})  # type: ignore[dict-item]
