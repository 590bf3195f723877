"""Periods: a side that repeats itself every p moves, found for every p at once, noise and all.

History matching loses a cycle whenever a random move breaks its contexts; this predictor
reads the cycle by its period instead (Billings 1999: the cycling bots, some with noise):

- Scores: for every p from 1 to ``max_period``, a decayed score of how often a move equalled
  the move p rounds before, in packed fields (:mod:`roshambo.engine.kernel`), starting at
  the chance rate, a third; another period takes the lead only by a margin (``LEAD``).
- The vote: once the best period's rate reaches ``min_rate``, the majority of the moves one
  to eleven periods back (unless the latest four agree), held while the period's rate or
  the vote's own is ``hold_rate`` or more (hysteresis through noise).
- Runs: until the vote speaks, the move p back for the period with the longest run of exact
  repeats, once it is ``min_run`` long (Egnor's history matching, read by period).
- Exact from the start: the shortest period every move has repeated since the first, once
  it has repeated, outranks both (:meth:`PeriodicMoves.exact`): by Solomonoff's prior each
  shorter period is three times likelier than the next.

Every update is O(1) big-integer operations. Why each rule is as it is, with the
measurements: docs/experiments.md ("Design notes moved from the code").
"""

from __future__ import annotations

from ..kernel import PackedFields
from ..moves import Move
from .base import Capabilities, WorksInOneHalf, check_half, check_positive, check_source

FIELD = 16  # bits a period's field takes: scores stay under 2 ** 15
HIT = 1 << 10  # a hit's weight in the decayed score
DECAY_SHIFT = 4  # the score decays by 1/16 a round: about the last 16 rounds count
LOOKBACK = 11  # periods voted on
RECENT = 4  # the latest periods that, when they agree, outvote the rest
LEAD = 2 * HIT  # how far another period's score must be ahead to take the lead
HOLD_RATE = 0.5  # once started, the vote speaks down to this hit rate (or min_rate, if lower)
RUN_LIMIT = 14  # a run reaching 2 ** 14 halves them all (order kept, but for new ties)


