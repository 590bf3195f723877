"""Periods: a side that repeats itself every p moves, found for every p at once, noise and all.

A cycle of length p is predicted by history matching once its context has recurred, but a
few random moves among the cycle's break the contexts, and matching starts over. This
predictor reads the cycle by its period instead: for every p from 1 to ``max_period`` it
keeps a decayed score of how often a move equalled the move p rounds before (all periods at
once, in packed fields, as :mod:`.windows` does for counting windows), follows the best
period, and predicts the majority of the moves one to seven periods back, so that up to
three random moves among them do not mislead it (with a fifth of a cycle's moves random, the
majority of three periods back is wrong about one time in twenty, of seven under one in a
hundred). A period's score starts at the chance rate, a third, at its first test (not at
nothing, which kept a noisy cycle of nine waiting until about round 35). The vote starts
once the best period's decayed hit rate reaches ``min_rate`` and holds while that rate, or
the vote's own decayed hit rate since it started, is ``hold_rate`` or more (hysteresis):
with a fifth of a cycle's moves random the period's rate is about 0.76 and dips under 0.5
now and then (each random move misses twice, as the move and as the one p back: a cycle of
nine, about 12 rounds a match), where a vote that stopped would leave the cycle to chance,
but the vote's own rate is about 0.87 (a random move misses once, and the vote of seven
outlasts it), while random moves seldom keep either above 0.5 for long (a third by chance;
the vote then speaks in about 6% of rounds, 1.5% without holding). The vote holds, not the
period: a period that takes the lead while the vote speaks goes on at the lower bar (against
a noisy cycle that changes, the new period's vote starts sooner, and the old one's lasts a
few rounds longer). Billings 1999 (the cycling bots of the first RoShamBo competition, some
with noise) read by period, in O(1) big-integer operations a round.

The decayed score takes about eight hits running to speak from a third: against a new cycle
of twelve, the better part of two periods, in which history matching is no help either (its
index learns a context one symbol longer each time it recurs, so in the second period it
mostly finds short, coincidental matches). Yet from its second period on, every move of an
exact cycle equals the move p rounds before, which a shorter period almost never keeps up
for long. So the predictor also keeps, per period, the run of the latest moves that each
repeated the move p back, and until the decayed score speaks it predicts the move p back for
the period with the longest run (ties: the shorter period), once that run is ``min_run``
moves long: the longest exact repeat, Egnor's history matching read by period.

Sooner still, a side that has cycled from its first move: while some period has held since
the start (every move with one p back repeated it), the predictor follows the shortest such
period, before its vote, once it has repeated (the cycle's second period has begun), from
the second move of that period on. A period p explains the side's first n moves with p free
moves, so among the periods that fit, each shorter one is three times likelier than the next
(Solomonoff's prior, by length); a fit by chance needs n - p moves to repeat, so against any
other side every period has failed within a few rounds of its first test, and the predictor
is back to its runs and its vote.
"""
from __future__ import annotations

import sys
from array import array

from ..moves import Move
from .base import WorksInOneHalf, check_half, check_positive, check_source

FIELD = 16  # bits a period's field takes: scores stay under 2 ** 15
HIT = 1 << 10  # a hit's weight in the decayed score
DECAY_SHIFT = 4  # the score decays by 1/16 a round: about the last 16 rounds count
LOOKBACK = 7  # periods voted on
HOLD_RATE = 0.5  # once started, the vote speaks down to this hit rate (or min_rate, if lower)
RUN_LIMIT = 14  # a run reaching 2 ** 14 halves them all (order kept, but for new ties)


