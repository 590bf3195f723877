"""Counting windows: which window of a side's recent moves an opponent counts, and how.

An opponent that beats the most (or the least) frequent of our last N moves can use any N,
or count the whole match. This predictor follows every window from 1 to ``max_window`` and
the whole match at once (Billings 1999, the "freqbot" family, with the window, the target
and the tie rule left open):

- Counts: a side's counts over every window are packed fields (:mod:`roshambo.engine.kernel`),
  one integer per move, kept in O(1) big-integer operations a round (the last N moves are
  the new one and the last N - 1 before it).
- Records: every round, for every window and target (most, least) at once, whether their
  move beat a move leading (trailing) the window's counts; the best record is followed,
  each kept within ``lead`` hits of the best (fixed share, Herbster & Warmuth 1998). A hit
  on a tie is credited by the moves tied (``split_ties``), or where the window's best tie
  rules (a fixed preference, the first to enter, the last seen), learnt from its own ties,
  name the move beaten (``tie_rules``).
- Tie contexts: where the followed window's counts tie, the tied move the opponent picks,
  learnt by the order the moves entered the window and the last seen, backing off to
  coarser contexts (prediction by partial matching, Cleary & Witten 1984).
- Exact model: the windows and targets hit by every move since the last round none was,
  with the tie rules that fitted each pair's ties, force a move when they agree
  (:meth:`CountingWindows.exact`, specified by :func:`.reference.windows_exact_by_rescan`).
- Carried into a new match (:meth:`CountingWindows.new_match`), the window is chosen by a
  decayed hit score.

The counts, the comparisons, the decayed scores, the tie rules' records and the exact model
are a shared feature (:class:`WindowCounts`, see :mod:`.features`); what a reader keeps of
its own is its records, its choice and its tie contexts.

Why each rule is as it is: docs/experiments.md ("Design notes moved from the code").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from ..kernel import PackedFields
from ..moves import Move
from .base import (
    TIED,
    Capabilities,
    TieContexts,
    WorksInOneHalf,
    check_half,
    check_positive,
    check_source,
    entry_code,
    real_side,
)
from .features import Features

FIELD = 16  # bits a window's field takes: counts and scores stay under 2 ** 15
# the whole match's counts less the smallest, capped (a larger gap never makes a tie)
WHOLE_CAP = (1 << (FIELD - 2)) - 1
GUARD_BIT = FIELD - 1
HIT = 1 << 10  # a hit's weight in the decayed score
DECAY_SHIFT = 4  # the score decays by 1/16 a round: about the last 16 rounds count
# how far a tie rule's misfits may run ahead of the best rule's, per field: bounded, so that
# a rule can come back within a few dozen ties (an opponent changing its rule)
RULE_BITS = 6
RULE_CAP = (1 << RULE_BITS) - 1
LEAD = 6  # hits (by default): no record falls further behind the best one
MOST, LEAST = 0, 1
FULL = 6  # a record's credit for a hit (with ``split_ties``: divided among the tied moves)
MAX_LEAD = (
    (1 << GUARD_BIT) - 1 - FULL
) // FULL  # a record reaches lead + 1 hits before it is lowered
# the rules a tie between moves i and i + 1 (pair i) may be broken by: a fixed preference
# for i or for i + 1, the move that entered the counted moves first, the one seen last
I_FIRST, NEXT_FIRST, ENTERED_FIRST, SEEN_LAST = range(4)
# per pair i, whether i comes before i + 1 where neither has been counted (R, P, S order)
ABSENT_AHEAD = (1, 1, 0)


class _Layout:
    """Where a window's (and a window and target's) fields are, for ``max_window`` windows
    and the whole match: constants every feature and reader of those windows shares (read,
    never written)."""

    def __init__(self, max_window: int) -> None:
        fields = max_window + 1
        # a field per window (counts, entries: ``per_window``), and per window and target
        # (MOST's fields, then LEAST's: records, scores, hits, tie rules: ``per_target``)
        self.per_window = per_window = PackedFields(FIELD, fields)
        self.per_target = per_target = PackedFields(FIELD, 2 * fields)
        self.windows = per_window.full ^ per_window.placed(per_window.mask, max_window)
        self.least_shift = least_shift = FIELD * fields  # where LEAST's fields start
        self.window_ones = ones = per_window.ones & self.windows  # a one in every window's field
        self.whole_bit = per_window.placed(1, max_window)  # a one in the whole match's field
        # per k, the windows' fields that do not count a move last played k + 1 moves ago
        # (the first k; see WindowCounts._track_entries); and per field and target, those
        # that do not (do)
        self.fresh = tuple(per_window.section(ones, 0, k) for k in range(fields))
        self.uncounted_at = tuple(f << least_shift | f for f in self.fresh)
        self.counted_at = tuple(per_target.ones ^ u for u in self.uncounted_at)


@cache
def _layout(max_window: int) -> _Layout:
    """The layout of ``max_window`` windows, made once (its constants cost O(windows ** 2)
    bits)."""
    return _Layout(max_window)


class WindowCounts:
    """The counts of the ``counted`` side's last N moves for every N from 1 to
    ``max_window`` and over the whole match, packed a field per window; each round, per
    window and target (most, least), whether the ``reply`` side's move beat a move leading
    (trailing) the window's counts (``compared``); a decayed hit score per window and target;
    with :meth:`read_rules`, the tie rules' records; and the exact model (:meth:`exact`).
    A shared feature (see :mod:`.features`): the readers are :class:`CountingWindows`."""

    def __init__(self, counted: str, reply: str, max_window: int) -> None:
        self.counted = check_source(counted)
        self.reply = check_source(reply)
        self.max_window = max_window
        self._mine = counted == "mine"
        self._reply_theirs = reply == "their"
        self._fields = max_window + 1  # the windows, then the whole match
        layout = _layout(max_window)
        self._per_window, self._per_target = layout.per_window, layout.per_target
        self._windows, self._least_shift = layout.windows, layout.least_shift
        self._window_ones, self._whole_bit = layout.window_ones, layout.whole_bit
        self._fresh = layout.fresh
        self._uncounted_at, self._counted_at = layout.uncounted_at, layout.counted_at
        # counts[m]: field j holds how often m is among the last j + 1 moves, the last field
        # how often over the whole match, less the least counted move's count
        self.counts = [0, 0, 0]
        self.whole = [0, 0, 0]  # every move's count over the match
        self.first: list[int | None] = [None, None, None]  # every move's first position
        self.positions: tuple[list[int], ...] = ([], [], [])  # recent positions of each move
        self.seen = 0
        # a decayed hit score per window and target (MOST's fields, then LEAST's)
        self.scores = 0
        # the last round's comparison (None before the second round): the fields hit, a bit
        # per window and target; where the beaten move tied the move before (after) it, at
        # the guard bits; and of the fields hit, those read wrongly by the tie rules
        self.compared: tuple[int, int, int, int] | None = None
        # per pair i, per rule (I_FIRST ...), per field and target, how many more ties of the
        # pair the rule has named wrongly than the field's best rule (capped at RULE_CAP);
        # kept once a reader asks for them (read_rules)
        self._reads_rules = False
        self.misfits = [[0] * 4 for _ in range(3)]
        # the windows and targets hit every round since the last round none was (see exact), a
        # bit per field as in the records; the move they force next, and how many such moves
        # were played since a forced move was not
        self._consistent = self._per_target.ones
        self._forced: Move | None = None
        self._tests = 0
        # how often every window has missed since it started, and the tests a model found
        # since the last such round must pass beyond one fitted from the start: one more for
        # each ninefold of searches (see exact)
        self._restarts = self._handicap = 0
        # per pair i of moves (i and i + 1) and tie rule (I_FIRST ...), the fields (as above)
        # at each of whose ties of the pair so far the rule named the move the side beat
        self._fits = self._every_rule()
        # per pair i, the fields (a bit per window, as the counts) where i entered the counted
        # moves before i + 1 (see _track_entries); where neither is counted, R, P, S order
        self._entered = [ahead * self._per_window.ones for ahead in ABSENT_AHEAD]
        # per pair i, where the rule that enters first (sees last) names i before i + 1, a
        # bit per field and target, once asked for (see _verdicts), until the counts change
        self._ahead: list[tuple[int, int] | None] = [None, None, None]
        # per pair of moves x, y (at 3x + y), the guard bits of the fields where x's count is
        # at least y's (see _agreed): with no moves counted, every field
        self._at_least = (self._per_window.guards,) * 9

    @property
    def key(self) -> tuple[str, str, str, int]:
        return ("windows", self.counted, self.reply, self.max_window)

    @property
    def name(self) -> str:
        return f"counts-{self.counted}@{self.max_window}>{self.reply}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WindowCounts) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def read_rules(self) -> None:
        """Keep the tie rules' records (a reader with ``tie_rules`` asks, before the first
        round)."""
        if self.seen:
            raise ValueError("the tie rules' records must be asked for before the first round")
        self._reads_rules = True

    def new_match(self) -> None:
        """A new match (for a reader carried over): the exact model's tests start over if
        they were found after every window had missed (see :meth:`CountingWindows.new_match`)."""
        if self._restarts:
            self._tests = 0

    def update(self, mine: Move, theirs: Move) -> None:
        their_move = theirs if self._reply_theirs else mine
        if self.seen:
            target = (their_move - 1) % 3
            # score every window: did their move beat a move leading (trailing) its counts?
            # the counts' comparisons, made for the exact model when they were last updated
            at_least, other = self._at_least, (their_move + 1) % 3
            over_a, over_b = at_least[3 * target + their_move], at_least[3 * target + other]
            under_a, under_b = at_least[3 * their_move + target], at_least[3 * other + target]
            # the fields hit, a bit per window and target (MOST's, then LEAST's)
            per_window = self._per_window
            hits = self._both_kinds(
                per_window.low_flags(over_a & over_b), per_window.low_flags(under_a & under_b)
            )
            tied_a, tied_b = over_a & under_a, over_b & under_b  # the beaten move ties a (b)
            misread = self._read_rules(hits, tied_a, tied_b, target) if self._reads_rules else 0
            self.compared = (hits, tied_a, tied_b, misread)
            self.scores = self._per_target.decayed(self.scores, DECAY_SHIFT) + hits * HIT
            if their_move == self._forced:
                self._tests += 1
            elif self._forced is not None:
                self._tests = 0  # the model failed (tied fields that named none may remain)
            self._consistent = consistent = self._consistent & hits
            # where the beaten move tied with another in a consistent field, a rule naming
            # that one first is out (the others' rules start over with them)
            live = self._either_kind(consistent)
            tie_a = per_window.low_flags(tied_a) & live
            tie_b = per_window.low_flags(tied_b) & live
            # (each rule's fields cleared as f ^ (f & out), without a negative; the verdicts
            # looked at only where a rule that needs them still fits)
            if tie_a:  # pair target (the beaten move, then theirs): theirs first is out
                tie_a = self._both_kinds(tie_a, tie_a)
                fits = self._fits[target]
                fits[NEXT_FIRST] ^= fits[NEXT_FIRST] & tie_a
                entered_fit, last_fit = fits[ENTERED_FIRST] & tie_a, fits[SEEN_LAST] & tie_a
                if entered_fit or last_fit:  # out where they name theirs first
                    entered, last = self._verdicts(target)
                    fits[ENTERED_FIRST] ^= entered_fit ^ (entered_fit & entered)
                    fits[SEEN_LAST] ^= last_fit ^ (last_fit & last)
            if tie_b:  # pair other (the move after theirs, then the beaten): other first out
                tie_b = self._both_kinds(tie_b, tie_b)
                fits = self._fits[other]
                fits[I_FIRST] ^= fits[I_FIRST] & tie_b
                entered_fit, last_fit = fits[ENTERED_FIRST] & tie_b, fits[SEEN_LAST] & tie_b
                if entered_fit or last_fit:  # out where they name other first
                    entered, last = self._verdicts(other)
                    fits[ENTERED_FIRST] ^= entered_fit & entered
                    fits[SEEN_LAST] ^= last_fit & last
            if not consistent:  # every window missed: each starts over from here
                self._consistent, self._tests = self._per_target.ones, 0
                self._restarts += 1
                if (
                    self._restarts == 9 ** (self._handicap + 1) - 1
                ):  # floor(log9(1 + restarts)) rises
                    self._handicap += 1
                self._fits = self._every_rule()
        counts = self.counts
        move = mine if self._mine else theirs
        # the last j + 1 moves are the new one and the last j before it: each window's
        # counts are the next smaller window's, one field up, plus the new move
        windows, whole = self._windows, self.whole
        whole[move] += 1
        if self.first[move] is None:
            self.first[move] = self.seen
        fewest = min(whole)
        up, at = self._per_window.shifted, self.max_window
        place = self._per_window.placed
        counts[0] = up(counts[0], 1) & windows | place(min(whole[0] - fewest, WHOLE_CAP), at)
        counts[1] = up(counts[1], 1) & windows | place(min(whole[1] - fewest, WHOLE_CAP), at)
        counts[2] = up(counts[2], 1) & windows | place(min(whole[2] - fewest, WHOLE_CAP), at)
        counts[move] += self._window_ones
        positions = self.positions[move]
        positions.append(self.seen)
        if len(positions) > 2 * self.max_window:
            del positions[: self.max_window]
        self._track_entries(move)
        self._forced = self._agreed()
        self.seen += 1

    def exact(self) -> tuple[Move, int] | None:
        """(Specified by :func:`.reference.windows_exact_by_rescan`.)

        The move the windows and targets hit by every move of the side since the last round none
        was force, with how many such forced moves the side has played since one was not (less a
        handicap, below); None if those that name a move do not all name one. A window names its
        single leader (trailer); where its counts tie, the move that every tie rule still
        fitting each pair of its tied moves names first (a rule that names a pair's next tie
        wrongly is out), and none if some pair has no such rule, though the move named must be
        among its tied ones. A counter whose window and rule are among these is never named
        wrongly: its own field names its move before any other it ties. Against a random side, a
        window's forced moves are hit one time in three, and every window has missed within a
        few rounds, when all start over: five tests running are rare (see docs/experiments.md).
        But each start is another search, and another chance that some window fits by luck, so
        the tests count one less for each ninefold of them: after r starts since ``reset``,
        floor(log9(1 + r)) less. A side that models our moves (a copy of our engine) is fitted
        for five tests now and then, and beats the move we then follow outright; the base, nine,
        trades that against a switcher's next counter being followed outright later (see
        docs/experiments.md)."""
        forced = self._forced
        return None if forced is None else (forced, self._tests - self._handicap)

    def _agreed(self) -> Move | None:
        """The move forced alike by every consistent window and target (see :meth:`_exact`),
        from the counts just updated: the move m, if any, among the leaders (trailers) of
        every such field, named by at least one of them and named before m by none. A field
        names its single leader (trailer); where its counts tie, the move that every rule
        still fitting each pair of its tied moves names first; a pair that no rule fits names
        neither (a tie rule of another kind, or a window hit by chance where any of the tied
        moves would do)."""
        consistent, per_window = self._consistent, self._per_window
        guard = per_window.guards
        at_least, low_flags = per_window.at_least, per_window.low_flags
        # per pair of moves x, y (at 3x + y): guard flags where x's count is at least y's
        # (the next round's scoring reads them)
        c0, c1, c2 = self.counts
        ge01, ge02, ge10 = at_least(c0, c1), at_least(c0, c2), at_least(c1, c0)
        ge12, ge20, ge21 = at_least(c1, c2), at_least(c2, c0), at_least(c2, c1)
        self._at_least = (guard, ge01, ge02, ge10, guard, ge12, ge20, ge21, guard)
        # the consistent fields of each target at the guard bits, where the comparisons are
        most, least = self._kinds(consistent)
        most, least = per_window.guard_flags(most), per_window.guard_flags(least)
        # per move m, then u = m + 1 and v = m + 2: m >= u, u >= m, m >= v, v >= m
        for m, m_u, u_m, m_v, v_m in (
            (0, ge01, ge10, ge02, ge20),
            (1, ge12, ge21, ge10, ge01),
            (2, ge20, ge02, ge21, ge12),
        ):
            if most & m_u & m_v != most or least & u_m & v_m != least:
                continue  # m does not lead (trail) some field
            v = (m + 2) % 3
            # the consistent fields where m ties u (v), and where some rule still fitting
            # there names m (the other) first
            tie_u, tie_v = low_flags(m_u & u_m), low_flags(m_v & v_m)
            tie_u = self._both_kinds(tie_u, tie_u) & consistent
            tie_v = self._both_kinds(tie_v, tie_v) & consistent
            if (
                tie_u
                and self._named_first(tie_u, m, True)
                or tie_v
                and self._named_first(tie_v, v, False)
            ):
                continue  # a field names another move before m
            # some field names m: one where it ties neither (most often), or where the rules
            # of its ties name it first
            named = consistent ^ (tie_u | tie_v)  # (both within consistent)
            if not named:
                named = consistent
                if tie_u:
                    named &= ~tie_u | self._named_first(tie_u, m, False)
                if tie_v:
                    named &= ~tie_v | self._named_first(tie_v, v, True)
            if named:
                return (m + 1) % 3
        return None

    def _named_first(
        self, fields: int, pair: int, second: bool, rules: list[int] | None = None
    ) -> int:
        """Of ``fields`` (a bit per field and target), those where some rule still fitting the
        ties of moves ``pair`` and ``pair`` + 1 names the first of them first (with ``second``,
        the second); ``rules``: instead of those still fitting, per rule (I_FIRST ...) the
        fields where it counts (the verdicts are this predictor's: the owner's, for counts
        shared)."""
        fits = self._fits[pair] if rules is None else rules
        # masked by the fields first, so that the rest works on their (often few) bits; the
        # fixed preference first, as it often settles every field (every rule fits after a
        # restart) and the others need the verdicts
        named = fields & fits[NEXT_FIRST if second else I_FIRST]
        entered_fit, last_fit = fields & fits[ENTERED_FIRST], fields & fits[SEEN_LAST]
        if named == fields or not entered_fit | last_fit:
            return named
        entered, last = self._verdicts(pair)
        if second:  # x & ~y as x ^ (x & y), without the negative
            return named | entered_fit ^ (entered_fit & entered) | last_fit ^ (last_fit & last)
        return named | entered_fit & entered | last_fit & last

    def _every_rule(self) -> list[list[int]]:
        """Every tie rule fitting every field, per pair of moves (see reset)."""
        return [[self._per_target.ones] * 4 for _ in range(3)]

    def _track_entries(self, move: Move) -> None:
        """After ``move`` is counted, which move of each pair entered each window first (see
        reset). The last N moves are the new one and the last N - 1 before it: the moves in
        them entered in the order they entered those, then the new move if it is not among
        them (as the counts, a field up), which is in the N up to the rounds since it was
        last played; the whole match's field takes the new move last if it is new."""
        positions = self.positions[move]
        whole_bit = self._whole_bit
        if len(positions) > 1:  # new in the windows that do not count its play before
            fresh = self._fresh[min(positions[-1] - positions[-2], self._fields - 1)]
        else:
            fresh = self._per_window.ones
        windows, up = self._windows, self._per_window.shifted
        (e0, e1, e2), (a0, a1, a2) = self._entered, ABSENT_AHEAD  # per pair
        entered = [
            up(e0, 1) & windows | e0 & whole_bit | a0,
            up(e1, 1) & windows | e1 & whole_bit | a1,
            up(e2, 1) & windows | e2 & whole_bit | a2,
        ]
        entered[move] &= self._per_window.ones ^ fresh  # the new move after the next one
        entered[(move + 2) % 3] |= fresh  # and after the one before it
        self._entered = entered
        self._ahead = [None, None, None]

    def _verdicts(self, pair: int) -> tuple[int, int]:
        """Per field and target, where the rules that enter first and that see last name
        ``pair`` before ``pair`` + 1, from the counts last updated (worked out when first
        asked for). A tie is of moves both counted or both not: where neither is, either
        rule names them in R, P, S order; a move last played k + 1 moves ago is counted in
        the fields from the k-th up (and the whole match's)."""
        verdicts = self._ahead[pair]
        if verdicts is None:
            p0, p1, p2 = self.positions
            last = (p0[-1] if p0 else -1, p1[-1] if p1 else -1, p2[-1] if p2 else -1)
            latest, top = max(last), self._fields - 1
            first, second, absent_ahead = pair, (pair + 1) % 3, ABSENT_AHEAD[pair]
            # seen: where first is seen last, per field and target (the fields counting a
            # move, or not, looked up by how long ago it was last played)
            if last[first] > last[second]:  # first counted wherever second is, and seen later
                if absent_ahead:
                    seen = self._per_target.ones
                else:
                    seen = (
                        self._counted_at[min(latest - last[second], top)]
                        if last[second] >= 0
                        else 0
                    )
            elif absent_ahead:  # second counted wherever first is, and seen later (or neither)
                seen = (
                    self._uncounted_at[min(latest - last[first], top)]
                    if last[first] >= 0
                    else self._per_target.ones
                )
            else:
                seen = 0
            entered = self._entered[pair]
            verdicts = self._ahead[pair] = (self._both_kinds(entered, entered), seen)
        return verdicts

    def _both_kinds(self, most: int, least: int) -> int:
        """Flags (or fields) per window for each target as one per window and target."""
        return least << self._least_shift | most

    def _kinds(self, both: int) -> tuple[int, int]:
        """Flags (or fields) per window and target as MOST's and LEAST's, per window."""
        return both & self._per_window.full, both >> self._least_shift

    def _either_kind(self, both: int) -> int:
        """Flags per window and target as flags per window, set where either target's is."""
        most, least = self._kinds(both)
        return most | least

    def _read_rules(self, hits: int, tied_a: int, tied_b: int, target: Move) -> int:
        """Of the fields ``hits``, those where the beaten move tied another and no best tie
        rule of the field named it first (a hit read wrongly); then every field's rule
        records learn its ties."""
        low_flags = self._per_window.low_flags
        ta, tb = low_flags(tied_a), low_flags(tied_b)
        ta, tb = self._both_kinds(ta, ta) & hits, self._both_kinds(tb, tb) & hits
        misread = (
            self._learn_ties(ta, target, False) if ta else 0
        )  # the beaten move first, theirs second
        if tb:  # the move after theirs first, the beaten move second
            misread |= self._learn_ties(tb, (target + 2) % 3, True)
        return misread

    def _learn_ties(self, fields: int, pair: int, second: bool) -> int:
        """Of ``fields``, where the beaten move (the second of ``pair`` and ``pair`` + 1 with
        ``second``) tied the other, those where no best rule named it first; then the rules
        that named the other move first gain a misfit there, and where every best rule did
        (a misread), all four lose one, so that the least stays 0 (each field has a best rule
        at 0, and only those can be what keeps the least at 0); a field that reaches RULE_CAP
        + 1 overflows into the bit above the cap and is set back to it."""
        row = self.misfits[pair]
        zero = self._per_target.zeros
        # the rules at 0 (the fixed preference for the other move is never asked: left at 0)
        fixed = [0, zero(row[NEXT_FIRST])] if second else [zero(row[I_FIRST]), 0]
        best = fixed + [zero(row[ENTERED_FIRST]), zero(row[SEEN_LAST])]
        wrong = fields ^ self._named_first(fields, pair, second, best)
        entered, seen = self._verdicts(pair)
        if second:  # per rule, where it named the other move, the pair's first, first
            missed = (fields, 0, fields & entered, fields & seen)
        else:  # (x & ~y as x ^ (x & y), without the negative)
            missed = (0, fields, fields ^ (fields & entered), fields ^ (fields & seen))
        overflowed = self._per_target.bit_flags
        for rule in range(4):
            if missed[rule]:
                count = row[rule] + missed[rule] - wrong
                row[rule] = count - overflowed(count, RULE_BITS)
            elif wrong:  # only lowered (where it is above 0: no best rule is where wrong is)
                row[rule] -= wrong
        return wrong


