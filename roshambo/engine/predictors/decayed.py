"""Decayed contexts: an opponent that counts what followed our last k moves, forgetting.

freeCodeCamp's abbey counts which move of ours followed each of our moves and beats the
most counted one; the same idea over our last k moves, with a context's older counts
shrinking by a factor each time the context recurs, is a family with two parameters: the
order k and the memory, about 1 / (1 - decay) recurrences. This predictor follows every
order from 1 to ``max_order`` and, per order, every memory of a grid it can tell apart from
the whole match (see :func:`order_memories`) at once. Per context it keeps our
continuations' decayed counts at each memory, so every (order, memory) pair names the move
such an opponent expects of us; each round it checks, for every pair, which turn of that
expectation the opponent played (beat it, as abbey does, or a second guess one or two turns
further, Egnor 1999), keeps a decayed score per pair and turn (about the last 16 replies
count), and predicts our move as the best pair and turn read it. It models one side
counting the other, so it works in the mirrored half: shown the swapped histories, "their"
moves are ours and the replies are the opponent's. Ties go to the first pair (the lower
order, then the memory listed first: the shortest, by default) and to the first of R, P, S
within a row, as a context never seen predicts R. A round costs one pass over the orders
and their memories, however long the match.
"""

from __future__ import annotations

import math
from operator import itemgetter
from typing import Any

from ..moves import Move
from .base import TurnCounts, WorksInOneHalf, check_half, check_positive

SCORE_KEEP = 1.0 - 1.0 / 16  # a reply's weight in the pair scores fades by 1/16 a round
# a context's row: [moves counted, per memory a list of counts and leader, order less one]
Row = list[Any]
HORIZON = 1000  # the match length an order's memories are chosen for (see order_memories)
EXPECTED = itemgetter(4)  # a memory's expectation, as the turn-count cell 3 pair + move


