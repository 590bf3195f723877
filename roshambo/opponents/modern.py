"""Modern opponents: the ideas behind the strongest rpscontest and Kaggle RPS bots.

Both model the *joint* history (their moves, ours, and the pairs), so they can predict an
engine that is mostly deterministic given that history. Each keeps its own view: "mine" is
the bot's own move, "theirs" the other side's. ``their_last=None`` means nothing to observe
(the first move of a match); state carries over to a second match unless ``reset()``.
Every update is O(1) per move: contexts are found through dictionaries of recent contexts,
never by rescanning the history.
"""

from __future__ import annotations

import random

from ..engine.moves import Move, check_move

PAIR_SYMBOLS = "abcdefghi"  # one character per (mine, theirs) pair: 3 mine + theirs


class LatestContext:
    """Where each recent context of a symbol sequence last ended, for every length up to
    ``longest``: one dictionary per length from context to the position of the symbol that
    followed it. Finding the longest earlier match of the current suffix is at most
    ``longest`` lookups (history matching, Egnor 1999; the rpscontest matchers' index)."""

    def __init__(self, longest: int) -> None:
        if type(longest) is not int or longest < 1:
            raise ValueError(f"invalid longest {longest!r}: expected a positive integer")
        self._longest = longest
        self.reset()

    def reset(self) -> None:
        self._tail = ""  # the last longest + 1 symbols
        self._length = 0  # symbols seen
        self._latest: list[dict[str, int]] = [{} for _ in range(self._longest + 1)]

    def append(self, symbol: str) -> None:
        """Record the next symbol: every context that ends just before it now points at it."""
        position = self._length
        tail = self._tail + symbol
        for length in range(1, min(self._longest, position) + 1):
            self._latest[length][tail[-length - 1 : -1]] = position
        self._tail = tail[-self._longest - 1 :]
        self._length = position + 1

    def longest_match(self) -> int:
        """The length of the longest suffix seen before (0: none)."""
        tail = self._tail
        for length in range(min(self._longest, self._length), 0, -1):
            if tail[-length:] in self._latest[length]:
                return length
        return 0

    def follower(self, length: int) -> int | None:
        """The position that followed the latest earlier occurrence of the suffix of
        ``length`` symbols (None: never seen, or ``length`` is 0)."""
        if length < 1 or length > self._length:
            return None
        return self._latest[length].get(self._tail[-length:])


def _reward(move: Move, theirs: Move) -> int:
    return (move - theirs + 1) % 3 - 1  # +1 win, 0 tie, -1 loss


class ModernMatcher:
    """An rpscontest-style history matcher with an Iocaine meta layer.

    The idea of the top rpscontest entries (e.g. the "dllu" and "meta-fix" families, after
    Egnor's Iocaine Powder, 1999): find the longest earlier match of the current suffix in
    three histories (the joint pairs, the other side's moves, our own), capped at several
    lengths; what followed the match predicts the other side's next move p and our own q.
    Each prediction gives the six Iocaine rotations: ``p + 1 + k`` (beat p, or second-guess),
    and ``q + 2 + k`` (beat the move that beats our predicted one). Every strategy is scored
    as if played, with exponential decay at several rates; each rate's best strategy is a
    candidate, the candidates are scored the same way, and the best one is played. When
    even the best candidate's decayed record is losing, the bot plays at random.
    """

    name = "modern-matcher"
    LIMITS = (1, 3, 6, 12, 24)  # the match-length caps
    DECAYS = (0.95, 0.8, 0.5)  # the strategies' score decays
    META_DECAY = 0.9

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        longest = max(self.LIMITS)
        self._indexes = [LatestContext(longest) for _ in range(3)]  # pairs, theirs, mine
        self._mine_history: list[Move] = []
        self._their_history: list[Move] = []
        count = 3 * len(self.LIMITS) * 6
        self._moves: list[Move | None] = [None] * count  # each strategy's move this round
        self._scores = [[0.0] * count for _ in self.DECAYS]
        self._candidates: list[Move | None] = [None] * len(self.DECAYS)
        self._meta = [0.0] * len(self.DECAYS)
        self._mine: Move | None = None

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
            if self._mine is not None:
                self._observe(self._mine, their_last)
        self._mine = self._choose()
        return self._mine

    def _observe(self, mine: Move, theirs: Move) -> None:
        for d, decay in enumerate(self.DECAYS):
            scores = self._scores[d]
            for s, move in enumerate(self._moves):
                scores[s] = decay * scores[s] + (0 if move is None else _reward(move, theirs))
        meta = self._meta
        for c, move in enumerate(self._candidates):
            meta[c] = self.META_DECAY * meta[c] + (0 if move is None else _reward(move, theirs))
        self._mine_history.append(mine)
        self._their_history.append(theirs)
        pairs, their_index, my_index = self._indexes
        pairs.append(PAIR_SYMBOLS[3 * mine + theirs])
        their_index.append("RPS"[theirs])
        my_index.append("RPS"[mine])
        moves = self._moves
        s = 0
        for index in self._indexes:
            longest = index.longest_match()
            for limit in self.LIMITS:
                position = index.follower(min(limit, longest))
                if position is None:
                    moves[s : s + 6] = [None] * 6
                else:
                    p = self._their_history[position]
                    q = self._mine_history[position]
                    moves[s : s + 6] = [(p + 1) % 3, (p + 2) % 3, p, (q + 2) % 3, q, (q + 1) % 3]
                s += 6
        for d, scores in enumerate(self._scores):
            best = max(range(len(moves)), key=lambda i: (moves[i] is not None, scores[i]))
            self._candidates[d] = moves[best]

    def _choose(self) -> Move:
        meta = self._meta
        best = max(range(len(meta)), key=lambda c: (self._candidates[c] is not None, meta[c]))
        move = self._candidates[best]
        if move is None or meta[best] < 0:
            return self._rng.randrange(3)
        return move


