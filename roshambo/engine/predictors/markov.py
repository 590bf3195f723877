"""The SEQ_LEN Markov chain of the freeCodeCamp write-up, generalised.

Count how often each opponent move followed each context of the last ``seq_len - 1``
symbols, over the whole match or a sliding window of ``num_records`` records, and predict
the most counted continuation of the current context (the first of R, P, S on ties). The
context is read from the opponent's moves (the write-up's chain), ours, or both as pairs.
With ``least=True`` the chain predicts the *least* counted continuation instead ("novelty"):
what an opponent that avoids repeating itself, such as one walking a de Bruijn sequence
(Billings 1999, "debruijn81"), is due to play. A chain and its novelty twin keep the same
counts: in an ensemble both read one shared feature (:class:`ChainCounts`, see
:mod:`.features`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from ..moves import Move
from .base import (
    SYMBOLS,
    Capabilities,
    PredictorBase,
    WorksInOneHalf,
    argmax3,
    check_half,
    check_positive,
    check_source,
    real_side,
)
from .features import Features


class ContinuationCounts:
    """How often each move followed each context, over the match or the last ``window``
    records (a ring of records, so forgetting the oldest is O(1)); each record counts
    ``amount``. A context's row is fetched (created empty if new) when the context is
    formed, so that the move that follows is counted into it without a second look-up."""

    def __init__(self, window: int | None, amount: int = 1) -> None:
        self.window = window
        self.amount = amount
        self.table: dict[int, list[int]] = {}
        # the ring starts full of records of a scratch row that nothing reads, so that
        # forgetting the oldest record needs no test of whether the ring is full yet
        self._ring: list[tuple[list[int], Move]] = [([0, 0, 0], 0)] * (window or 0)
        self._slot = 0  # the oldest record's slot, where the next one goes

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ContinuationCounts) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def row(self, context: int) -> list[int]:
        """The counts after ``context``, a row of zeros if it was never counted."""
        row = self.table.get(context)
        if row is None:
            row = self.table[context] = [0, 0, 0]
        return row

    def count(self, row: list[int], move: Move) -> None:
        """Count ``move`` in a context's ``row`` (from :meth:`row`), forgetting the oldest
        record."""
        amount = self.amount
        window = self.window
        if window is not None:
            ring = self._ring
            slot = self._slot
            old_row, old_move = ring[slot]
            old_row[old_move] -= amount
            ring[slot] = (row, move)
            slot += 1
            self._slot = slot if slot < window else 0
        row[move] += amount


class ChainCounts:
    """How often each move of the ``counted`` side followed each context of the last
    ``seq_len - 1`` symbols of ``context`` (a side, or both as pairs), over the match or the
    last ``num_records`` records; ``row``: the counts after the current context (None while
    it is too short). A shared feature (see :mod:`.features`)."""

    def __init__(self, context: str, counted: str, seq_len: int, num_records: int | None) -> None:
        self.context = check_source(context)
        self.counted = counted
        self.seq_len = seq_len
        self.num_records = num_records
        self._symbol = SYMBOLS[context]
        self._theirs = counted == "their"
        self._base = 10 ** (seq_len - 1)
        self._needed = seq_len - 1  # symbols of context before the chain can count
        self._counts = ContinuationCounts(num_records)
        self._context = 0  # last seq_len - 1 symbols, base 10 digits
        self._length = 0
        self.row: list[int] | None = None

    @property
    def key(self) -> tuple[str, str, str, int, int | None]:
        return ("markov", self.context, self.counted, self.seq_len, self.num_records)

    @property
    def name(self) -> str:
        suffix = "" if self.num_records is None else f"@{self.num_records}"
        return f"counts{self.seq_len}-{self.context}>{self.counted}{suffix}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChainCounts) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def update(self, mine: Move, theirs: Move) -> None:
        row = self.row
        if row is not None:  # the row of last round's context: count the move there
            move = theirs if self._theirs else mine
            if self.num_records is None:
                row[move] += 1  # count(), inlined: this runs for most chains, twice a round
            else:
                self._counts.count(row, move)
        context = self._context = (
            self._context * 10 + self._symbol[mine * 3 + theirs]
        ) % self._base
        length = self._length = self._length + 1
        self.row = self._counts.row(context) if length >= self._needed else None


class MarkovChain(PredictorBase):
    """Predict the continuation most often seen after the current context."""

    def __init__(
        self,
        seq_len: int = 3,
        num_records: int | None = None,
        source: str = "their",
        least: bool = False,
    ) -> None:
        self.seq_len = check_positive(seq_len, "seq_len")
        if self.seq_len < 2:
            raise ValueError(
                f"invalid seq_len {seq_len!r}: expected at least 2 (context plus move)"
            )
        self.num_records = check_positive(num_records, "num_records", allow_none=True)
        self.source = check_source(source)
        self.least = bool(least)
        suffix = "" if num_records is None else f"@{num_records}"
        stem = "novelty" if self.least else "markov"
        self.name = f"{stem}{seq_len}-{source}{suffix}"
        self.reset()

    def reset(self) -> None:
        # the counts, private (updated here) until the line-up's hub hands over its own
        self._counts = ChainCounts(self.source, "their", self.seq_len, self.num_records)
        self._private = True
        self._seen = False
        self._prediction: Move | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MarkovChain) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def join(self, features: Features, mirrored: bool) -> None:
        """Read the hub's counts: of the real side this half's context reads, of the side
        it counts (a mirrored half counts our moves), once a mirrored twin's swapped
        arguments are undone; the most and least counted continuations read the same rows.
        A fresh chain only."""
        if self._seen:
            raise ValueError(f"cannot join {self.name!r} to a hub mid-match: reset it first")
        context = real_side(self.source, mirrored)
        counted = "mine" if mirrored else "their"
        self._counts = features.get(ChainCounts(context, counted, self.seq_len, self.num_records))
        self._private = False

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        counts = self._counts
        if self._private:
            counts.update(my_move, their_move)
        self._seen = True
        row = counts.row
        if row is None:
            prediction = None
        else:
            # argmax3 of the row (or of its negation: the least counted), inlined: this runs
            # for every chain, twice a round
            a, b, c = row
            if not (a or b or c):
                prediction = None
            else:
                if self.least:
                    a, b, c = -a, -b, -c
                if a >= b:
                    prediction = 0 if a >= c else 2
                else:
                    prediction = 1 if b >= c else 2
        self._prediction = prediction
        return prediction

    def predict(self) -> Move | None:
        return self._prediction


class CalibratedMarkovChain(WorksInOneHalf):
    """A Markov chain whose hidden prior counts and tie-breaks are inferred from replies.

    An opponent that predicts us by counting our transitions (or, with ``seq_len=1``, our
    move frequencies over a window) may carry counts we never saw (earlier matches, a padded
    start) and break ties in its own order. Model it as ``argmax(SCALE * counts + offset)``
    per context, with the offsets unknown (a fraction of a count orders ties), and assume
    the side that replies plays to beat that prediction: every reply bounds the offset
    differences ``x_i - x_j`` of the row, kept as a 3x3 difference-bound matrix (closure
    over three nodes is O(1)). The prediction uses the feasible offsets closest to zero;
    a contradiction restarts the row's bounds from the latest reply, and the row abstains
    until a reply fits again (facing a side that does not count, the model stays silent).
    (Counting second-guessers: Egnor 1999's P' strategies; bounds: Dill 1989, DBMs.)
    With ``infer_shift`` the reply may also be the prediction second-guessed (rotated once or
    twice more): the bounds are kept under all three readings of a reply, and the prediction
    uses the reading that has contradicted the replies least of late.
    A noisy side (one that sometimes plays at random) breaks the model now and then with a
    reply that is not its counting's. So a contradiction of a row that had fitted its last
    ``TRUSTED_FITS`` replies running, in the reading in use, looks back at the row's last
    ``MEMORY`` replies, newest first, each kept if it fits those kept before it: if at least
    two more of them fit together without the latest reply than with it, the latest is taken
    for noise and the bounds are rebuilt from the others (the row keeps speaking); otherwise
    the row restarts from the latest reply and abstains until a reply fits, as a side whose
    counts really changed needs. The look-back is bounded by ``MEMORY``, so still O(1), and
    rare: facing a side the model does not fit, rows seldom fit eight replies running. A
    chain over a window keeps no replies: its hidden counts leave the window, so older
    replies bound offsets that no longer hold.
    """

    OFFERS = Capabilities(doubt=True)

    SCALE = 3  # offsets 0..2 below one count can encode any order of ties

    MISFIT_DECAY = 0.9  # how fast a reading's record of contradictions fades
    MISFIT_MARGIN = 1.0  # another reading takes over once it has fitted clearly better
    MEMORY = 16  # replies per row kept for rebuilding its bounds after a contradiction
    TRUSTED_FITS = 8  # replies a row must have fitted running before a look-back

    def __init__(
        self,
        seq_len: int = 2,
        num_records: int | None = None,
        source: str = "their",
        infer_shift: bool = False,
        half: str = "both",
    ) -> None:
        self.seq_len = check_positive(seq_len, "seq_len")
        self.num_records = check_positive(num_records, "num_records", allow_none=True)
        self.source = check_source(source)
        self._symbol = SYMBOLS[source]
        self._shifted = bool(infer_shift)
        self._readings = 3 if infer_shift else 1  # shifts 0, 1, 2 of a reply, or 0 alone
        self._needed = self.seq_len - 1
        self.half = check_half(half)
        suffix = "" if num_records is None else f"@{num_records}"
        self.name = f"calibrated{seq_len}-{source}{suffix}{'-shifted' if infer_shift else ''}"
        self._base = 10 ** (self.seq_len - 1)
        self.reset()

    def reset(self) -> None:
        self._counts = ContinuationCounts(self.num_records, self.SCALE)
        # per reading of a reply (shift): the rows' bounds, and the rows whose latest reply
        # broke the model
        self._all_bounds: list[dict[int, list[int]]] = [{} for _ in range(self._readings)]
        self._all_contradicted: list[set[int]] = [set() for _ in range(self._readings)]
        self._misfits = [0.0] * self._readings
        # per row: its last MEMORY replies, each as (row counts then, our move), newest last
        self._replies: dict[int, deque[tuple[int, int, int, Move]]] = {}
        self._memory = self.MEMORY if self.num_records is None else 0
        # in the reading in use: how many replies each row has fitted since its bounds last
        # restarted (or since that reading took over)
        self._fits: dict[int, int] = {}
        self._bounds = self._all_bounds[0]
        self._contradicted = self._all_contradicted[0]
        self._shift = 0  # the reading in use
        self._idle = False  # set by join() in the half this chain does not work in
        self._context = 0
        self._length = 0
        self._prediction: Move | None = None

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle:
            return None
        counts = self._counts
        table = counts.table
        needed = self._needed
        length = self._length
        context = self._context
        if length >= needed:
            row = counts.row(context)
            n0, n1, n2 = row
            # every reply bounds differences of the row's counts: computed once for all readings
            d01, d02, d21 = n0 - n1, n0 - n2, n2 - n1
            memory = self._memory
            shifted = self._shifted
            if shifted:
                all_bounds = self._all_bounds
                all_contradicted = self._all_contradicted
                # reading s takes the reply for the prediction rotated s more times: the
                # argmax our move plus 2, plus 1, plus 0
                broke0 = _constrain(
                    all_bounds[0], all_contradicted[0], context, (my_move + 2) % 3, d01, d02, d21
                )
                broke1 = _constrain(
                    all_bounds[1], all_contradicted[1], context, (my_move + 1) % 3, d01, d02, d21
                )
                broke2 = _constrain(
                    all_bounds[2], all_contradicted[2], context, my_move, d01, d02, d21
                )
                misfits = self._misfits
                decay = self.MISFIT_DECAY
                m0 = misfits[0] = misfits[0] * decay + broke0
                m1 = misfits[1] = misfits[1] * decay + broke1
                m2 = misfits[2] = misfits[2] * decay + broke2
                shift = self._shift
                broke = broke0 if shift == 0 else broke1 if shift == 1 else broke2
            else:
                shift = 0
                broke = _constrain(
                    self._bounds, self._contradicted, context, (my_move + 2) % 3, d01, d02, d21
                )
            if memory:
                if broke:  # in the reading in use
                    self._look_back(context, shift)
                else:  # a fit: counted here, the common case
                    fits = self._fits
                    fits[context] = fits.get(context, 0) + 1
                replies = self._replies.get(context)
                if replies is None:
                    replies = self._replies[context] = deque(maxlen=memory)
                replies.append((n0, n1, n2, my_move))
            if shifted:
                # follow the least contradicted reading (the first among equals) once it is
                # clearly ahead of the one in use
                best, least = (1, m1) if m1 < m0 else (0, m0)
                if m2 < least:
                    best, least = 2, m2
                if least < misfits[shift] - self.MISFIT_MARGIN:
                    self._shift = best
                    self._bounds = all_bounds[best]
                    self._contradicted = all_contradicted[best]
                    self._fits = {}
            counts.count(row, their_move)
        if needed:
            context = self._context = (
                context * 10 + self._symbol[my_move * 3 + their_move]
            ) % self._base
        self._length = length = length + 1
        self._prediction = prediction = (
            None if length < needed else self._calibrated(context, table.get(context))
        )
        return prediction

    def _calibrated(self, context: int, row: list[int] | None) -> Move | None:
        """argmax of the context's row plus the feasible offsets closest to zero."""
        if row is None or context in self._contradicted:
            return None  # no data, or the replies just contradicted the model: abstain
        bounds = self._bounds.get(context)
        if bounds is None:
            return argmax3(row)
        low_a, high_a, low_b, high_b, low_c, high_c = bounds
        # x1 and then x2 (given x1) clamped towards zero into their feasible intervals
        x1 = low_a if low_a > 0 else high_a if high_a < 0 else 0
        low = x1 - high_c if x1 - high_c > low_b else low_b
        high = x1 - low_c if x1 - low_c < high_b else high_b
        x2 = low if low > 0 else high if high < 0 else 0
        a, b, c = row[0], row[1] + x1, row[2] + x2
        if a >= b:
            return 0 if a >= c else 2
        return 1 if b >= c else 2

    def _look_back(self, context: int, shift: int) -> None:
        """The row has just been contradicted in the reading in use (``shift``) and restarted
        from the latest reply: if it had fitted ``TRUSTED_FITS`` replies running, rebuild it
        from its older replies instead when they outvote the latest; otherwise restart its
        count of fits (which :meth:`update` keeps)."""
        fits = self._fits
        if fits.get(context, 0) >= self.TRUSTED_FITS:
            rows = self._all_bounds[shift]
            older = self._replies.get(context, ())
            _, kept = _refit(rows[context], older, shift)
            without, kept_without = _refit([-UNBOUNDED, UNBOUNDED] * 3, older, shift)
            if kept_without > kept + 1:  # the latest reply is the odd one out: noise
                rows[context] = without
                self._all_contradicted[shift].discard(context)
                return
        fits[context] = 0

    def predict(self) -> Move | None:
        return self._prediction

    def doubt(self) -> bool:
        """Whether the replies so far leave open that the row's argmax is the prediction
        plus 2: the prediction takes the feasible offsets nearest zero, and where another
        argmax is feasible too it is right about four times in five (measured against
        order-3 context counters carrying their state), so the ensemble plays the move that
        the prediction plus 2 cannot beat (it still loses to the prediction plus 1, which
        against such counters was never the answer). Computed on demand (one closure)."""
        prediction = self._prediction
        if prediction is None:
            return False
        row = self._counts.table.get(self._context)
        bounds = self._bounds.get(self._context)
        if row is None or bounds is None:
            return False
        # feasible iff the row's bounds still close with a reply whose argmax is that move
        # (a reply read with shift 0 names the argmax as our move plus 2)
        alternative = (prediction + 2) % 3
        return _tightened(bounds, (row[0], row[1], row[2], (alternative + 1) % 3), 0) is not None


