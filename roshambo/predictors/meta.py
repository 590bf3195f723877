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
(docs/benchmarks.md, tests). An arm scores +1 where its move would have beaten ours, -1
where it would have lost. Ties go to the first agent (ours before theirs; frequencies, then
each order's views, then the match) and the first rotation. A meta-player that uses only
some of these agents is read less well: the model takes the best arm of all of them. A
round costs one pass over the agents, however long the match.
"""
from __future__ import annotations

import math
from operator import itemgetter

from ..moves import Move
from .base import RESCALE_AT, WorksInOneHalf, check_half, check_positive, fold_weight
from .history import HistoryMatcher

MATCH_LENGTH = 12  # the history matcher's longest context, as the line-up's own
MATCH_WINDOW = 1000  # and how far back it looks, so that an ensemble's index is shared
VIEWS = 3  # contexts of their moves, ours, and both as pairs
NEXT = (1, 2, 0)  # the move that beats each move
# HITS[my - x] (-2..2; negative indices wrap as mod 3 would): the rotations of an arm expecting
# x that beat our move my, and that lose to it
HITS = ((0, 1), (1, 2), (2, 0))
# a context row's expectation of our next move, and the answer to its expectation of theirs
# (None while nothing has followed the context)
OUR_EXPECTED = itemgetter(7)
THEIR_EXPECTED = itemgetter(9)


class MetaOfAgents(WorksInOneHalf):
    """Predict their move as the move of the best-scoring arm of simple agents predicting
    our moves (or theirs, answered), scored from their side. Silent while the best arm's
    score is below ``min_score`` wins running (decayed; and while it is not positive): a
    meta-player with nothing winning plays at random, and in the opening one arm of dozens
    leads by chance."""

    def __init__(self, max_order: int = 3, memory: int = 8, score_memory: int = 16,
                 min_score: int = 2, half: str = "direct") -> None:
        self.max_order = check_positive(max_order, "max_order")
        for value, what in ((memory, "memory"), (score_memory, "score_memory")):
            if type(value) is not int or value < 2:
                raise ValueError(f"invalid {what} {value!r}: expected an integer of at least 2")
        if type(min_score) is not int or min_score < 0:
            raise ValueError(f"invalid min_score {min_score!r}: expected a non-negative integer")
        self.memory, self.score_memory, self.min_score = memory, score_memory, min_score
        self.half = check_half(half)
        self.name = f"meta-agents{max_order}" + ("" if (memory, score_memory) == (8, 16) else f"@{memory}-{score_memory}")
        self._score_keep = 1.0 - 1.0 / score_memory
        # _powers[n]: keep ** -n for the counts, up to where it reaches 1e100
        self._keep = keep = 1.0 - 1.0 / memory
        limit = min(4096, int(100 * math.log(10) / -math.log(keep)))
        self._powers = tuple(keep ** -n for n in range(limit))
        self._modulus = 10 ** max_order  # a view's last max_order symbols, base-10 digits 1..9
        self._moduli = tuple(10 ** order for order in range(1, max_order + 1))
        # agents per side: frequencies, VIEWS * max_order chains, the match
        self._per_side = 2 + VIEWS * max_order
        # _gaps[k]: the silent chains of each side while only orders up to k have been reached
        self._gaps = tuple((None,) * (VIEWS * (max_order - k)) for k in range(max_order + 1))
        # a best arm that has won min_score rounds running, decayed since: the score it needs
        # today, in units of this round's weight
        self._bar = sum(self._score_keep ** i for i in range(min_score)) * 0.999
        self.reset()

    def reset(self) -> None:
        # context key -> the decayed counts of the move that followed it, ours (cells 0-2) and
        # theirs (3-5), kept scaled by keep ** -n after n recurrences (cell 6: n), so that a
        # recurrence adds one weight to two cells instead of shrinking six; then the most
        # counted move of each side (cells 7, 8: only the cells a recurrence adds to can take
        # the lead; None until one has) and the move that beats theirs (cell 9), so that the
        # agents' expectations are read straight off the rows. A key is the context's digits
        # (1-based, so orders never collide) times 4 plus the view.
        self._rows: dict[int, list] = {}
        self._contexts = [0] * VIEWS
        self._current: list[list] = []  # the rows of the current contexts, learnt next round
        # the move frequencies, ours then theirs, kept scaled by keep ** -rounds (the empty
        # context recurs every round), and each side's most frequent move
        self._frequencies = [0.0] * 6
        self._count_weight = 1.0
        self._leaders = [0, 0]
        self._weight = 1.0  # score_keep ** -rounds: a round adds one weight instead of decaying all
        agents = 2 * self._per_side
        self._scores = [0.0] * (3 * agents)  # arm 3 a + k, scaled by _weight
        self._expected: list[Move | None] = [None] * agents  # our move each agent expects
        self._mine = bytearray()
        self._theirs = bytearray()
        self._matcher = HistoryMatcher("both", MATCH_LENGTH, MATCH_WINDOW)
        self._prediction: Move | None = None
        self._idle = False  # set by share() in the half this predictor does not work in

    def share(self, shared: dict[object, object], mirrored: bool) -> None:
        """Idle in the half this predictor does not work in; in the other, read the history
        index of a matcher of both sides' moves already in ``shared`` (or offer this one's)."""
        super().share(shared, mirrored)
        if not self._idle:
            self._matcher.share(shared, mirrored)

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle:
            return None
        self._weight = weight = self._weight / self._score_keep
        scores = self._scores
        # score every arm on our move: arm k of an agent expecting x plays x + 1 + k, which
        # beats our move where k = my - x and loses to it where k = my - x + 1 (mod 3)
        arm = 0
        for expected in self._expected:
            if expected is not None:
                win, loss = HITS[my_move - expected]
                scores[arm + win] += weight
                scores[arm + loss] -= weight
            arm += 3
        # count the moves that followed the last round's contexts
        powers = self._powers
        size = len(powers)
        theirs_cell = 3 + their_move
        answer = NEXT[their_move]
        for row in self._current:
            n = row[6]
            add = powers[n]
            value = row[my_move] = row[my_move] + add
            leader = row[7]
            if leader != my_move and (leader is None or value > row[leader]
                                      or value == row[leader] and my_move < leader):
                row[7] = my_move
            value = row[theirs_cell] = row[theirs_cell] + add
            leader = row[8]
            if leader != their_move and (leader is None or value > row[3 + leader]
                                         or value == row[3 + leader] and their_move < leader):
                row[8] = their_move
                row[9] = answer
            n += 1
            if n == size:  # back to the scale of one recurrence
                scale = powers[n - 1]
                for cell in range(6):
                    row[cell] /= scale
                n = 1
            row[6] = n
        frequencies, leaders = self._frequencies, self._leaders
        self._count_weight = count_weight = self._count_weight / self._keep
        value = frequencies[my_move] = frequencies[my_move] + count_weight
        leader = leaders[0]
        if leader != my_move and (value > frequencies[leader]
                                  or value == frequencies[leader] and my_move < leader):
            leaders[0] = my_move
        value = frequencies[theirs_cell] = frequencies[theirs_cell] + count_weight
        leader = leaders[1]
        if leader != their_move and (value > frequencies[3 + leader]
                                     or value == frequencies[3 + leader] and their_move < leader):
            leaders[1] = their_move
        if count_weight > RESCALE_AT:
            self._count_weight = fold_weight([frequencies], count_weight)
        if weight > RESCALE_AT:
            self._weight = weight = fold_weight([scores], weight)
        mine, theirs = self._mine, self._theirs
        mine.append(my_move)
        theirs.append(their_move)
        matcher = self._matcher
        matcher.update(my_move, their_move)
        contexts = self._contexts
        modulus = self._modulus
        context0 = contexts[0] = (contexts[0] * 10 + their_move + 1) % modulus
        context1 = contexts[1] = (contexts[1] * 10 + my_move + 1) % modulus
        context2 = contexts[2] = (contexts[2] * 10 + 3 * my_move + their_move + 1) % modulus
        moduli = self._moduli
        seen = len(mine)
        if seen < len(moduli):
            moduli = moduli[:seen]
        rows = self._rows
        current: list[list] = []
        append = current.append
        for divisor in moduli:
            for key in ((context0 % divisor) << 2, (context1 % divisor) << 2 | 1,
                        (context2 % divisor) << 2 | 2):
                row = rows.get(key)
                if row is None:
                    row = rows[key] = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, None, None, None]
                append(row)
        self._current = current
        # what each agent expects of our next move, ours first, then theirs: a prediction of
        # their own move q expects us to play what beats it, q + 1 (a context never followed
        # by anything says nothing)
        gap = self._gaps[len(moduli)]
        found = matcher.found
        if found is None:
            expected = [leaders[0], *map(OUR_EXPECTED, current), *gap, None,
                        NEXT[leaders[1]], *map(THEIR_EXPECTED, current), *gap, None]
        else:
            expected = [leaders[0], *map(OUR_EXPECTED, current), *gap, mine[found],
                        NEXT[leaders[1]], *map(THEIR_EXPECTED, current), *gap, NEXT[theirs[found]]]
        self._expected = expected
        # the best arm of an agent that speaks (the first on ties)
        top = max(scores)
        best = scores.index(top)
        if expected[best // 3] is None:
            top, best = 0.0, -1
            for arm, score in enumerate(scores):
                if score > top and expected[arm // 3] is not None:
                    top, best = score, arm
        if top <= 0.0 or top < self._bar * weight:
            prediction = None
        else:
            agent, turn = divmod(best, 3)
            prediction = (expected[agent] + 1 + turn) % 3  # type: ignore[operator]
        self._prediction = prediction
        return prediction

    def predict(self) -> Move | None:
        return self._prediction

