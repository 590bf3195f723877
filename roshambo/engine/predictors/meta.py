"""A meta-player: an opponent that plays the best of many simple agents' answers to us.

The strongest bots of the Kaggle RPS competition (2020-21) and many rpscontest entries are
ensembles of simple agents, each predicting our next move (our move frequencies, Markov
chains over our moves, theirs or both, the longest history match) or their own (so that we
would play what beats it), and each giving three arms: the move that beats the prediction
and its two rotations (Egnor 1999's second guesses). They score every arm on the rounds
played, forgetting, and play the best one (greedily, or by Thompson sampling from the
scores; at random when none is winning). Every arm's record is computed from the public
history, so this predictor keeps the same kind of scoreboard, from the opponent's side, and
predicts the move of the arm that leads it. Our own predictors' mirrored halves model each
agent alone, and the meta levels need several rounds to see which of them an opponent
follows now; here the switch between agents is read off the opponent's scores the moment
it happens.

The agents, per side (ours, and theirs as they would predict themselves): the side's move
frequencies; the continuation counts after the last 1 to ``max_order`` moves of theirs, of
ours, and of both as pairs; and what followed the longest earlier match of the recent pairs
(Iocaine Powder's history matching). Counts forget as their context recurs (the
frequencies' empty context recurs every round) with a memory of ``memory`` recurrences,
arm scores as rounds pass with one of ``score_memory`` rounds. A meta-player must forget
fast to follow an opponent that changes, so both sit at the short end of a doubling grid:
screened against the two modern bots (counts over 8, 16 or the whole match, scores over 16
or 32), 8 and 16 named their moves most often, and against meta-players of other memories
(5 to 40) half of their moves or more are still named, though ours are random
(docs/experiments.md, tests). An arm scores +1 where its move would have beaten ours, -1
where it would have lost. Ties go to the first agent (ours before theirs; frequencies, then
each order's views, then the match) and the first rotation. A meta-player that uses only
some of these agents is read less well: the model takes the best arm of all of them. A
round costs one pass over the agents, however long the match.
"""

from __future__ import annotations

import math
from typing import Any

from ..moves import Move
from .base import RESCALE_AT, WorksInOneHalf, check_half, check_positive, fold_weight
from .features import Features
from .history import ContextIndex

MATCH_LENGTH = 12  # the history matcher's longest context, as the line-up's own
MATCH_WINDOW = 1000  # and how far back it looks, so that an ensemble's index is shared
VIEWS = 3  # contexts of their moves, ours, and both as pairs
NEXT = (1, 2, 0)  # the move that beats each move