class DecayedContexts(WorksInOneHalf):
    """Predict their move as what a counter of their last 1 to ``max_order`` moves, with one
    of ``memories`` (recurrences a context remembers, None: all), expects; the turn of that
    expectation the other side answers with says which pair is followed. Silent until a pair
    and turn has ``min_score`` straight replies' worth."""

    source = "their"  # the side whose moves are counted, in its own frame (ours, mirrored)

    def __init__(
        self,
        max_order: int = 3,
        memories: tuple[int | None, ...] = (4, 8, 16, 32, 64, None),
        min_score: int = 3,
        half: str = "mirrored",
        horizon: int | None = HORIZON,
    ) -> None:
        self.max_order = check_positive(max_order, "max_order")
        if (
            not isinstance(memories, tuple)
            or not memories
            or not all(m is None or (type(m) is int and m >= 2) for m in memories)
        ):
            raise ValueError(
                f"invalid memories {memories!r}: expected a tuple of integers >= 2 or None"
            )
        self.memories = memories
        self.min_score = check_positive(min_score, "min_score")
        self.half = check_half(half)
        self.horizon = check_positive(horizon, "horizon", allow_none=True)
        self.name = f"decayed{max_order}-their"
        # per order, its memories (see order_memories), and their decays
        self.order_memories = tuple(
            order_memories(k, memories, horizon) for k in range(1, max_order + 1)
        )
        self._decays = tuple(
            tuple(1.0 if m is None else 1.0 - 1.0 / m for m in kept) for kept in self.order_memories
        )
        self._masks = tuple((1 << 2 * k) - 1 for k in range(1, max_order + 1))
        # per order, rows fold their scale back in after this many moves: where its smallest
        # decay's decay ** -n would pass 1e150
        self._limits = tuple(
            4096
            if min(decays) == 1.0
            else min(4096, int(150 * math.log(10) / -math.log(min(decays))))
            for decays in self._decays
        )
        # _hits[move][3 pair + x]: the turn-count cell of that pair (expecting x) which a
        # reply of ``move`` hits: 3 pair + (move - 1 - x) % 3 (the reply beats x turned)
        self._pairs = sum(map(len, self.order_memories))
        cells = 3 * self._pairs
        self._hits = tuple(
            tuple(cell - cell % 3 + (move - 1 - cell) % 3 for cell in range(cells))
            for move in range(3)
        )
        self.reset()

    def reset(self) -> None:
        pairs = self._pairs
        # the last max_order moves of theirs, two bits each (1..3), the latest lowest: the
        # context of order k is the low 2k bits, distinct across orders (no digit is 0)
        self._context = 0
        # a context (of any order) -> the rows of it and of its shorter suffixes (the lowest
        # order first), and their memories in pair order: made once per context ever seen. A
        # row: [moves counted so far, per memory a list (the three decayed counts, kept scaled,
        # see update; the most counted move, R where none is yet, as a tie says; and it as the
        # pair's turn-count cell 3 pair + move), the order less one]
        self._row_sets: dict[int, tuple[tuple[Row, ...], tuple[list[Any], ...]]] = {}
        self._current: tuple[Row, ...] = ()  # the rows of the current contexts, counted next round
        # per pair: their move x it expects, as 3 pair + x, for the pairs of the orders reached
        # so far (the lower orders' first)
        self._expected: list[int] = []
        # per pair, the turn of its expectation the replies took (group: the pair)
        self._turns = TurnCounts(pairs, SCORE_KEEP, self.min_score)
        # _powers[order - 1][n]: per memory of the order, decay ** -n, grown as its rows'
        # counts reach n (below its limit): a match of a thousand moves needs a few hundred
        self._powers: tuple[list[tuple[float, ...]], ...] = tuple(
            [(1.0,) * len(decays), tuple([d**-1 for d in decays])] for decays in self._decays
        )
        self._prediction: Move | None = None
        self._idle = False  # set by join() in the half this predictor does not work in

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._idle:
            return None
        # which turn of each pair's expectation my_move was: it beats the expectation turned
        self._turns.count_through(self._hits[my_move], self._expected)
        # Count their move after each context at every memory. A row that has counted n moves
        # (row[0]) keeps each memory's counts divided by decay ** (n - 1), so the next move
        # adds decay ** -n instead of every count shrinking: the most counted move is the same
        # either way, and only the counted move can take the lead. Before the scale runs out
        # of range it is folded back in.
        move = their_move
        all_powers, limits = self._powers, self._limits
        for row in self._current:
            n, memories, order = row
            if not n:  # a context's first move: the same count of one at every memory
                for memory in memories:
                    memory[move] = 1.0
                    memory[3] = move
                    memory[4] += move
                row[0] = 1
                continue
            powers = all_powers[order]
            for memory, add in zip(memories, powers[n]):
                value = memory[move] = memory[move] + add
                leader = memory[3]
                if leader != move:
                    other = memory[leader]
                    if value > other or value == other and move < leader:
                        memory[3] = move
                        memory[4] += move - leader
            n += 1
            limit = limits[order]
            if n == len(powers) and n < limit:
                powers.append(tuple([d**-n for d in self._decays[order]]))
            elif n == limit:
                # back to the scale of one count: the real counts are the kept ones times
                # decay ** (n - 1)
                for memory, shrink in zip(memories, powers[n - 1]):
                    for cell in range(3):
                        memory[cell] /= shrink
                n = 1
            row[0] = n
        self._context = context = (self._context << 2 | their_move + 1) & self._masks[-1]
        found = self._row_sets.get(context)
        if found is None:
            found = self._row_sets[context] = self._rows_of(context)
        self._current, memories = found
        self._expected = list(map(EXPECTED, memories))  # what each pair expects next
        leader = self._turns.leader()
        if leader is None:
            prediction = None
        else:
            pair, turn = leader
            prediction = (self._expected[pair] + turn) % 3
        self._prediction = prediction
        return prediction

    def _rows_of(self, context: int) -> tuple[tuple[Row, ...], tuple[list[Any], ...]]:
        """The rows of every order's context (the lowest first) that ends ``context``, and
        their memories in pair order: those of the context one order shorter (built the same
        way, where new), then the context's own row, made here."""
        order = (context.bit_length() - 1) // 2  # 2 bits a move: order + 1 moves
        if order:
            lower = context & self._masks[order - 1]
            rows, memories = self._row_sets.get(lower) or self._rows_of(lower)
        else:
            rows, memories = (), ()
        pair = len(memories)
        own = tuple(
            [0.0, 0.0, 0.0, 0, 3 * (pair + j)] for j in range(len(self.order_memories[order]))
        )
        found = self._row_sets[context] = (rows + ([0, own, order],), memories + own)
        return found

    def predict(self) -> Move | None:
        return self._prediction


def order_memories(
    order: int, memories: tuple[int | None, ...], horizon: int | None
) -> tuple[int | None, ...]:
    """The memories an ``order``'s contexts are counted with: those of ``memories`` no longer
    than twice the recurrences such a context has in ``horizon`` random moves (3 ** -order
    of them; at least the shortest), and the whole match; every one with ``horizon`` None.
    A memory far longer than a context's recurrences counts them as the whole match does,
    so each order pays only for the memories it can tell apart."""
    if horizon is None:
        return memories
    span = 2 * horizon / 3**order
    finite = sorted(m for m in memories if m is not None)
    kept = {m for m in finite if m <= span} | ({finite[0]} if finite else set())
    return tuple(m for m in memories if m is None or m in kept)