class PeriodicMoves(WorksInOneHalf):
    """Predict a side's next move from the moves one to seven periods back, for the
    period from 1 to ``max_period`` that has explained its recent moves best.

    ``source`` is the side read ("their": a cycling opponent). The vote waits until the best
    period's decayed hit rate reaches ``min_rate`` (a random side's is a third, where every
    period's starts at its first test; about 8 hits running reach 0.6, and a cycle with a
    fifth of its moves random holds about 0.76), then speaks while that rate, or the vote's
    own decayed hit rate, is ``hold_rate`` or more (None: 0.5, or ``min_rate`` if lower;
    ``min_rate`` itself: no lower bar). The shortest period p that every move has repeated
    since the start (once one has) outranks the vote (on a cycle they agree; a vote that
    started within a cycle's first periods might follow a longer period); while neither
    speaks, the move p back speaks for the period with the longest run of exact repeats, once
    that run is ``min_run`` long, and nothing speaks otherwise.
    """

    def __init__(self, source: str = "their", max_period: int = 16, min_rate: float = 0.6,
                 min_run: int = 3, half: str = "both", hold_rate: float | None = None) -> None:
        self.source = check_source(source)
        if source == "both":
            raise ValueError(f"invalid source {source!r}: a period is read off one side's moves")
        self.max_period = check_positive(max_period, "max_period")
        if isinstance(min_rate, bool) or not isinstance(min_rate, (int, float)) or not 0 < min_rate < 1:
            raise ValueError(f"invalid min_rate {min_rate!r}: expected a number in (0, 1)")
        self.min_rate = float(min_rate)
        if hold_rate is None:
            hold_rate = min(HOLD_RATE, self.min_rate)
        if (isinstance(hold_rate, bool) or not isinstance(hold_rate, (int, float))
                or not 0 < hold_rate <= self.min_rate):
            raise ValueError(f"invalid hold_rate {hold_rate!r}: expected a number in (0, min_rate]")
        self.hold_rate = float(hold_rate)
        longest = 1 << (RUN_LIMIT - 1)  # a run just halved from the limit
        if isinstance(min_run, bool) or not isinstance(min_run, int) or not 1 <= min_run <= longest:
            raise ValueError(f"invalid min_run {min_run!r}: expected an integer from 1 to {longest}")
        self.min_run = min_run
        self.name = f"period{max_period}-{source}"
        self._mine = source == "mine"
        self.half = check_half(half)
        self._fields = LOOKBACK * self.max_period  # moves remembered, one field each
        self._ones = sum(1 << (FIELD * j) for j in range(self.max_period))
        self._mask = (1 << (FIELD * self._fields)) - 1
        self._low = self._ones * ((1 << (FIELD - DECAY_SHIFT)) - 1)
        self._halve = self._ones * ((1 << (FIELD - 1)) - 1)  # a field's bits below its top
        self._run_limits = self._ones << RUN_LIMIT
        # a run field plus this sets the field's top bit exactly when the run is min_run long
        self._run_bias = self._ones * ((1 << (FIELD - 1)) - self.min_run)
        self._tops = self._ones << (FIELD - 1)  # every field's top bit
        self._threshold = int((HIT << DECAY_SHIFT) * self.min_rate)
        self._hold = int((HIT << DECAY_SHIFT) * self.hold_rate)
        self._chance = (HIT << DECAY_SHIFT) // 3
        self.reset()

    def reset(self) -> None:
        # _recent[m]: field j is 1 if the move j + 1 rounds back was m
        self._recent = [0, 0, 0]
        self._score = 0  # field p - 1: a decayed score of "a move equalled the one p back"
        self._runs = 0  # field p - 1: how many latest moves each equalled the one p back
        # per period p, field p - 1's lowest bit: whether the next move has one p back to
        # repeat; whether a move has failed to; and whether every move that had one did
        self._checkable = 0
        self._broken = 0
        self._exact = 0
        self._best = 0  # the best period, minus one
        self._seen = 0
        self._voting = False  # whether the vote spoke last round (it then holds to hold_rate)
        self._vote_score = 0  # a decayed score of the vote's hits since it started speaking
        self._prediction: Move | None = None
        self._idle = False  # set by share() in the half this predictor does not work in

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle:
            return None
        move = my_move if self._mine else their_move
        if self._voting:
            vote_score = self._vote_score
            hit = HIT * (move == self._prediction)
            self._vote_score = vote_score - (vote_score >> DECAY_SHIFT) + hit
        recent = self._recent
        hits = recent[move] & self._ones
        score = self._score
        self._score = score = score - ((score >> DECAY_SHIFT) & self._low) + hits * HIT
        # one longer where the move repeated the one p back, zero where it did not
        self._runs = runs = (self._runs + hits) & (hits * 0xFFFF)
        if runs & self._run_limits:
            self._runs = (runs >> 1) & self._halve
        checkable = self._checkable
        if checkable != self._broken:  # some period has held since the start
            self._broken |= checkable & ~hits
            self._exact = checkable & ~self._broken
        best = self._best
        # a period that hits stays ahead of the rest; while none is good enough to speak, look
        # for a better one every fourth round only (a random side would have us look always)
        if not (hits >> (FIELD * best)) & 1 and (
                self._seen % 4 == 0 or (score >> (FIELD * best)) & 0xFFFF >= self._threshold):
            self._best = self._largest(score)
        for m in range(3):
            recent[m] = (recent[m] << FIELD) & self._mask
        recent[move] |= 1
        self._seen += 1
        if self._seen <= self.max_period:
            self._checkable = checkable | 1 << (FIELD * (self._seen - 1))
            self._score = score | self._chance << (FIELD * (self._seen - 1))
        self._prediction = self._predict()
        return self._prediction

    def _predict(self) -> Move | None:
        shortest = self._shortest_exact()
        if shortest:  # a period held since the start outranks the vote (they agree on a cycle)
            self._voting = False
            return self._back(shortest)
        period = self._best + 1
        rate = (self._score >> (FIELD * self._best)) & 0xFFFF
        if self._voting:
            speaks = rate >= self._hold or self._vote_score >= self._hold
        else:
            speaks = rate >= self._threshold
            self._vote_score = rate  # the vote's own rate starts from the period's
        if not speaks or self._seen < period:
            self._voting = False
            return self._repeat()
        self._voting = True
        votes = [0, 0, 0]
        first = self._back(period)  # the vote speaks from the period's first repeat on
        for back in range(1, min(LOOKBACK, self._seen // period) + 1):
            votes[self._back(back * period)] += 1
        top = max(votes)
        return first if votes[first] == top else votes.index(top)

    def _repeat(self) -> Move | None:
        """The move p back for the period p with the longest run of exact repeats (ties: the
        shorter), if that run is ``min_run`` long; else None."""
        runs = self._runs
        if not (runs + self._run_bias) & self._tops:  # no run is min_run long
            return None
        return self._back(self._largest(runs) + 1)

    def _largest(self, packed: int) -> int:
        """Which field of ``packed`` (one per period) is the largest, the first among equals."""
        fields = array("H", packed.to_bytes(2 * self.max_period, sys.byteorder))
        return fields.index(max(fields))

    def _back(self, rounds: int) -> Move:
        """The side's move ``rounds`` rounds back, as of the round to come."""
        shift = FIELD * (rounds - 1)
        return next(m for m in range(3) if (self._recent[m] >> shift) & 1)

    def predict(self) -> Move | None:
        return self._prediction

    def exact(self) -> tuple[Move, int] | None:
        """The move p back for the shortest period p that every move of the side has
        repeated since the start, with how many moves have tested it (n - p after n moves);
        None if no period has held through a test, in the half this predictor idles in, or
        if it reads our moves (a model of the side it reads, not of the one it predicts).
        A random side keeps a given period through t tests one time in 3 ** t."""
        period = self._shortest_exact()
        if not period or self._idle or self._mine:
            return None
        return self._back(period), self._seen - period

    def _shortest_exact(self) -> int:
        """The shortest period every move has repeated since the start (0: none has)."""
        exact = self._exact
        return ((exact & -exact).bit_length() - 1) // FIELD + 1 if exact else 0