class MetaOfAgents(WorksInOneHalf):
    """Predict their move as the move of the best-scoring arm of simple agents predicting
    our moves (or theirs, answered), scored from their side. Silent while the best arm's
    score is below ``min_score`` wins running (decayed; and while it is not positive): a
    meta-player with nothing winning plays at random, and in the opening one arm of dozens
    leads by chance."""

    def __init__(
        self,
        max_order: int = 3,
        memory: int = 8,
        score_memory: int = 16,
        min_score: int = 2,
        half: str = "direct",
    ) -> None:
        self.max_order = check_positive(max_order, "max_order")
        for value, what in ((memory, "memory"), (score_memory, "score_memory")):
            if type(value) is not int or value < 2:
                raise ValueError(f"invalid {what} {value!r}: expected an integer of at least 2")
        if type(min_score) is not int or min_score < 0:
            raise ValueError(f"invalid min_score {min_score!r}: expected a non-negative integer")
        self.memory, self.score_memory, self.min_score = memory, score_memory, min_score
        self.half = check_half(half)
        self.name = f"meta-agents{max_order}" + (
            "" if (memory, score_memory) == (8, 16) else f"@{memory}-{score_memory}"
        )
        self._score_keep = 1.0 - 1.0 / score_memory
        # rows fold their scale back in after this many recurrences: where keep ** -n would
        # pass 1e100
        self._keep = keep = 1.0 - 1.0 / memory
        self._limit = min(4096, int(100 * math.log(10) / -math.log(keep)))
        self._modulus = 10**max_order  # a view's last max_order symbols, base-10 digits 1..9
        self._moduli = tuple(10**order for order in range(1, max_order + 1))
        # agents per side: frequencies, VIEWS * max_order chains, the match
        self._per_side = 2 + VIEWS * max_order
        # _gaps[k]: the silent chains of each side while only orders up to k have been reached
        self._gaps = tuple((None,) * (VIEWS * (max_order - k)) for k in range(max_order + 1))
        # _hits[my][3 a + x]: the arms of agent a, expecting x, that beat our move my and that
        # lose to it (arm 3 a + k plays x + 1 + k: k = my - x wins, k = my - x + 1 loses)
        arms = 3 * 2 * self._per_side
        self._theirs_first = 3 * self._per_side  # the first arm of their side's agents
        self._match_arm = 3 * (self._per_side - 1)  # and of the matcher's, ours
        self._theirs_match_arm = 3 * (2 * self._per_side - 1)  # and theirs
        # _sources[a]: where agent a's expectation is read: a row of the current contexts (the
        # order's views in turn) and its cell, or (None, i) for entry i of _others
        chains = VIEWS * max_order
        self._sources = (
            (None, 0),
            *((i, 9) for i in range(chains)),
            (None, 1),
            (None, 2),
            *((i, 10) for i in range(chains)),
            (None, 3),
        )
        self._hits = tuple(
            tuple(
                (arm - arm % 3 + (my - arm) % 3, arm - arm % 3 + (my - arm + 1) % 3)
                for arm in range(arms)
            )
            for my in range(3)
        )
        # a best arm that has won min_score rounds running, decayed since: the score it needs
        # today, in units of this round's weight
        self._bar = sum(self._score_keep**i for i in range(min_score)) * 0.999
        self.reset()

    def reset(self) -> None:
        # context key -> the decayed counts of the move that followed it, ours (cells 0-2) and
        # theirs (3-5), kept scaled by keep ** -n after n recurrences (cell 6: n), so that a
        # recurrence adds one weight to two cells instead of shrinking six; then the most
        # counted move of each side (cells 7, 8: only the cells a recurrence adds to can take
        # the lead; None until one has); then what the context's two agents expect of our
        # next move as the arm 3 a + x (cells 9, 10: None until counted), and their first
        # arms 3 a (11, 12). A key is the context's digits (1-based, so orders never collide)
        # times 4 plus the view.
        self._rows: dict[int, list[Any]] = {}
        # the last max_order pairs, which name every view's contexts: its rows, every order's
        # views (the lower orders' first), looked up once per pair context ever seen
        self._context = 0
        self._row_sets: dict[int, tuple[list[Any], ...]] = {}
        self._current: tuple[
            list[Any], ...
        ] = ()  # the rows of the current contexts, learnt next round
        # _powers[n]: keep ** -n for the counts, grown as the rows' recurrences reach n (below
        # _limit): a match of a thousand moves needs a few hundred of the thousand or more
        self._powers = [1.0]
        # the move frequencies, ours then theirs, kept scaled by keep ** -rounds (the empty
        # context recurs every round), and each side's most frequent move
        self._frequencies = [0.0] * 6
        self._count_weight = 1.0
        self._leaders = [0, 0]
        self._weight = 1.0  # score_keep ** -rounds: a round adds one weight instead of decaying all
        agents = 2 * self._per_side
        self._scores = [0.0] * (3 * agents)  # arm 3 a + k, scaled by _weight
        # our move x each agent expects, as its arm 3 a + x (None: silent), so that its arms are
        # scored with one look-up: the chains' in the current rows (cells 9, 10), the others'
        # here (frequencies and matcher, ours, then theirs), as of the last round
        self._others: list[int | None] = [None] * 4
        self._mine = bytearray()
        self._theirs = bytearray()
        # the pair index, private (updated here) until the line-up's hub hands over its own
        self._matches = ContextIndex("both", MATCH_LENGTH, MATCH_WINDOW)
        self._private = True
        self._prediction: Move | None = None
        self._idle = False  # set by join() in the half this predictor does not work in

    def join(self, features: Features, mirrored: bool) -> None:
        """Idle in the half this predictor does not work in; in the other, read the hub's
        index of both sides' moves (a history matcher of the line-up reads the same)."""
        super().join(features, mirrored)
        if not self._idle:
            self._matches = features.get(ContextIndex("both", MATCH_LENGTH, MATCH_WINDOW))
            self._private = False

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle:
            return None
        self._weight = weight = self._weight / self._score_keep
        scores = self._scores
        # score every agent's arms on our move: one wins, one loses, one ties
        hits = self._hits[my_move]
        for expected in self._others:
            if expected is not None:
                win, loss = hits[expected]
                scores[win] += weight
                scores[loss] -= weight
        powers = self._powers
        size = len(powers)
        theirs_cell = 3 + their_move
        answer = NEXT[their_move]
        for row in self._current:
            # the chains' arms, on the expectations the row held since the last round
            expected = row[9]
            if expected is not None:
                win, loss = hits[expected]
                scores[win] += weight
                scores[loss] -= weight
            expected = row[10]
            if expected is not None:
                win, loss = hits[expected]
                scores[win] += weight
                scores[loss] -= weight
            # then the moves that followed the row's context
            n = row[6]
            add = powers[n]
            value = row[my_move] = row[my_move] + add
            leader = row[7]
            if leader != my_move and (
                leader is None or value > row[leader] or value == row[leader] and my_move < leader
            ):
                row[7] = my_move
                row[9] = row[11] + my_move
            value = row[theirs_cell] = row[theirs_cell] + add
            leader = row[8]
            if leader != their_move and (
                leader is None
                or value > row[3 + leader]
                or value == row[3 + leader]
                and their_move < leader
            ):
                row[8] = their_move
                row[10] = row[12] + answer
            n += 1
            if n == size and size < self._limit:
                powers.append(self._keep**-n)
                size += 1
            elif n == size:  # back to the scale of one recurrence
                scale = powers[n - 1]
                for cell in range(6):
                    row[cell] /= scale
                n = 1
            row[6] = n
        frequencies, leaders = self._frequencies, self._leaders
        self._count_weight = count_weight = self._count_weight / self._keep
        value = frequencies[my_move] = frequencies[my_move] + count_weight
        leader = leaders[0]
        if leader != my_move and (
            value > frequencies[leader] or value == frequencies[leader] and my_move < leader
        ):
            leaders[0] = my_move
        value = frequencies[theirs_cell] = frequencies[theirs_cell] + count_weight
        leader = leaders[1]
        if leader != their_move and (
            value > frequencies[3 + leader]
            or value == frequencies[3 + leader]
            and their_move < leader
        ):
            leaders[1] = their_move
        if count_weight > RESCALE_AT:
            self._count_weight = fold_weight([frequencies], count_weight)
        if weight > RESCALE_AT:
            self._weight = weight = fold_weight([scores], weight)
        mine, theirs = self._mine, self._theirs
        mine.append(my_move)
        theirs.append(their_move)
        matches = self._matches
        if self._private:
            matches.update(my_move, their_move)
        self._context = context = (
            self._context * 10 + 3 * my_move + their_move + 1
        ) % self._modulus
        current = self._row_sets.get(context)
        if current is None:
            current = self._row_sets[context] = self._rows_of(context)
        self._current = current
        # what the frequencies and the matcher expect of our next move: a prediction of their
        # own move q expects us to play what beats it, q + 1 (the rows' chains say theirs)
        found = matches.found
        if found is None:
            self._others = [leaders[0], None, self._theirs_first + NEXT[leaders[1]], None]
        else:
            self._others = [
                leaders[0],
                self._match_arm + mine[found],
                self._theirs_first + NEXT[leaders[1]],
                self._theirs_match_arm + NEXT[theirs[found]],
            ]
        # the best arm of an agent that speaks (the first on ties)
        top = max(scores)
        best = scores.index(top)
        at, cell = self._sources[best // 3]
        if at is None:
            expected = self._others[cell]
        else:
            expected = current[at][cell] if at < len(current) else None
        if expected is None:
            expectations = self._expectations()
            top, best = 0.0, -1
            for arm, score in enumerate(scores):
                if score > top and expectations[arm // 3] is not None:
                    top, best = score, arm
            expected = expectations[best // 3]
        if top <= 0.0 or top < self._bar * weight:
            prediction = None
        else:
            # arm 3 a + k of an agent expecting x (its entry 3 a + x) plays x + 1 + k
            prediction = (expected + 1 + best) % 3  # type: ignore[operator]
        self._prediction = prediction
        return prediction

    def _expectations(self) -> list[int | None]:
        """What every agent expects of our next move, as its arm 3 a + x (None: silent)."""
        others, current = self._others, self._current
        gap = self._gaps[len(current) // VIEWS]
        return [
            others[0],
            *(row[9] for row in current),
            *gap,
            others[1],
            others[2],
            *(row[10] for row in current),
            *gap,
            others[3],
        ]

    def _rows_of(self, pairs: int) -> tuple[list[Any], ...]:
        """The rows of every order's contexts, their views (theirs, ours, pairs) in turn, that
        end the pair context ``pairs``: the rows made where new."""
        their = mine = 0
        scale = 1
        rest = pairs
        while rest:  # the pairs' digits, 3 my + their + 1, read as theirs and ours
            digit = rest % 10 - 1
            rest //= 10
            their += (digit % 3 + 1) * scale
            mine += (digit // 3 + 1) * scale
            scale *= 10
        rows = self._rows
        found = []
        agent = 1  # each order's views are agents 1 + 3 (order - 1) + view of each side
        for divisor in self._moduli:
            if divisor > scale:  # an order not reached yet
                break
            for view, context in enumerate((their, mine, pairs)):
                key = (context % divisor) << 2 | view
                row = rows.get(key)
                if row is None:
                    row = rows[key] = [
                        0.0,
                        0.0,
                        0.0,
                        0.0,
                        0.0,
                        0.0,
                        0,
                        None,
                        None,
                        None,
                        None,
                        3 * agent,
                        3 * (self._per_side + agent),
                    ]
                found.append(row)
                agent += 1
        return tuple(found)

    def predict(self) -> Move | None:
        return self._prediction
