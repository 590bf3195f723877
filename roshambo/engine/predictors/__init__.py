"""Predictor families and the explicit registry of the ensemble's line-up.

``PREDICTORS`` maps a name to a factory taking a ``random.Random``; the ensemble builds one
instance per entry, plus a mirrored twin that sees the histories swapped (P').
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .base import Capabilities, Predictor, check_capabilities
from .blend import BlendedContexts
from .carried import CarriedOver
from .decayed import DecayedContexts
from .frequency import FrequencyCounter, TieReadingFrequency
from .history import HistoryMatcher
from .lags import LaggedRolls
from .markov import CalibratedMarkovChain, MarkovChain
from .meta import MetaOfAgents
from .outcome import OutcomeRollTable
from .periods import PeriodicMoves
from .random_guess import RandomGuess
from .sharpest import SharpestContext
from .windows import CountingWindows

Factory = Callable[[random.Random], Predictor]


# The models of an opponent whose state outlives a match (an fCC bot's mutable defaults):
# counting what followed our last 1 to 3 moves (the calibrated chains, every turn) or 1 to 32
# (the decayed contexts), counting our last N moves or all of them, cycling, and answering
# our move k rounds back (whose first k replies of a match answer the last match). Each also runs
# carried over from earlier matches (see carried.py); the other models read what any
# opponent does within a match, and carried copies of them bought nothing in our
# measurements.
CARRIED = (
    "calibrated2-their-shifted",
    "calibrated3-their-shifted",
    "calibrated4-their-shifted",
    "decayed32-their",
    "windows200-mine",
    "frequency-ties",
    "period40-their",
    "lags50-mine",
)


def _lineup() -> list[Factory]:
    # (the lambdas bind a loop's value as a default argument, which mypy cannot type: misc)
    factories: list[Factory] = []
    # Order matters only on ties (the first strategy wins), so the most general go first.
    # Chains and frequency counts over a window take a meta window's length (10, 50, 100:
    # see EnsembleConfig.windows); counting windows, lags, periods and decayed contexts
    # cover their whole ranges at once.
    for source in ("their", "mine", "both"):  # Iocaine's longest age: the last 1000 rounds
        factories.append(lambda rng, s=source: HistoryMatcher(s, max_len=12, window=1000))  # type: ignore[misc]
    for seq_len in (2, 3, 4):
        factories.append(lambda rng, n=seq_len: MarkovChain(n))  # type: ignore[misc]
    factories.append(lambda rng: MarkovChain(3, num_records=100))
    factories.append(lambda rng: MarkovChain(2, source="mine"))
    factories.append(lambda rng: MarkovChain(3, source="both"))
    factories.append(lambda rng: MarkovChain(2, num_records=50, source="both"))
    for seq_len in (3, 4):
        factories.append(lambda rng, n=seq_len: MarkovChain(n, least=True))  # type: ignore[misc]
    # the whole-match counters wait for 3 moves (a "most frequent" move read off one or two
    # is noise that costs games in the opening), while a window must speak at once; the
    # window's counter learns how the opponent breaks its ties (no fixed order fits a set's
    # under colliding hashes, nor the first or last seen), and so, for an opponent counting
    # all our moves, does a whole-match counter in the mirrored half (beside the plain one,
    # not instead of it: replacing it in both halves cost the classic field 3 points a
    # match, docs/experiments.md)
    factories.append(lambda rng: FrequencyCounter(None, min_count=3))
    factories.append(lambda rng: TieReadingFrequency(None, min_count=3, half="mirrored"))
    factories.append(lambda rng: TieReadingFrequency(10))
    factories.append(lambda rng: FrequencyCounter(None, least=True, min_count=3))
    # an opponent counting what followed our last 1, 2 or 3 moves: a model of our moves, so
    # only the mirrored half works (as for the frequency models below)
    for seq_len in (2, 3, 4):
        factories.append(
            lambda rng, n=seq_len: CalibratedMarkovChain(n, infer_shift=True, half="mirrored")  # type: ignore[misc]
        )
    factories.append(lambda rng: CalibratedMarkovChain(1, num_records=10, half="mirrored"))
    factories.append(lambda rng: CalibratedMarkovChain(1, half="mirrored"))
    # an opponent counting our last N moves, for every N up to 200 at once (direct half only;
    # it speaks after 8 hits' worth, so that 200 windows' chance agreements in the opening,
    # or an opponent's window still holding an earlier match, do not lead it astray)
    factories.append(lambda rng: CountingWindows("mine", 200, min_score=8, half="direct"))
    # the same counts (one shared feature), read steadily: every record may fall 48 hits behind, and a
    # hit on a tie counts only where the window's own best tie rules name the move beaten,
    # for an opponent whose random moves or our own level counts would lead the records
    # above astray
    factories.append(
        lambda rng: CountingWindows(
            "mine", 200, min_score=8, half="direct", lead=48, tie_rules=True
        )
    )
    factories.append(lambda rng: OutcomeRollTable("their", by_result=False))
    factories.append(lambda rng: OutcomeRollTable("mine", by_result=False))
    factories.append(lambda rng: OutcomeRollTable("their"))
    factories.append(lambda rng: SharpestContext())
    # a cycle of any period up to 40, read through its noise (a longer one's first period
    # alone, unpredictable, costs more than 1% of a match's decisive games)
    factories.append(lambda rng: PeriodicMoves("their", 40, half="direct"))
    factories.append(lambda rng: BlendedContexts(4))
    # an opponent answering our move 1 to 50 rounds back by a fixed turn (beat, copy, lose),
    # in the direct half only: the mirrored half (a model of us as such a player) bought
    # nothing in the scorecard, and dropping its pass over the lags pays for the 34 more
    factories.append(lambda rng: LaggedRolls("mine", 50, half="direct"))
    # an opponent counting what followed our last 1 to 32 moves, forgetting: every memory
    # doubling from 4 to 64 recurrences that the order's contexts reach in a match, and the
    # whole match (mirrored half only); orders 1-5 in rows, 6-32 (memories 4 and all) in the
    # trie of longer contexts
    factories.append(lambda rng: DecayedContexts(5, deep=32))
    # the models in CARRIED once more, carried over from earlier matches
    probe = random.Random(0)
    factories += [
        lambda rng, make=make: CarriedOver(make(rng))  # type: ignore[misc]
        for make in list(factories)
        if make(probe).name in CARRIED
    ]
    # an opponent that plays the best-scoring arm of simple agents predicting our moves (a
    # meta-player of the Kaggle kind): its scoreboard, kept from its side (direct half only)
    factories.append(lambda rng: MetaOfAgents())
    return factories


def _registry() -> dict[str, Factory]:
    registry: dict[str, Factory] = {}
    probe = random.Random(0)
    for factory in _lineup():
        predictor = factory(probe)
        check_capabilities(predictor)  # what it declares it offers, it implements, and only that
        name = predictor.name
        if name in registry:
            raise RuntimeError(f"duplicate predictor name {name!r}")
        registry[name] = factory
    missing = [name for name in CARRIED if f"carried-{name}" not in registry]
    if missing:
        raise RuntimeError(f"carried-over predictors not in the line-up: {missing!r}")
    return registry


PREDICTORS: dict[str, Factory] = _registry()

__all__ = [
    "PREDICTORS",
    "BlendedContexts",
    "Capabilities",
    "Factory",
    "CalibratedMarkovChain",
    "CARRIED",
    "CarriedOver",
    "CountingWindows",
    "DecayedContexts",
    "FrequencyCounter",
    "HistoryMatcher",
    "LaggedRolls",
    "MarkovChain",
    "MetaOfAgents",
    "OutcomeRollTable",
    "PeriodicMoves",
    "Predictor",
    "RandomGuess",
    "SharpestContext",
    "TieReadingFrequency",
]
