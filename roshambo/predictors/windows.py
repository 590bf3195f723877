"""Counting windows: which window of a side's recent moves an opponent counts, and how.

An opponent that beats the most (or the least) frequent of our last N moves can use any N,
or count the whole match. Rather than one predictor per window, this one follows every
window from 1 to ``max_window`` and the whole match at once: a side's counts over all those
windows are packed into one big integer per move (a field per window), kept up to date in
O(1) big-integer operations a round (the last N moves are the new one and the last N - 1
before it, so every field takes the next smaller window's count, one field up, plus the new
move; the whole match's field holds each move's count less the least counted one's). Every
round it checks, for all windows at once, whether the opponent's move beat a move leading
(or trailing) that window's counts, ties included. It follows the window and target with
the most hits, each record kept within ``lead`` hits of the best one (fixed share, Herbster
& Warmuth 1998: with the default of six, a window can take over within a few rounds of the
opponent changing its window, yet the true one keeps the lead it earned where its
neighbours' leaders differed from its own, which a random move now and then does not take
away; a longer lead remembers a window through a long spell of another, or of noise). With
``split_ties`` a hit is credited by how many moves tie with the one beaten (whole, a half,
a third), so that a random move earns the same in expectation in every window: a window
whose counts all tie is hit by any reply, and counted whole it outscores the true window of
a noisy counter whenever our own moves keep that window's counts level. A predictor offered
the counts of an identical one (see :meth:`CountingWindows.share`) reads them instead of
keeping its own, so a second record costs only its choice. Carried into a new
match (see :meth:`CountingWindows.new_match`), it follows the best hit score decayed by 1/16
a round instead, rescanned when the followed window misses: a lead earned against the last
opponent would hold there for six hits. It speaks once the followed window's decayed score
shows about four hits running; where that window's counts tie, it learns which of the tied
moves the opponent picks, keyed by the order in which the moves present entered the window
and by which tied move was seen last (a fixed order, the first seen as
``Counter.most_common`` has it, the last seen, or a ``set``'s order), backing off to the
order in which the tied moves alone entered it, then to the tied moves alone, until a finer
context is seen (as prediction by partial matching does, Cleary & Witten 1984). It also
keeps, a bit per window and target, those hit by every move since ``reset``, and for each
the fixed orders of the moves that named the beaten move first at every one of its ties:
where all of them name one move (a single leader or trailer, or, tied, what every order
still fitting the window names first), that is the move an exact model of the opponent
forces (see :meth:`CountingWindows.exact` and the ensemble's exact models), which needs no
record: where a counter's window fills, the meta levels would keep following for a few
rounds more the models that did as well until then (a count over the whole match).
Billings 1999, the "freqbot" family, with the window, the target and the tie rule left
open; packed fields as in the ensemble's scores.
"""
from __future__ import annotations

import sys
from array import array
from collections.abc import Callable

from ..moves import Move
from .base import TIED, TieContexts, WorksInOneHalf, check_half, check_positive, check_source

FIELD = 16  # bits a window's field takes: counts and scores stay under 2 ** 15
# the whole match's counts less the smallest, capped (a larger gap never makes a tie)
WHOLE_CAP = (1 << (FIELD - 2)) - 1
GUARD_BIT = FIELD - 1
HIT = 1 << 10  # a hit's weight in the decayed score
DECAY_SHIFT = 4  # the score decays by 1/16 a round: about the last 16 rounds count
LEAD = 6  # hits (by default): no record falls further behind the best one
MOST, LEAST = 0, 1
FULL = 6  # a record's credit for a hit (with ``split_ties``: divided among the tied moves)
MAX_LEAD = ((1 << GUARD_BIT) - 1 - FULL) // FULL  # a record reaches lead + 1 hits before it is lowered
# the fixed orders of the moves a tie may be broken by, and for each whether x comes before y
ORDERS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
AHEAD = tuple(tuple(tuple(order.index(x) < order.index(y) for y in range(3)) for x in range(3))
              for order in ORDERS)