class MarkovCounts:
    """Decayed counts of the next symbol after each context (a Markov chain of any order,
    forgetting: each time a context recurs its old counts shrink by ``decay``)."""

    def __init__(self, decay: float) -> None:
        self._decay = decay
        self.reset()

    def reset(self) -> None:
        self._rows: dict[str, list[float]] = {}

    def add(self, context: str, move: Move) -> None:
        row = self._rows.get(context)
        if row is None:
            row = self._rows[context] = [0.0, 0.0, 0.0]
        decay = self._decay
        row[0] *= decay
        row[1] *= decay
        row[2] *= decay
        row[move] += 1.0

    def predict(self, context: str) -> Move | None:
        row = self._rows.get(context)
        if row is None:
            return None
        return max(range(3), key=row.__getitem__)


class BanditEnsemble:
    """A Kaggle RPS (2020-21) style meta-ensemble: simple agents as the arms of a bandit.

    The agents, as in the competition's public "multi-armed bandit" notebooks: the other
    side's move frequencies; Markov chains of orders 1 to 3 on their moves and on the joint
    pairs; reactions (their move after our last one or two); longest history match on the
    joint pairs; and the mirror of each view, predicting our own move from our history (an
    opponent of that kind plays what beats it). Each agent's prediction gives three arms, the
    move that beats it and its two rotations. Arms are chosen by Thompson sampling
    (Thompson 1933) from decayed win and loss counts, Beta(1 + wins, 1 + losses); when no arm
    has a winning decayed record, the bot plays at random.
    """

    name = "bandit-ensemble"
    DECAY = 0.93  # the arms' win and loss counts
    COUNT_DECAY = 0.9  # the Markov chains' counts
    ORDERS = (1, 2, 3)

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        # chains: (whose next move: 0 theirs / 1 mine, history kind, order)
        self._chains = [
            (side, kind, order, MarkovCounts(self.COUNT_DECAY))
            for side in (0, 1)
            for kind in ("theirs", "pairs", "mine")
            for order in self.ORDERS
        ]
        self._frequency = [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
        self._matcher = LatestContext(20)
        self._mine_history: list[Move] = []
        self._their_history: list[Move] = []
        self._text = {"theirs": "", "pairs": "", "mine": ""}  # the last few symbols of each
        agents = 2 * (1 + len(self._chains) // 2 + 1)
        self._predictions: list[Move | None] = [None] * agents  # their moves expected
        self._wins = [0.0] * (3 * agents)
        self._losses = [0.0] * (3 * agents)
        self._mine: Move | None = None

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
            if self._mine is not None:
                self._observe(self._mine, their_last)
        self._mine = self._choose()
        return self._mine

    def _observe(self, mine: Move, theirs: Move) -> None:
        decay = self.DECAY
        wins, losses = self._wins, self._losses
        for agent, expected in enumerate(self._predictions):
            for k in range(3):
                arm = 3 * agent + k
                wins[arm] *= decay
                losses[arm] *= decay
                if expected is not None:
                    reward = _reward((expected + 1 + k) % 3, theirs)
                    if reward > 0:
                        wins[arm] += 1.0
                    elif reward < 0:
                        losses[arm] += 1.0
        longest = max(self.ORDERS)
        text = self._text
        for side, kind, order, chain in self._chains:
            if len(text["pairs"]) >= order:
                chain.add(text[kind][-order:], mine if side else theirs)
        for side, move in ((0, theirs), (1, mine)):
            row = self._frequency[side]
            for m in range(3):
                row[m] *= self.COUNT_DECAY
            row[move] += 1.0
        text["theirs"] = (text["theirs"] + "RPS"[theirs])[-longest:]
        text["mine"] = (text["mine"] + "RPS"[mine])[-longest:]
        text["pairs"] = (text["pairs"] + PAIR_SYMBOLS[3 * mine + theirs])[-longest:]
        self._mine_history.append(mine)
        self._their_history.append(theirs)
        self._matcher.append(PAIR_SYMBOLS[3 * mine + theirs])
        self._predict()

    def _predict(self) -> None:
        """Every agent's expected move of the other side this round."""
        text = self._text
        expected: list[Move | None] = []
        for side in (0, 1):
            row = self._frequency[side]
            guesses: list[Move | None] = [max(range(3), key=row.__getitem__)]
            guesses += [
                chain.predict(text[kind][-order:])
                for s, kind, order, chain in self._chains
                if s == side
            ]
            position = self._matcher.follower(self._matcher.longest_match())
            history = self._mine_history if side else self._their_history
            guesses.append(None if position is None else history[position])
            if side:  # our own predicted move q: the other side plays what beats it
                guesses = [None if q is None else (q + 1) % 3 for q in guesses]
            expected += guesses
        self._predictions = expected

    def _choose(self) -> Move:
        wins, losses = self._wins, self._losses
        best_arm, best_draw, winning = -1, -1.0, False
        for agent, expected in enumerate(self._predictions):
            if expected is None:
                continue
            for k in range(3):
                arm = 3 * agent + k
                winning = winning or wins[arm] > losses[arm]
                draw = self._rng.betavariate(1.0 + wins[arm], 1.0 + losses[arm])
                if draw > best_draw:
                    best_arm, best_draw = arm, draw
        if best_arm < 0 or not winning:
            return self._rng.randrange(3)
        agent, k = divmod(best_arm, 3)
        expected = self._predictions[agent]
        assert expected is not None
        return (expected + 1 + k) % 3


__all__ = ["BanditEnsemble", "LatestContext", "MarkovCounts", "ModernMatcher"]
