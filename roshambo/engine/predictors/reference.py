"""The predictors' specifications: plain, slow rescans of the whole history.

Each function here says what one predictor family predicts after a list of rounds, written
from its docstring, by recounting everything every time (no packed fields, no index, no
decayed tables kept between rounds). The fast predictors are checked against these by
tests/test_predictors.py on random and structured rounds; read one to know exactly what its
predictor computes. ``reference_for`` maps a configured predictor to its specification.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

from ..moves import Move, outcome
from . import (
    BlendedContexts,
    FrequencyCounter,
    HistoryMatcher,
    LaggedRolls,
    MarkovChain,
    OutcomeRollTable,
    Predictor,
    SharpestContext,
    TieReadingFrequency,
)
from .decayed import SCORE_KEEP, DecayedContexts
from .meta import MetaOfAgents

Round = tuple[Move, Move]  # (my_move, their_move)


def symbol(source: str, mine: Move, theirs: Move) -> int:
    return {"their": theirs, "mine": mine, "both": 3 * mine + theirs}[source]


def argmax_first(counts: Sequence[float] | Sequence[Fraction]) -> Move | None:
    """The largest count, the first of R, P, S on ties; None when all are zero."""
    if not any(counts):
        return None
    top = max(counts)
    return next(m for m in range(3) if counts[m] == top)


def frequency_reference(
    rounds: Sequence[Round], window: int | None, least: bool = False, min_count: int = 1
) -> Move | None:
    """The most (or, for ``least``, the least) counted of their moves, first on ties; nothing
    before ``min_count`` moves."""
    if len(rounds) < min_count:
        return None
    theirs = [t for _, t in rounds]
    seen = theirs if window is None else theirs[-window:]
    if not least:
        return argmax_first([seen.count(m) for m in range(3)])
    if not rounds:
        return None
    counts = [seen.count(m) for m in range(3)]
    return counts.index(min(counts))


def tie_reading_reference(
    rounds: Sequence[Round],
    window: int | None,
    least: bool = False,
    min_count: int = 1,
    mirrored: bool = False,
) -> Move | None:
    """The window's most (least) counted move; on a tie, the tied move the reply pointed to
    the last time the same tie context came up (their move, or in the mirrored half the move
    our move beat), the finest context first: the order every move present first appears in
    the window with the tied move seen last; the order of the tied moves; the tied moves.
    Over the whole match (``window`` None), the tied move the replies there pointed to most
    often, the later among equals."""
    learned: dict[tuple[object, ...], list[Move]] = {}  # a context's replies, in order
    pending: tuple[tuple[tuple[object, ...], ...], tuple[Move, ...]] | None = None
    answer: Move | None = None
    for n in range(len(rounds) + 1):
        if pending is not None:
            mine, theirs = rounds[n - 1]
            pointed = (mine - 1) % 3 if mirrored else theirs
            if pointed in pending[1]:
                for key in pending[0]:
                    learned.setdefault(key, []).append(pointed)
            pending = None
        answer = frequency_reference(rounds[:n], window, least, min_count)
        if answer is None:
            continue
        seen = [t for _, t in rounds[:n]][-window if window is not None else 0 :]
        counts = [seen.count(m) for m in range(3)]
        tied = tuple(m for m in range(3) if counts[m] == counts[answer])
        if len(tied) == 1:
            continue
        present = sorted((m for m in range(3) if counts[m]), key=seen.index)
        latest = {
            m: max(i for i, t in enumerate(seen) if t == m) if counts[m] else -1 for m in tied
        }
        last = max(tied, key=lambda m: latest[m])
        keys: tuple[tuple[object, ...], ...] = (
            ("fine", tuple(present), last, least, tied),
            ("middle", tuple(m for m in present if m in tied), least, tied),
            ("coarse", least, tied),
        )
        pending = (keys, tied)
        replies = next((learned[k] for k in keys if k in learned), None)
        if replies is not None:
            answer = (
                replies[-1]
                if window is not None
                else max(
                    replies, key=lambda m: (replies.count(m), len(replies) - replies[::-1].index(m))
                )
            )
    return answer


def markov_reference(
    rounds: Sequence[Round], seq_len: int, num_records: int | None, source: str, least: bool = False
) -> Move | None:
    context_len = seq_len - 1
    symbols = [symbol(source, m, t) for m, t in rounds]
    theirs = [t for _, t in rounds]
    n = len(rounds)
    if n < context_len:
        return None
    records = [(tuple(symbols[i - context_len : i]), theirs[i]) for i in range(context_len, n)]
    if num_records is not None:
        records = records[-num_records:]
    context = tuple(symbols[n - context_len :])
    counts = [sum(1 for c, t in records if c == context and t == m) for m in range(3)]
    if least:
        return None if not any(counts) else argmax_first([-count for count in counts])
    return argmax_first(counts)


def history_reference(
    rounds: Sequence[Round], source: str, max_len: int, window: int | None
) -> Move | None:
    """The docstring's index, with tuples for keys: the latest occurrence of each indexed
    context; a context is indexed one symbol longer only when its shorter form recurs; with a
    window, a context last seen before the window counts as never seen."""
    found = history_position(rounds, source, max_len, window)
    return None if found is None else rounds[found][1]


def history_position(
    rounds: Sequence[Round], source: str, max_len: int, window: int | None
) -> int | None:
    """Where the round that followed the latest longest match is, by the index above."""
    symbols = [symbol(source, m, t) for m, t in rounds]
    latest: dict[tuple[int, ...], int] = {}
    found = None
    for end in range(1, len(symbols) + 1):
        found = None
        for length in range(1, min(max_len, end) + 1):
            context = tuple(symbols[end - length : end])
            position = latest.get(context)
            latest[context] = end
            if position is None or (window is not None and position < end - window):
                break
            found = position
    return found


@functools.lru_cache(maxsize=4096)
def meta_expected(rounds: tuple[Round, ...], max_order: int, memory: int) -> list[Move | None]:
    """What each agent of :func:`meta_reference` expects of our next move after ``rounds``
    (cached: the test asks again for every longer prefix)."""
    t = len(rounds)

    def decayed(moves: Sequence[Move], m: int) -> list[int]:
        weights = [0, 0, 0]
        for j, move in enumerate(moves, 1):  # move j of N weighs (m - 1) ** (N - j) * m ** j
            weights = [w * (m - 1) for w in weights]
            weights[move] += m**j
        return weights

    views: list[list[object]] = [[r[1] for r in rounds], [r[0] for r in rounds], list(rounds)]
    sides: list[list[Move | None]] = [[], []]
    for side in range(2):
        sides[side].append(argmax_first(decayed([r[side] for r in rounds], memory)))
    for k in range(1, max_order + 1):
        for view in views:
            followed = (
                [rounds[i] for i in range(k, t) if view[i - k : i] == view[t - k : t]]
                if t >= k
                else []
            )
            for side in range(2):
                sides[side].append(argmax_first(decayed([r[side] for r in followed], memory)))
    found = history_position(rounds, "both", 12, 1000)
    for side in range(2):
        sides[side].append(None if found is None else rounds[found][side])
    return sides[0] + [None if q is None else (q + 1) % 3 for q in sides[1]]


def meta_reference(
    rounds: Sequence[Round], max_order: int, memory: int, score_memory: int, min_score: int
) -> Move | None:
    """Recount from scratch, exactly (integers: a weight keep ** age, keep = (m - 1) / m, is
    (m - 1) ** age * m ** (rounds - age) over a common m ** rounds). After t rounds the agents
    expect, ours first: our most frequent move (each round's weight keep ** age), per order k
    and view (theirs, ours, pairs) our most counted move after the last k symbols (at each
    recurrence of the context the older counts times keep), None where nothing followed it or
    t < k; our move after the history matcher's match; then the same of their moves, each
    plus one (we would beat it). Every round i, an arm k of an agent expecting e played e + 1
    + k, +1 where it beat our move, -1 where it lost, weighted keep ** age at the score
    memory. The best arm of an agent that speaks (the first on ties) predicts, if positive
    and at least 0.999 times what min_score wins running, decayed since, would score."""
    n = len(rounds)
    if n == 0:
        return None
    rounds = tuple(rounds)
    agents = 2 * (2 + 3 * max_order)
    scores = [0] * (3 * agents)
    for i in range(1, n):
        expected = meta_expected(rounds[:i], max_order, memory)
        for a, e in enumerate(expected):
            if e is not None:
                for k in range(3):
                    result = outcome(e + 1 + k, rounds[i][0])  # +1 where the arm's move wins
                    scores[3 * a + k] += (
                        result * (score_memory - 1) ** (n - 1 - i) * score_memory**i
                    )
    expected = meta_expected(rounds, max_order, memory)
    speaking = [arm for arm in range(3 * agents) if expected[arm // 3] is not None]
    best = max(speaking, key=lambda arm: (scores[arm], -arm))
    bar = Fraction(999, 1000) * sum(
        Fraction(score_memory - 1, score_memory) ** i for i in range(min_score)
    )
    if scores[best] <= 0 or Fraction(scores[best], score_memory ** (n - 1)) < bar:
        return None
    return (expected[best // 3] + 1 + best % 3) % 3  # type: ignore[operator]


def latest_occurrence(symbols: Sequence[int], length: int) -> int | None:
    """Rescan: the end of the latest earlier occurrence of the last ``length`` symbols."""
    end = len(symbols)
    context = list(symbols[end - length :])
    return next(
        (e for e in range(end - 1, length - 1, -1) if list(symbols[e - length : e]) == context),
        None,
    )


def outcome_roll_reference(
    rounds: Sequence[Round], reference: str, decay: Fraction, by_result: bool = True
) -> Move | None:
    """Exact weights: the roll seen after round i counts decay ** (age in rounds).

    Unconditioned (``by_result=False``) every roll goes to one row, whatever the result.
    """
    n = len(rounds)
    if n == 0:
        return None
    table = [[Fraction(0)] * 3 for _ in range(3)]
    for i in range(1, n):
        (m0, t0), (_, t1) = rounds[i - 1], rounds[i]
        result = outcome(t0, m0) + 1 if by_result else 0
        base = t0 if reference == "their" else m0
        table[result][(t1 - base) % 3] += decay ** (n - 1 - i)
    m, t = rounds[-1]
    roll = argmax_first(table[outcome(t, m) + 1 if by_result else 0])
    return None if roll is None else ((t if reference == "their" else m) + roll) % 3


def lagged_rolls_reference(
    rounds: Sequence[Round], reference: str, max_lag: int, decay: Fraction, min_hits: int
) -> Move | None:
    """Exact weights: cell (k, r) gains decay ** (age of round i) for every round i whose
    opponent move is the reference move of round i - k turned by r; the largest cell, the
    smallest lag and roll on ties, speaks once it holds min_hits straight hits' worth."""
    n = len(rounds)
    side = [m if reference == "mine" else t for m, t in rounds]
    cells = [Fraction(0)] * (3 * max_lag)
    for i in range(n):
        for k in range(1, min(max_lag, i) + 1):
            cells[3 * (k - 1) + (rounds[i][1] - side[i - k]) % 3] += decay ** (n - 1 - i)
    top = max(cells)
    bar = sum(decay**i for i in range(min_hits)) * Fraction(999, 1000)
    if top == 0 or top < bar:
        return None
    lag, roll = divmod(cells.index(top), 3)
    return (side[n - 1 - lag] + roll) % 3


_EXPECTED: dict[tuple[object, ...], list[Move | None]] = {}


def decayed_contexts_reference(
    rounds: Sequence[Round],
    order_memories: tuple[tuple[int | None, ...], ...],
    min_score: int,
    deep: int = 0,
    deep_memories: tuple[int | None, ...] = (),
) -> Move | None:
    """Recount from scratch, exactly. The pairs are each order's memories (``order_memories``,
    the lowest order first). A pair (order k, memory m) expects, after n rounds, the
    most counted (first of R, P, S on ties; R if never seen) of their moves that followed
    their last k moves, each context's older counts times 1 - 1/m at each recurrence. Every
    round i it had an expectation e for scores its turn (my_move - e - 1) mod 3 with weight
    keep ** (age of round i); the largest (pair, turn), the first on ties, once it holds
    min_score straight replies' worth, predicts e + turn.

    The deep orders, above the last of ``order_memories`` up to ``deep``, pair with each
    of ``deep_memories`` and are scored once more than that many moves are known: a pair
    expects what a row of the orders above does (R where the context was never seen, or
    fewer than k moves are known)."""
    theirs = [t for _, t in rounds]
    decays = [
        [Fraction(1) if m is None else 1 - Fraction(1, m) for m in memories]
        for memories in order_memories
    ]
    deep_decays = [Fraction(1) if m is None else 1 - Fraction(1, m) for m in deep_memories]
    keep = Fraction(SCORE_KEEP)

    def expected_after(n: int) -> list[Move | None]:
        # a pure function of their first n moves: recounted once per prefix and remembered,
        # since the agreement tests ask for every prefix of one script (O(n^4) otherwise)
        key = (order_memories, deep, deep_memories, tuple(theirs[:n]))
        if key not in _EXPECTED:
            _EXPECTED[key] = recount(n)
        return _EXPECTED[key]

    def recount(n: int) -> list[Move | None]:
        out: list[Move | None] = []
        for k, order_decays in enumerate(decays, 1):
            for decay in order_decays:
                if n < k:
                    out.append(None)
                    continue
                row = [Fraction(0)] * 3
                for i in range(k, n):
                    if theirs[i - k : i] == theirs[n - k : n]:
                        row = [c * decay for c in row]
                        row[theirs[i]] += 1
                out.append(argmax_first(row) or 0)
        low = len(order_memories)
        for k in range(low + 1, deep + 1):
            for decay in deep_decays:
                if n <= low:
                    out.append(None)
                    continue
                followers = (
                    [theirs[i] for i in range(k, n) if theirs[i - k : i] == theirs[n - k : n]]
                    if n >= k
                    else []
                )
                row = [Fraction(0)] * 3
                for move in followers:
                    row = [c * decay for c in row]
                    row[move] += 1
                out.append(argmax_first(row) or 0)
        return out

    n = len(rounds)
    scores = [Fraction(0)] * (
        3 * (sum(map(len, decays)) + len(deep_decays) * max(0, deep - len(decays)))
    )
    for i in range(n):
        for pair, e in enumerate(expected_after(i)):
            if e is not None:
                scores[3 * pair + (rounds[i][0] - e - 1) % 3] += keep ** (n - 1 - i)
    top = max(scores)
    bar = sum(keep**i for i in range(min_score)) * Fraction(999, 1000)
    if top == 0 or top < bar:
        return None
    pair, turn = divmod(scores.index(top), 3)
    e = expected_after(n)[pair]
    return None if e is None else (e + turn) % 3


def sharpest_reference(rounds: Sequence[Round], decay: Fraction) -> Move | None:
    """Exact weights: their move in round i counts decay ** (age in rounds) after each of
    four views of round i - 1; the view with the largest top share wins, the first of
    (theirs, ours), theirs, ours, none on ties; its top move, the first on ties."""
    n = len(rounds)
    if n == 0:
        return None

    def views(mine: Move, theirs: Move) -> list[tuple[Move | None, Move | None]]:
        return [(theirs, mine), (theirs, None), (None, mine), (None, None)]

    counts: dict[tuple[Move | None, Move | None], list[Fraction]] = {}
    for i in range(1, n):
        for view in views(*rounds[i - 1]):
            counts.setdefault(view, [Fraction(0)] * 3)[rounds[i][1]] += decay ** (n - 1 - i)
    best = None
    for view in views(*rounds[-1]):
        row = counts.get(view)
        if row and (best is None or max(row) / sum(row) > max(best) / sum(best)):
            best = row
    return None if best is None else argmax_first(best)


def blend_reference(rounds: Sequence[Round], max_order: int, source: str) -> Move | None:
    """For every order L up to max_order, the counts of their moves after each earlier
    occurrence of the last L symbols, weighted by their own total; the top of the sum."""
    symbols = [symbol(source, m, t) for m, t in rounds]
    theirs = [t for _, t in rounds]
    n = len(rounds)
    blend = [0, 0, 0]
    for length in range(1, min(max_order, n) + 1):
        context = symbols[n - length :]
        counts = [0, 0, 0]
        for i in range(length, n):
            if symbols[i - length : i] == context:
                counts[theirs[i]] += 1
        blend = [b + sum(counts) * c for b, c in zip(blend, counts)]
    return argmax_first(blend)


def reference_for(predictor: Predictor) -> Callable[[Sequence[Round]], Move | None] | None:
    if isinstance(predictor, TieReadingFrequency):
        return lambda rounds: tie_reading_reference(
            rounds, predictor.window, predictor.least, predictor.min_count, predictor._mirrored
        )
    if isinstance(predictor, FrequencyCounter):
        least = getattr(predictor, "least", False)
        return lambda rounds: frequency_reference(
            rounds, predictor.window, least, predictor.min_count
        )
    if isinstance(predictor, MarkovChain):
        return lambda rounds: markov_reference(
            rounds, predictor.seq_len, predictor.num_records, predictor.source, predictor.least
        )
    if isinstance(predictor, HistoryMatcher):
        return lambda rounds: history_reference(
            rounds, predictor.source, predictor.max_len, predictor.window
        )
    if isinstance(predictor, OutcomeRollTable):
        decay = Fraction(predictor.decay).limit_denominator(1000)
        return lambda rounds: outcome_roll_reference(
            rounds, predictor.reference, decay, predictor.by_result
        )
    if isinstance(predictor, LaggedRolls):
        decay = Fraction(predictor.decay).limit_denominator(1000)
        return lambda rounds: lagged_rolls_reference(
            rounds, predictor.reference, predictor.max_lag, decay, int(predictor.min_hits)
        )
    if isinstance(predictor, DecayedContexts):
        return lambda rounds: decayed_contexts_reference(
            rounds,
            predictor.order_memories,
            predictor.min_score,
            predictor.deep,
            predictor.deep_memories,
        )
    if isinstance(predictor, BlendedContexts):
        return lambda rounds: blend_reference(rounds, predictor.max_order, predictor.source)
    if isinstance(predictor, MetaOfAgents):
        return lambda rounds: meta_reference(
            rounds,
            predictor.max_order,
            predictor.memory,
            predictor.score_memory,
            predictor.min_score,
        )
    if isinstance(predictor, SharpestContext):
        decay = Fraction(predictor.decay).limit_denominator(1000)
        return lambda rounds: sharpest_reference(rounds, decay)
    return None


def windows_exact_by_rescan(
    ours: Sequence[Move], theirs: Sequence[Move], max_window: int
) -> tuple[Move, int] | None:
    """What ``CountingWindows.exact`` should say after these rounds, found by rescanning them:
    the windows (1 to ``max_window``, and the whole match) and targets (most, least) that
    every scored move since the last round none was left has hit (beaten a move leading, or
    trailing, that window's counts of ``ours`` before it, ties included), and for each, per
    pair of moves, the tie rules (a fixed preference for either, the one that entered the
    window first, the one seen last; where neither is in the window, R, P, S order) that
    named the move beaten first at every tie of the pair since then; the move m among every
    such field's leaders (trailers) that some field names (its single leader, or at a tie
    the move every fitting rule of each tied pair names first) and none names another move
    before; and how many moves so forced were played since the last forced move that was
    not, less floor(log9(1 + r)) after r rounds where no field was left."""
    windows = list(range(1, max_window + 1)) + [None]
    rules = ("x", "y", "entered", "last")

    def seen(w: int | None, t: int) -> Sequence[Move]:
        return ours[:t] if w is None else ours[max(0, t - w) : t]

    def tied_of(w: int | None, most: bool, t: int) -> list[Move]:
        c = [seen(w, t).count(m) for m in range(3)]
        extreme = max(c) if most else min(c)
        return [m for m in range(3) if c[m] == extreme]

    def named(rule: str, x: Move, y: Move, w: int | None, t: int) -> Move:
        """Which of x, y (tied, x < y) the rule names first in window w at round t."""
        moves = list(seen(w, t))
        if rule in ("x", "y"):
            return x if rule == "x" else y
        if x not in moves:  # neither is: R, P, S order
            return x
        if rule == "entered":
            return min((x, y), key=moves.index)
        return max((x, y), key=lambda m: len(moves) - moves[::-1].index(m))

    def every_field() -> dict[tuple[int | None, bool], dict[tuple[Move, Move], set[str]]]:
        return {
            (w, most): {(x, y): set(rules) for x, y in itertools.combinations(range(3), 2)}
            for w in windows
            for most in (True, False)
        }

    fitting = every_field()

    def forced(t: int) -> Move | None:
        fields = [(tied_of(w, most, t), w, pairs) for (w, most), pairs in fitting.items()]
        for m in range(3):
            if any(m not in tied for tied, _, _ in fields):
                continue
            names = vetoed = False
            for tied, w, pairs in fields:
                firsts = []
                for y in tied:
                    if y != m:
                        pair = (min(m, y), max(m, y))
                        firsts.append({named(rule, *pair, w, t) for rule in pairs[pair]})
                vetoed |= any(first - {m} for first in firsts)
                names |= all(first == {m} for first in firsts)
            if names and not vetoed:
                return (m + 1) % 3
        return None

    tests = restarts = 0
    for i in range(1, len(ours)):
        said = forced(i)
        if said is not None:
            tests = tests + 1 if said == theirs[i] else 0
        target = (theirs[i] - 1) % 3
        for (w, most), pairs in list(fitting.items()):
            tied = tied_of(w, most, i)
            if target not in tied:
                del fitting[w, most]
                continue
            for y in tied:
                if y != target:
                    pair = (min(target, y), max(target, y))
                    pairs[pair] = {r for r in pairs[pair] if named(r, *pair, w, i) == target}
        if not fitting:
            fitting, tests = every_field(), 0
            restarts += 1
    move = forced(len(ours))
    handicap = 0
    while 9 ** (handicap + 1) <= 1 + restarts:
        handicap += 1
    return None if move is None else (move, tests - handicap)