class PeriodicMoves(WorksInOneHalf):
    """Predict a side's next move from the moves one to eleven periods back, for the
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

    OFFERS = Capabilities(exact=True)

    def __init__(
        self,
        source: str = "their",
        max_period: int = 16,
        min_rate: float = 0.6,
        min_run: int = 3,
        half: str = "both",
        hold_rate: float | None = None,
    ) -> None:
        self.source = check_source(source)
        if source == "both":
            raise ValueError(f"invalid source {source!r}: a period is read off one side's moves")
        self.max_period = check_positive(max_period, "max_period")
        if (
            isinstance(min_rate, bool)
            or not isinstance(min_rate, (int, float))
            or not 0 < min_rate < 1
        ):
            raise ValueError(f"invalid min_rate {min_rate!r}: expected a number in (0, 1)")
        self.min_rate = float(min_rate)
        if hold_rate is None:
            hold_rate = min(HOLD_RATE, self.min_rate)
        if (
            isinstance(hold_rate, bool)
            or not isinstance(hold_rate, (int, float))
            or not 0 < hold_rate <= self.min_rate
        ):
            raise ValueError(f"invalid hold_rate {hold_rate!r}: expected a number in (0, min_rate]")
        self.hold_rate = float(hold_rate)
        longest = 1 << (RUN_LIMIT - 1)  # a run just halved from the limit
        if isinstance(min_run, bool) or not isinstance(min_run, int) or not 1 <= min_run <= longest:
            raise ValueError(
                f"invalid min_run {min_run!r}: expected an integer from 1 to {longest}"
            )
        self.min_run = min_run
        self.name = f"period{max_period}-{source}"
        self._mine = source == "mine"
        self.half = check_half(half)
        n = self.max_period
        self._window = LOOKBACK * n  # moves remembered, for the vote
        self._periods = periods = PackedFields(FIELD, n)  # a field per period
        # the three moves' records of the last n moves side by side, n fields each (see reset)
        self._records = records = PackedFields(FIELD, 3 * n)
        self._marks = tuple(records.placed(1, n * m) for m in range(3))  # the latest move
        # after a shift, each record's fields but its first (which holds the last of the one below)
        self._kept = records.full ^ records.pack(
            [periods.mask if j % n == 0 else 0 for j in range(3 * n)]
        )
        self._run_limits = periods.ones << RUN_LIMIT
        # a run field plus this sets the field's guard bit exactly when the run is min_run long
        self._run_bias = periods.spread(periods.limit - self.min_run)
        self._threshold = int((HIT << DECAY_SHIFT) * self.min_rate)
        self._hold = int((HIT << DECAY_SHIFT) * self.hold_rate)
        self._chance = (HIT << DECAY_SHIFT) // 3
        self.reset()

    def reset(self) -> None:
        # _recent: per move m, a record of n = max_period fields from bit FIELD * n * m up;
        # field j is 1 if the move j + 1 rounds back was m
        self._recent = 0
        # _moves[_at + k - 1]: the move k rounds back, for k up to _window; each move is
        # written twice, _window apart, so that the last _window moves lie in one slice
        self._moves = bytearray(2 * self._window)
        self._at = 0
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
        self._idle = False  # set by join() in the half this predictor does not work in

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle:
            return None
        move = my_move if self._mine else their_move
        vote_score = self._vote_score
        if self._voting:
            vote_score += HIT * (move == self._prediction) - (vote_score >> DECAY_SHIFT)
            self._vote_score = vote_score
        recent, periods = self._recent, self._periods
        hits = self._records.section(recent, self.max_period * move, self.max_period)
        self._recent = (self._records.shifted(recent, 1) & self._kept) | self._marks[move]
        score = periods.decayed(self._score, DECAY_SHIFT) + hits * HIT
        # one longer where the move repeated the one p back, zero where it did not
        runs = (self._runs + hits) & periods.filled(hits)
        if runs & self._run_limits:
            runs = periods.halved(runs)
        self._runs = runs
        checkable = self._checkable
        if checkable != self._broken:  # some period has held since the start
            self._broken |= checkable & ~hits
            self._exact = checkable & ~self._broken
        best, seen = self._best, self._seen
        # a period that hits stays ahead of the rest; while none is good enough to speak, look
        # for a better one every fourth round only (a random side would have us look always);
        # another takes the lead only by a margin
        if not periods.field(hits, best):
            best_score = periods.field(score, best)
            if seen % 4 == 0 or best_score >= self._threshold:
                lead = periods.argmax(score)
                if periods.field(score, lead) >= best_score + LEAD:
                    self._best = best = lead
        window = self._window
        at = self._at - 1 if self._at else window - 1
        self._at = at
        moves = self._moves
        moves[at] = moves[at + window] = move
        self._seen = seen = seen + 1
        if seen <= self.max_period:
            self._checkable = checkable | periods.placed(1, seen - 1)
            score |= periods.placed(self._chance, seen - 1)
        self._score = score
        # the prediction: the shortest period held since the start (it outranks the vote: they
        # agree on a cycle), else the vote, else the longest run, else nothing
        if self._exact:
            self._voting = False
            self._prediction = self._back(self._shortest_exact())
            return self._prediction
        rate = periods.field(score, best)
        if self._voting:
            speaks = rate >= self._hold or vote_score >= self._hold
        else:
            speaks = rate >= self._threshold
            self._vote_score = rate  # the vote's own rate starts from the period's
        period = best + 1
        if speaks and seen >= period:  # the vote speaks from the period's first repeat on
            self._voting = True
            voters = LOOKBACK if seen >= LOOKBACK * period else seen // period
            # the moves one to LOOKBACK periods back, the latest first, which wins ties
            picks = moves[at + best : at + voters * period : period]
            first = picks[0]
            # half the votes or more (none has more), or the latest RECENT periods agree
            if 2 * picks.count(first) >= voters or picks[:RECENT].count(first) == RECENT:
                self._prediction = first
                return first
            rock, paper = picks.count(0), picks.count(1)
            votes = (rock, paper, voters - rock - paper)
            top = max(votes)
            self._prediction = prediction = first if votes[first] == top else votes.index(top)
            return prediction
        self._voting = False
        if (runs + self._run_bias) & periods.guards:  # some run is min_run long
            self._prediction = self._back(periods.argmax(runs) + 1)
        else:
            self._prediction = None
        return self._prediction

    def _back(self, rounds: int) -> Move:
        """The side's move ``rounds`` rounds back, as of the round to come."""
        return self._moves[self._at + rounds - 1]

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
        return self._periods.first_set(self._exact) + 1