class CountingWindows(WorksInOneHalf):
    """Predict their move as a reaction to the leading (or trailing) moves of one side's
    last N moves, for whichever N from 1 to ``max_window`` (or the whole match) has explained
    their moves best.

    ``source`` is the side whose moves are counted ("mine": an opponent counting our moves);
    the field after ``max_window``'s is the whole match's. Silent until a window has scored
    ``min_score`` hits' worth (about four hits running). ``lead``: how many hits behind the
    best a record may fall; ``split_ties``: credit a hit on a tie by the moves tied;
    ``tie_rules``: credit it where the window's best tie rules name the move beaten (one of
    the two).
    """

    OFFERS = Capabilities(exact=True, new_match=True)

    def __init__(
        self,
        source: str = "mine",
        max_window: int = 64,
        min_score: int = 4,
        half: str = "both",
        lead: int = LEAD,
        split_ties: bool = False,
        tie_rules: bool = False,
    ) -> None:
        self.source = check_source(source)
        if source == "both":
            raise ValueError(f"invalid source {source!r}: a window counts one side's moves")
        self.max_window = check_positive(max_window, "max_window")
        self.min_score = check_positive(min_score, "min_score")
        self.lead = check_positive(lead, "lead")
        if lead > MAX_LEAD:
            raise ValueError(
                f"invalid lead {lead!r}: expected at most {MAX_LEAD} (a record's field would overflow)"
            )
        if not isinstance(split_ties, bool):
            raise ValueError(f"invalid split_ties {split_ties!r}: expected True or False")
        self.split_ties = split_ties
        if not isinstance(tie_rules, bool):
            raise ValueError(f"invalid tie_rules {tie_rules!r}: expected True or False")
        if tie_rules and split_ties:
            raise ValueError(
                f"invalid tie_rules {tie_rules!r} with split_ties: two ways to credit a tie, choose one"
            )
        self.tie_rules = tie_rules
        self._lead = FULL * self.lead  # in credits
        self.name = (
            f"windows{max_window}-{source}"
            + ("" if lead == LEAD else f"-lead{lead}")
            + ("-split" if split_ties else "")
            + ("-rules" if tie_rules else "")
        )
        self.half = check_half(half)
        self._fields = self.max_window + 1  # the windows, then the whole match
        layout = _layout(self.max_window)
        self._per_window, self._per_target = layout.per_window, layout.per_target
        full_score = HIT << DECAY_SHIFT
        self._threshold = int(full_score * (1 - (1 - 2**-DECAY_SHIFT) ** min_score)) - 1
        self.reset()

    def reset(self) -> None:
        # the counts, private (updated here) until the line-up's hub hands over its own
        self._counted = WindowCounts(self.source, "their", self.max_window)
        self._private = True
        self._reports_exact = True  # whether this reader offers the feature's exact model
        if self.tie_rules:
            self._counted.read_rules()
        # hits per window and target (MOST's fields, then LEAST's), less the best's minus the lead
        # and never below 0: the best record holds the lead once some window has scored that many
        self._records = 0
        self._top = 0  # the best record (the followed window's)
        self._decayed_choice = False  # whether the decayed score chooses (see new_match)
        self._best = (MOST, 0)  # the target and window with the best record
        self._ties = TieContexts()  # which tied move the opponent targets, per tie context
        self._prediction: Move | None = None
        self._idle = False  # set by join() in the half this predictor does not work in

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CountingWindows) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def new_match(self) -> None:
        """A new match, maybe against another opponent (see :mod:`.carried`): from here on
        the window followed is the best decayed score's, rescanned when it misses, since a
        lead in the records earned against the last opponent would hold for six hits; the
        counts, the tie contexts and the decayed scores are kept, and so are the windows every
        move has hit (the feature's exact model). Their tests count on if they have fitted every move since ``reset`` (as
        far as we can tell, one opponent all along); if they were found after every window
        had missed (the opponent has changed before), their tests start over: else a model of
        the last opponent would be followed outright in the first rounds against the next (in
        the fCC harness, quincy after kris, whose first moves fit it by chance)."""
        self._decayed_choice = True
        if self._reports_exact:
            self._counted.new_match()

    def join(self, features: Features, mirrored: bool) -> None:
        """Idle in the half this predictor does not work in; in the other, read the hub's
        counts of the real side this half counts, scored against the other's moves (once a
        mirrored twin's swapped arguments are undone), asking for the tie rules' records with
        ``tie_rules``. The first reader of the counts offers their exact model (the others
        say None, so that the ensemble asks one of them). A fresh predictor only."""
        super().join(features, mirrored)
        if self._idle:
            return
        if self._counted.seen:
            raise ValueError(f"cannot join {self.name!r} to a hub mid-match: reset it first")
        counted = WindowCounts(
            real_side(self.source, mirrored), "mine" if mirrored else "their", self.max_window
        )
        held = features.get(counted)
        self._counted, self._private, self._reports_exact = held, False, held is counted
        if self.tie_rules:
            held.read_rules()

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle:
            return None
        counted = self._counted
        if self._private:
            counted.update(my_move, their_move)
        compared = counted.compared
        if compared is not None:  # (None in the first round)
            hits, tied_a, tied_b, misread = compared
            if self._decayed_choice:
                kind, window = self._best
                if not self._per_target.field(hits, kind * self._fields + window):
                    self._best = self._rescan()  # a window that hits stays ahead of every other
            elif self.tie_rules:
                self._best = self._follow(FULL * (hits ^ misread))
            elif self.split_ties:
                # a hit's credit is FULL divided among the moves tied with the one beaten (6, 3
                # or 2), so that a random move earns 2 in expectation whatever the window's
                # counts: a window whose counts all tie would otherwise hit every round;
                # 6 - 3 (some tie) - 1 (both tie), per window, masked to the fields hit
                per_window = self._per_window
                credit = (
                    per_window.spread(FULL)
                    - 3 * per_window.low_flags(tied_a | tied_b)
                    - per_window.low_flags(tied_a & tied_b)
                )
                credits = counted._both_kinds(credit, credit)
                self._best = self._follow(credits & self._per_target.filled(hits))
            else:
                self._best = self._follow(FULL * hits)
            self._ties.learn((their_move - 1) % 3)
        self._prediction = self._predict()
        return self._prediction

    @property
    def exact(self) -> Callable[[], tuple[Move, int] | None] | None:
        """The feature's exact model (see :meth:`WindowCounts.exact`), or None for a reader
        that is not the first of its counts (the first says the same), so that the ensemble
        asks one of them."""
        return self._exact if self._reports_exact else None

    def _exact(self) -> tuple[Move, int] | None:
        return None if self._idle else self._counted.exact()

    def predict(self) -> Move | None:
        return self._prediction

    def _follow(self, hits: int) -> tuple[int, int]:
        """Count ``hits`` (a credit per window and target) into the records, keep them within
        the lead of the best, and return the target and window to follow: the current one while
        its record is the best, else the first best (MOST's before LEAST's, the smallest
        window first)."""
        n = self._fields
        kind, window = self._best
        per_target = self._per_target
        records, at = self._records + hits, kind * n + window  # the best's field
        if per_target.field(hits, at) == FULL:
            # the best record hit a move alone in the lead: it is still the best, FULL more
            # than before (no need to look at the others)
            top = self._top + FULL
            if top > self._lead:
                records = per_target.lowered(records, top - self._lead)
                top = self._lead
            self._records, self._top = records, top
            return self._best
        # the followed record usually still leads: check it against every field at once
        # before unpacking them all
        top = per_target.field(records, at)
        if per_target.leads(top, records):
            best = self._best
        else:
            fields = per_target.unpack(records)
            top = max(fields)
            best = divmod(fields.index(top), n)
        if top > self._lead:
            records = per_target.lowered(records, top - self._lead)
        self._records, self._top = records, min(top, self._lead)
        return best

    def _rescan(self) -> tuple[int, int]:
        """The best decayed score's target and window (the first, smallest window on ties)."""
        return divmod(self._per_target.argmax(self._counted.scores), self._fields)

    def _predict(self) -> Move | None:
        best_kind, best_window = self._best
        counted = self._counted
        at = best_window + best_kind * self._fields
        if self._per_target.field(self._counted.scores, at) < self._threshold:
            return None
        field = self._per_window.field
        c0, c1, c2 = counts = (
            field(counted.counts[0], best_window),
            field(counted.counts[1], best_window),
            field(counted.counts[2], best_window),
        )
        extreme = max(counts) if best_kind == MOST else min(counts)
        mask = (c0 == extreme) | (c1 == extreme) << 1 | (c2 == extreme) << 2
        tied = TIED[mask]
        if len(tied) == 1:
            return (tied[0] + 1) % 3
        # a tie: read it by the order the moves present entered the window, and the last seen,
        # backing off to the order of the tied moves alone, then to the tied moves; a move's
        # first position in the window is its count-th latest (its positions keep at least
        # ``max_window`` of its latest); -1 for a move absent (see entry_code)
        positions = counted.positions
        p0, p1, p2 = positions
        present: Sequence[int]
        if best_window < self.max_window:
            a0, a1, a2 = p0[-c0] if c0 else -1, p1[-c1] if c1 else -1, p2[-c2] if c2 else -1
            present = counts
        else:  # the whole match: the moves ever played, by their first position
            present = counted.whole
            a0, a1, a2 = (-1 if first is None else first for first in counted.first)
        last, latest = tied[0], -1  # the tied move seen last (the first, if none is present)
        for m in tied:
            if present[m] and positions[m][-1] > latest:
                last, latest = m, positions[m][-1]
        # (the tie contexts read every tie, so that they learn on where the tie rules decide)
        read = self._ties.read(entry_code(a0, a1, a2), mask, last, best_kind, tied[0])
        if self.tie_rules:
            by_rules = self._rule_read(at, mask)
            if by_rules is not None:
                read = by_rules
        return (read + 1) % 3

    def _rule_pick(self, pair: int, at: int) -> Move | None:
        """The move of ``pair`` and ``pair`` + 1 that the best tie rules of field ``at`` (a
        window and target) all name first, if they agree (None otherwise)."""
        per_target = self._per_target
        bit = per_target.placed(1, at)
        best = [0 if per_target.field(count, at) else bit for count in self._counted.misfits[pair]]
        counts = self._counted  # the verdicts of the counts just updated
        first, second = (
            counts._named_first(bit, pair, False, best),
            counts._named_first(bit, pair, True, best),
        )
        if first and not second:
            return pair
        return (pair + 1) % 3 if second and not first else None

    def _rule_read(self, at: int, mask: int) -> Move | None:
        """The tied move (``mask``: a bit per tied move) that the best tie rules of field
        ``at`` name first in each pair, if they decide it (None otherwise)."""
        picks: dict[int, Move] = {}
        for pair in range(3):
            if (mask >> pair) & 1 and (mask >> ((pair + 1) % 3)) & 1:
                pick = self._rule_pick(pair, at)
                if pick is None:
                    return None
                picks[pair] = pick
        for m in TIED[mask]:
            if all(pick == m for pair, pick in picks.items() if m in (pair, (pair + 1) % 3)):
                return m
        return None