UNBOUNDED = 10**9


def _constrain(
    rows: dict[int, list[int]],
    contradicted: set[int],
    context: int,
    winner: Move,
    d01: int,
    d02: int,
    d21: int,
) -> bool:
    """Record that ``winner`` was the argmax (first on ties) of the context's row plus
    offsets, in one reading's ``rows`` of bounds (``d01 = n0 - n1`` and so on: the row's count
    differences); True if that contradicted the row's bounds, which then restart from this
    reply (and the context joins ``contradicted`` until a reply fits again).

    Offsets are relative to the first move's: a = x1 - x0, b = x2 - x0, and c = a - b;
    the row's bounds are [low a, high a, low b, high b, low c, high c].
    """
    bounds = rows.get(context)
    if bounds is None:  # the first reply: its bounds alone, closed
        rows[context] = _restarted(winner, d01, d02, d21)
        contradicted.discard(context)
        return False
    # each reply bounds two of the intervals; slots 0/2/4 are lows, 1/3/5 highs; a reply
    # that tightens neither leaves the bounds closed
    low_a, high_a, low_b, high_b, low_c, high_c = bounds
    if winner == 0:  # a <= n0-n1, b <= n0-n2
        if d01 >= high_a and d02 >= high_b:
            if context in contradicted:  # (a test is cheaper than discard on a miss)
                contradicted.remove(context)
            return False
        high_a, high_b = min(high_a, d01), min(high_b, d02)
    elif winner == 1:  # a >= n0-n1+1, c >= n2-n1
        if d01 + 1 <= low_a and d21 <= low_c:
            if context in contradicted:
                contradicted.remove(context)
            return False
        low_a, low_c = max(low_a, d01 + 1), max(low_c, d21)
    else:  # b >= n0-n2+1, c <= n2-n1-1
        if d02 + 1 <= low_b and d21 - 1 >= high_c:
            if context in contradicted:
                contradicted.remove(context)
            return False
        low_b, high_c = max(low_b, d02 + 1), min(high_c, d21 - 1)
    closed = _closed(low_a, high_a, low_b, high_b, low_c, high_c)
    if closed is not None:
        rows[context] = closed
        if context in contradicted:
            contradicted.remove(context)
        return False
    rows[context] = _restarted(winner, d01, d02, d21)
    contradicted.add(context)
    return True