class CountingWindows(WorksInOneHalf):
    """Predict their move as a reaction to the leading (or trailing) moves of one side's
    last N moves, for whichever N from 1 to ``max_window`` (or the whole match) has explained
    their moves best.

    ``source`` is the side whose moves are counted ("mine": an opponent counting our moves);
    the field after ``max_window``'s is the whole match's. Silent until a window has scored
    ``min_score`` hits' worth (about four hits running). ``lead``: how many hits behind the
    best a record may fall; ``split_ties``: credit a hit on a tie by the moves tied.
    """

    def __init__(self, source: str = "mine", max_window: int = 64, min_score: int = 4,
                 half: str = "both", lead: int = LEAD, split_ties: bool = False) -> None:
        self.source = check_source(source)
        if source == "both":
            raise ValueError(f"invalid source {source!r}: a window counts one side's moves")
        self.max_window = check_positive(max_window, "max_window")
        self.min_score = check_positive(min_score, "min_score")
        self.lead = check_positive(lead, "lead")
        if lead > MAX_LEAD:
            raise ValueError(f"invalid lead {lead!r}: expected at most {MAX_LEAD} (a record's field would overflow)")
        if not isinstance(split_ties, bool):
            raise ValueError(f"invalid split_ties {split_ties!r}: expected True or False")
        self.split_ties = split_ties
        self._lead = FULL * self.lead  # in credits
        self.name = (f"windows{max_window}-{source}" + ("" if lead == LEAD else f"-lead{lead}")
                     + ("-split" if split_ties else ""))
        self._mine = source == "mine"
        self.half = check_half(half)
        self._fields = fields = self.max_window + 1  # the windows, then the whole match
        self._ones = sum(1 << (FIELD * j) for j in range(fields))
        self._guard = self._ones << GUARD_BIT
        self._whole_shift = FIELD * self.max_window  # where the whole match's field starts
        self._windows = (1 << self._whole_shift) - 1  # the windows' fields, not the whole's
        self._least_shift = FIELD * fields  # where LEAST's fields start, after MOST's
        self._window_ones = self._ones & self._windows  # one in every window's field
        self._both_ones = self._ones << self._least_shift | self._ones  # a field per window and target
        self._both_guard = self._both_ones << GUARD_BIT
        self._low = self._ones * ((1 << (FIELD - DECAY_SHIFT)) - 1)  # the bits a decay shift keeps
        full_score = HIT << DECAY_SHIFT
        self._threshold = int(full_score * (1 - (1 - 2 ** -DECAY_SHIFT) ** min_score)) - 1
        self.reset()

    def reset(self) -> None:
        # _counts[m]: field j holds how often m is among the last j + 1 moves, the last field
        # how often over the whole match, less the least counted move's count
        self._counts = [0, 0, 0]
        self._whole = [0, 0, 0]  # every move's count over the match
        self._first: list[int | None] = [None, None, None]  # every move's first position
        self._scores = [0, 0]  # per target (MOST, LEAST): a decayed hit score per window
        # hits per window and target (MOST's fields, then LEAST's), less the best's minus the lead
        # and never below 0: the best record holds the lead once some window has scored that many
        self._records = 0
        self._top = 0  # the best record (the followed window's)
        self._decayed_choice = False  # whether the decayed score chooses (see new_match)
        self._best = (MOST, 0)  # the target and window with the best record
        self._positions: tuple[list[int], ...] = ([], [], [])  # recent positions of each move
        self._seen = 0
        self._ties = TieContexts()  # which tied move the opponent targets, per tie context
        self._prediction: Move | None = None
        self._idle = False  # set by share() in the half this predictor does not work in
        self._owner: CountingWindows | None = None  # whose counts this one reads, if shared
        self._lent = False  # whether another reads this one's counts (see share)
        self._compared: tuple[int, int, int, int] = (0, 0, 0, 0)  # the last round's comparison
        # the windows and targets hit every round since reset (see exact), a bit per field
        # as in the records; the move they all force next, and how many such moves were played
        self._consistent = self._both_ones
        self._forced: Move | None = None
        self._tests = 0
        # per fixed order, the fields (as above) at each of whose ties so far it named the
        # move the side beat
        self._orders = [self._both_ones] * len(ORDERS)

    def new_match(self) -> None:
        """A new match, maybe against another opponent (see :mod:`.carried`): from here on
        the window followed is the best decayed score's, rescanned when it misses, since a
        lead in the records earned against the last opponent would hold for six hits; the
        counts, the tie contexts and the decayed scores are kept."""
        self._decayed_choice = True

    def share(self, shared: dict[object, object], mirrored: bool) -> None:
        """Idle in the half this predictor does not work in; in the other, borrow the counts
        and the decayed scores of a predictor already in ``shared`` that counts the same
        side's moves over the same windows (or offer this one), keeping only the records,
        the tie contexts and the choice of its own. A borrower reads the owner's comparison
        of the round, so it must be updated after the owner (the ensemble calls ``share`` in
        the order of its updates, on fresh predictors). ``reset`` ends it."""
        super().share(shared, mirrored)
        if self._idle:
            return
        owner = shared.setdefault(("windows", self.source, mirrored, self.max_window, self.min_score), self)
        if owner is self:
            return
        if type(owner) is not type(self) or owner._seen or self._seen:
            raise ValueError(f"cannot share {owner!r}'s counts: sharing needs fresh counting windows")
        owner._lent = True
        self._owner = owner
        self._counts, self._whole, self._first = owner._counts, owner._whole, owner._first
        self._positions, self._scores = owner._positions, owner._scores

    @property
    def borrowing(self) -> bool:
        """Whether this one reads another's counts (see :meth:`share`)."""
        return self._owner is not None

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle:
            return None
        owner = self._owner
        if self._seen:
            target = (their_move - 1) % 3
            if owner is None:
                # score every window: did their move beat a move leading (trailing) its counts?
                counts, guard = self._counts, self._guard
                beaten, a, b = counts[target], counts[their_move], counts[(their_move + 1) % 3]
                guarded = beaten | guard  # a guard bit per field: it survives x - y iff x >= y
                over_a, over_b = (guarded - a) & guard, (guarded - b) & guard
                under_a, under_b = ((a | guard) - beaten) & guard, ((b | guard) - beaten) & guard
                most = (over_a & over_b) >> GUARD_BIT
                least = (under_a & under_b) >> GUARD_BIT
                tied_a, tied_b = over_a & under_a, over_b & under_b  # the beaten move ties a (b)
                if self._lent:
                    self._compared = (most, least, tied_a, tied_b)
                scores, low = self._scores, self._low
                scores[MOST] = scores[MOST] - ((scores[MOST] >> DECAY_SHIFT) & low) + most * HIT
                scores[LEAST] = scores[LEAST] - ((scores[LEAST] >> DECAY_SHIFT) & low) + least * HIT
                if self._consistent:
                    if their_move == self._forced:
                        self._tests += 1
                    self._consistent &= least << self._least_shift | most
                    # where the beaten move tied with another, an order naming that one first is out
                    ties = ((tied_a >> GUARD_BIT, their_move), (tied_b >> GUARD_BIT, (their_move + 1) % 3))
                    orders, shift = self._orders, self._least_shift
                    for k, ahead in enumerate(AHEAD):
                        out = 0
                        for tied, other in ties:
                            if ahead[other][target]:
                                out |= tied
                        if out:
                            orders[k] &= ~(out << shift | out)
            else:
                if owner._seen != self._seen + 1:  # the owner has seen this round already (see share)
                    raise RuntimeError(f"{self.name} borrows the counts of {owner.name}, which has seen "
                                       f"{owner._seen} rounds, not {self._seen + 1}: update it first, "
                                       "every round, and reset both")
                most, least, tied_a, tied_b = owner._compared
            if self._decayed_choice:
                if not (((most, least)[self._best[0]] >> (FIELD * self._best[1])) & 1):
                    self._best = self._rescan()  # a window that hits stays ahead of every other
            elif self.split_ties:
                # a hit's credit is FULL divided among the moves tied with the one beaten (6, 3
                # or 2), so that a random move earns 2 in expectation whatever the window's
                # counts: a window whose counts all tie would otherwise hit every round
                ones = self._ones
                single = ((tied_a | tied_b) >> GUARD_BIT) ^ ones  # no tie
                pair = ((tied_a & tied_b) >> GUARD_BIT) ^ ones  # not all three tied
                most_credit = 2 * most + (most & pair) + 3 * (most & single)
                least_credit = 2 * least + (least & pair) + 3 * (least & single)
                self._best = self._follow(least_credit << self._least_shift | most_credit)
            else:
                self._best = self._follow(FULL * (least << self._least_shift | most))
            self._ties.learn(target)
        if owner is None:
            counts = self._counts
            move = my_move if self._mine else their_move
            # the last j + 1 moves are the new one and the last j before it: each window's
            # counts are the next smaller window's, one field up, plus the new move
            windows, whole = self._windows, self._whole
            whole[move] += 1
            if self._first[move] is None:
                self._first[move] = self._seen
            fewest, at = min(whole), self._whole_shift
            counts[0] = (counts[0] << FIELD) & windows | min(whole[0] - fewest, WHOLE_CAP) << at
            counts[1] = (counts[1] << FIELD) & windows | min(whole[1] - fewest, WHOLE_CAP) << at
            counts[2] = (counts[2] << FIELD) & windows | min(whole[2] - fewest, WHOLE_CAP) << at
            counts[move] += self._window_ones
            positions = self._positions[move]
            positions.append(self._seen)
            if len(positions) > 2 * self.max_window:
                del positions[:self.max_window]
            self._forced = self._agreed() if self._consistent else None
        self._seen += 1
        self._prediction = self._predict()
        return self._prediction

    @property
    def exact(self) -> Callable[[], tuple[Move, int] | None] | None:
        """:meth:`_exact`, or None for a predictor that borrows its counts (the owner says
        the same), so that the ensemble asks one of them."""
        return None if self._owner is not None else self._exact

    def _exact(self) -> tuple[Move, int] | None:
        """The move every window and target hit by every move of the side since ``reset``
        forces, with how many such forced moves the side has played; None if they do not
        all force one move, or none is left. A window forces its single leader (trailer);
        where its counts tie, the move that every fixed order still fitting its ties names
        first, and nothing if no order fits (a tie rule such as the first seen, which a few
        ties can fit by chance: the order that names the next such tie wrongly is out).
        Against a random side, a window's forced moves are hit one time in three."""
        forced = self._forced
        return None if forced is None or self._idle else (forced, self._tests)

    def _agreed(self) -> Move | None:
        """The move forced alike by every consistent window and target (see :meth:`_exact`),
        from the counts just updated: at once where each has a single leader (trailer),
        else by the fixed orders still fitting the tied ones."""
        forced = self._agreed_single()
        return forced if forced is not None else self._agreed_at_ties()

    def _agreed_at_ties(self) -> Move | None:
        """The move m, if any, leading (trailing) every consistent field's counts, alone or
        tied, where every tied field has some fixed order still fitting its ties and each
        such order names m first among the moves tied there."""
        consistent, shift = self._consistent, self._least_shift
        counts, guard = self._counts, self._guard
        window_fields = (1 << shift) - 1
        for m in range(3):
            u, v = (m + 1) % 3, (m + 2) % 3
            a, b, c = counts[m] | guard, counts[u], counts[v]
            # per field: m ties u (v), m is at least (more than) both: the guard bit survives x - y iff x >= y
            tie_u = ((a - b) & ((b | guard) - counts[m]) & guard) >> GUARD_BIT
            tie_v = ((a - c) & ((c | guard) - counts[m]) & guard) >> GUARD_BIT
            most_at = ((a - b) & (a - c) & guard) >> GUARD_BIT
            least_at = (((b | guard) - counts[m]) & ((c | guard) - counts[m]) & guard) >> GUARD_BIT
            for fields, at, down in ((consistent & window_fields, most_at, 0), (consistent >> shift, least_at, shift)):
                tied = fields & (tie_u | tie_v)
                fitting = 0
                for ahead, order_fields in zip(AHEAD, self._orders):
                    alive = (order_fields >> down) & tied
                    fitting |= alive
                    if alive & ((tie_u if ahead[u][m] else 0) | (tie_v if ahead[v][m] else 0)):
                        break  # an order still fitting this tie names another move first
                else:
                    if not fields & ~at and not tied & ~fitting:
                        continue  # m leads (trails) every field, and every tie names it
                break
            else:
                return (m + 1) % 3
        return None

    def _agreed_single(self) -> Move | None:
        """The move forced alike by every consistent window and target where each has a
        single leader (trailer): the lowest consistent field names a candidate, and every
        other one must have the same single leader (trailer)."""
        consistent, shift = self._consistent, self._least_shift
        counts, guard, ones = self._counts, self._guard, self._ones
        target = None
        for kind, fields in ((MOST, consistent & ((1 << shift) - 1)), (LEAST, consistent >> shift)):
            if not fields:
                continue
            at = (fields & -fields).bit_length() - 1  # the lowest field's first bit
            lowest = [(counts[m] >> at) & 0x7FFF for m in range(3)]
            m = lowest.index(max(lowest) if kind == MOST else min(lowest))
            if target is not None and m != target:
                return None
            a, b, c = counts[m], counts[(m + 1) % 3], counts[(m + 2) % 3]
            if kind == MOST:  # a > b and a > c in every field: a - b - 1 keeps the guard bit
                single = ((a | guard) - b - ones) & ((a | guard) - c - ones) & guard
            else:
                single = ((b | guard) - a - ones) & ((c | guard) - a - ones) & guard
            if fields & ~(single >> GUARD_BIT):
                return None
            target = m
        return None if target is None else (target + 1) % 3

    def _follow(self, hits: int) -> tuple[int, int]:
        """Count ``hits`` (a credit per window and target) into the records, keep them within
        the lead of the best, and return the target and window to follow: the current one while
        its record is the best, else the first best (MOST's before LEAST's, the smallest
        window first)."""
        n = self._fields
        kind, window = self._best
        records = self._records + hits
        if ((hits >> (FIELD * (kind * n + window))) & 7) == FULL:
            # the best record hit a move alone in the lead: it is still the best, FULL more
            # than before (no need to look at the others)
            top = self._top + FULL
            if top > self._lead:
                records = self._lowered(records, top - self._lead)
                top = self._lead
            self._records, self._top = records, top
            return self._best
        # the followed record usually still leads: check it against every field at once (the
        # guard bit survives where it is at least the field) before unpacking them all
        guard = self._both_guard
        top = (records >> (FIELD * (kind * n + window))) & 0x7FFF
        if ((top * self._both_ones | guard) - records) & guard == guard:
            best = self._best
        else:
            fields = self._unpacked(records)
            top = max(fields)
            best = divmod(fields.index(top), n)
        if top > self._lead:
            records = self._lowered(records, top - self._lead)
        self._records, self._top = records, min(top, self._lead)
        return best

    def _rescan(self) -> tuple[int, int]:
        """The best decayed score's target and window (the first, smallest window on ties)."""
        n = self._fields
        fields = self._unpacked(self._scores[LEAST] << self._least_shift | self._scores[MOST])
        return divmod(fields.index(max(fields)), n)

    def _unpacked(self, packed: int) -> array[int]:
        """A field per window and target (MOST's, then LEAST's) of ``packed``, as integers."""
        return array("H", packed.to_bytes(4 * self._fields, sys.byteorder))

    def _lowered(self, records: int, amount: int) -> int:
        """``records`` less ``amount`` in every field, floored at 0: where the guard bit
        survives the subtraction the field was at least that much."""
        ones = self._both_ones
        guarded = (records | self._both_guard) - amount * ones
        return guarded & (((guarded >> GUARD_BIT) & ones) * 0x7FFF)

    def _predict(self) -> Move | None:
        best_kind, best_window = self._best
        shift = FIELD * best_window
        if (self._scores[best_kind] >> shift) & 0xFFFF < self._threshold:
            return None
        c0, c1, c2 = counts = ((self._counts[0] >> shift) & 0x7FFF, (self._counts[1] >> shift) & 0x7FFF,
                               (self._counts[2] >> shift) & 0x7FFF)
        extreme = max(counts) if best_kind == MOST else min(counts)
        mask = (c0 == extreme) | (c1 == extreme) << 1 | (c2 == extreme) << 2
        tied = TIED[mask]
        if len(tied) == 1:
            return (tied[0] + 1) % 3
        # a tie: read it by the order the moves present entered the window, and the last seen,
        # backing off to the order of the tied moves alone, then to the tied moves; a move's
        # first position in the window is its count-th latest (its positions keep at least
        # ``max_window`` of its latest)
        positions = self._positions
        if best_window < self.max_window:
            entered = [(positions[m][-counts[m]], m) for m in range(3) if counts[m]]
            present = counts
        else:  # the whole match: the moves ever played, by their first position
            first = self._first
            entered = [(first[m], m) for m in range(3) if first[m] is not None]
            present = self._whole
        last = max(tied, key=lambda m: positions[m][-1] if present[m] else -1)
        return (self._ties.read(entered, mask, last, best_kind, tied[0]) + 1) % 3

    def predict(self) -> Move | None:
        return self._prediction