def _tightened(
    bounds: list[int], reply: tuple[int, int, int, Move], shift: int
) -> list[int] | None:
    """``bounds`` with one remembered reply (row counts, our move) read with ``shift``, as a
    new list, or None if it does not fit them."""
    n0, n1, n2, my_move = reply
    winner = (my_move + 2 - shift) % 3
    low_a, high_a, low_b, high_b, low_c, high_c = bounds
    if winner == 0:
        high_a, high_b = min(high_a, n0 - n1), min(high_b, n0 - n2)
    elif winner == 1:
        low_a, low_c = max(low_a, n0 - n1 + 1), max(low_c, n2 - n1)
    else:
        low_b, high_c = max(low_b, n0 - n2 + 1), min(high_c, n2 - n1 - 1)
    return _closed(low_a, high_a, low_b, high_b, low_c, high_c)


def _closed(
    low_a: int, high_a: int, low_b: int, high_b: int, low_c: int, high_c: int
) -> list[int] | None:
    """a = b + c's three intervals tightened against each other (as a new list of bounds),
    or None if they are infeasible. With three variables every shortest path has at most two
    edges, so one pass of the triangle rules is the full difference-bound closure."""
    if low_b + low_c > low_a:
        low_a = low_b + low_c
    if high_b + high_c < high_a:
        high_a = high_b + high_c
    if low_a - high_c > low_b:
        low_b = low_a - high_c
    if high_a - low_c < high_b:
        high_b = high_a - low_c
    if low_a - high_b > low_c:
        low_c = low_a - high_b
    if high_a - low_b < high_c:
        high_c = high_a - low_b
    if low_a <= high_a and low_b <= high_b and low_c <= high_c:
        return [low_a, high_a, low_b, high_b, low_c, high_c]
    return None


def _refit(
    bounds: list[int], replies: Sequence[tuple[int, int, int, Move]], shift: int
) -> tuple[list[int], int]:
    """``bounds`` tightened by each of ``replies``, newest first, that fits those kept
    before it (as a new list; ``bounds`` is left as it was); and how many were kept."""
    kept = 0
    for reply in reversed(replies):
        tightened = _tightened(bounds, reply, shift)
        if tightened is not None:
            bounds = tightened
            kept += 1
    return bounds, kept


def _restarted(winner: Move, d01: int, d02: int, d21: int) -> list[int]:
    """The closed bounds of one reply alone: what :func:`_closed` makes of unbounded
    intervals but the reply's two limits, written out (with the limits, count differences,
    far inside ``UNBOUNDED``, only the rules that carry a limit to an unbounded side apply)."""
    if winner == 0:  # a <= d01, b <= d02
        return [
            -UNBOUNDED,
            d01,
            -UNBOUNDED,
            d02,
            -UNBOUNDED - d02 if d02 < 0 else -UNBOUNDED,
            UNBOUNDED + d01 if d01 < 0 else UNBOUNDED,
        ]
    if winner == 1:  # a >= d01 + 1, c >= d21
        return [
            d01 + 1,
            UNBOUNDED,
            d01 + 1 - UNBOUNDED if d01 + 1 > 0 else -UNBOUNDED,
            UNBOUNDED - d21 if d21 > 0 else UNBOUNDED,
            d21,
            UNBOUNDED,
        ]
    # b >= d02 + 1, c <= d21 - 1
    return [
        d02 + 1 - UNBOUNDED if d02 + 1 > 0 else -UNBOUNDED,
        UNBOUNDED + d21 - 1 if d21 - 1 < 0 else UNBOUNDED,
        d02 + 1,
        UNBOUNDED,
        -UNBOUNDED,
        d21 - 1,
    ]
