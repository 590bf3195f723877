"""Decayed contexts: an opponent that counts what followed our last k moves, forgetting.

freeCodeCamp's abbey counts which move of ours followed each of our moves and beats the
most counted one; the same idea over our last k moves, with a context's older counts
shrinking by a factor each time the context recurs, is a family with two parameters: the
order k and the memory, about 1 / (1 - decay) recurrences. This predictor follows every
order from 1 to ``deep`` and, per order, every memory of a grid it can tell apart from the
whole match (see :func:`order_memories`) at once. Orders 1 to ``max_order`` keep a row of
our continuations' decayed counts per context; the orders above, whose contexts recur too
seldom for more memories, read one trie of the longer contexts (a node per order on the
current path, see :meth:`DecayedContexts._insert`), so a round walks the orders the current
moves share with an earlier moment, not every order. Every (order, memory) pair names the
move such an opponent expects of us; each round it checks, for every pair, which turn of that
expectation the opponent played (beat it, as abbey does, or a second guess one or two turns
further, Egnor 1999), keeps a decayed score per pair and turn (about the last 16 replies
count), and predicts our move as the best pair and turn read it. It models one side
counting the other, so it works in the mirrored half: shown the swapped histories, "their"
moves are ours and the replies are the opponent's. Ties go to the first pair (the lower
order, then the memory listed first: the shortest, by default) and to the first of R, P, S
within a row, as a context never seen (or longer than the moves so far) predicts R. A
round costs one pass over the row orders and their memories, and over the trie's runs of
orders that have read the same contexts so far (see :meth:`_deep_expected`), at most
``deep - max_order`` of them, however long the match.
"""

from __future__ import annotations

import bisect
import math
from operator import add as plus
from operator import itemgetter
from typing import Any

from ..moves import Move
from .base import TurnCounts, WorksInOneHalf, check_half, check_positive

SCORE_KEEP = 1.0 - 1.0 / 16  # a reply's weight in the pair scores fades by 1/16 a round
# a context's row: [moves counted, per memory a list of counts and leader, order less one]
Row = list[Any]
HORIZON = 1000  # the match length an order's memories are chosen for (see order_memories)
# the slots of a trie node's list (see DecayedContexts._insert): its occurrences, its packed
# moves (a leaf) or None, its children from CHILD on (by the move one deeper, 0: none),
# per memory its leader, then per memory its three counts
TOTAL, TAIL, CHILD, LEADERS, COUNTS = 0, 1, 2, 6, 7
EXPECTED = itemgetter(4)  # a memory's expectation, as the turn-count cell 3 pair + move


class DecayedContexts(WorksInOneHalf):
    """Predict their move as what a counter of their last 1 to ``deep`` moves, with one of
    ``memories`` (recurrences a context remembers, None: all), expects; the turn of that
    expectation the other side answers with says which pair is followed. Silent until a pair
    and turn has ``min_score`` straight replies' worth. Orders up to ``max_order`` are counted
    in rows, the others (with the memories of order ``max_order + 1``) in a trie."""

    source = "their"  # the side whose moves are counted, in its own frame (ours, mirrored)

    def __init__(
        self,
        max_order: int = 3,
        memories: tuple[int | None, ...] = (4, 8, 16, 32, 64, None),
        min_score: int = 3,
        half: str = "mirrored",
        horizon: int | None = HORIZON,
        deep: int = 32,
    ) -> None:
        self.max_order = check_positive(max_order, "max_order")
        self.deep = check_positive(deep, "deep")
        if deep < max_order:
            raise ValueError(f"invalid deep {deep!r}: expected at least max_order ({max_order})")
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
        self.name = f"decayed{deep}-their"  # the orders it reads: 1 to deep
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
        # the orders above max_order (up to ``deep``) share one memory grid: a longer context
        # recurs no more often than the order just above the rows'
        self.deep_memories = order_memories(max_order + 1, memories, horizon)
        self._deep_decays = tuple(1.0 if m is None else 1.0 - 1.0 / m for m in self.deep_memories)
        self._base_pairs = sum(map(len, self.order_memories))
        self._pairs = self._base_pairs + len(self.deep_memories) * (deep - max_order)
        self._deep_mask = (1 << 2 * deep) - 1
        self._seen_mask = (1 << 2 * (max_order + 1)) - 1
        # a single occurrence's leaders: its follower at every memory
        self._single = tuple([move] * len(self.deep_memories) for move in range(3))
        # _hits[move][3 pair + x]: the turn-count cell of that pair (expecting x) which a
        # reply of ``move`` hits: 3 pair + (move - 1 - x) % 3 (the reply beats x turned)
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
        # the deep orders: their last ``deep`` moves packed as the context is (latest lowest)
        self._packed = 0
        # per context of order max_order + 1, the trie of its occurrences (see _insert)
        self._roots: dict[int, Any] = {}
        self._pending = -1  # the packed moves before the occurrence whose follower comes next
        self._cuts = [self.max_order + 1]  # the first order of every run of deep orders
        self._cut_set = {self.max_order + 1}
        # per run, per memory: 3 pair of the run's first order (a key less its move)
        self._run_keys = [3 * (self._base_pairs + j) for j in range(len(self.deep_memories))]
        self._deep_keys: list[int] = []  # this round's keys of the deep pairs counted
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
        self._expected = expected = list(map(EXPECTED, memories))  # what each pair expects next
        if self.deep > self.max_order:
            expected += self._deep_expected(their_move)
        leader = self._turns.leader()
        if leader is None:
            prediction = None
        else:
            pair, turn = leader
            if pair < self._base_pairs:
                prediction = (self._expected[pair] + turn) % 3
            else:  # a deep run's first order (only those are ever counted)
                key = next(k for k in self._deep_keys if k // 3 == pair)
                prediction = (key + turn) % 3
        self._prediction = prediction
        return prediction

    def _deep_expected(self, move: Move) -> list[int]:
        """Count ``move`` for the deep orders and return the keys (3 pair + the move
        expected) of the deep pairs counted this round, the lowest order first.

        An order k > max_order expects, per memory, the most counted of the moves that
        followed the earlier occurrences of their current last k moves (R where there is
        none, as for fewer than k moves). The occurrences sit in a trie per context of
        order max_order + 1, one level per order (see :meth:`_insert`), so the node at depth k
        on the current moves' path holds order k's counts. Orders whose sets of occurrences
        have been the same in every round so far expect the same moves, so they share their
        cells: the deep orders are cut into runs, each counted once, and a run is cut where
        two of its orders first read different sets (the new run's cells copied)."""
        low = self.max_order
        first = low + 1
        pending = self._pending
        if pending >= 0:  # the follower of the last occurrence is now known
            roots = self._roots
            key = pending & self._seen_mask
            root = roots.get(key)
            if root is None:  # the context's first occurrence (the common case, inlined)
                roots[key] = (pending, move)
            else:
                self._insert(root, key, pending, move)
        self._packed = packed = (self._packed << 2 | move + 1) & self._deep_mask
        if not packed >> 2 * low:  # fewer than low + 1 moves so far (no digit is 0)
            return []
        self._pending = packed
        # the sets of the current moves' path: one node per depth from ``first`` on; the
        # last is a leaf (the occurrences that share all ``deep`` moves), standing for the
        # depths up to its match length ``reach``, or a node with no child for the current
        # moves (``reach``: its depth)
        path = []
        node = self._roots.get(packed & self._seen_mask)
        depth = first
        reach = depth - 1
        deep = self.deep
        while node is not None:
            path.append(node)
            tail = node[0] if type(node) is tuple else node[TAIL]
            if tail is not None:
                x = packed ^ tail
                reach = deep if not x else ((x & -x).bit_length() - 1) >> 1
                break
            reach = depth
            node = node[CHILD + ((packed >> 2 * depth) & 3)]
            depth += 1
        # A run starts wherever the set shrinks along the path. Past the path's end it does
        # (cut here); where an occurrence P parts from the path at depth d while the path
        # goes on through a later-parting R, P and R part at d too, and the later of them
        # was cut there in its own round (by induction: a path ends where its deepest
        # occurrence parts), so the end is the only new cut a round can need.
        if reach < deep and reach + 1 not in self._cut_set:
            self._cut(reach + 1)
        keys = self._run_keys[:]
        if not path:
            self._deep_keys = keys
            return keys
        # each run up to ``reach`` expects its node's leaders (a single occurrence: its
        # follower at every memory); the runs past it, R
        last = first + len(path) - 1  # the depth of the path's last node
        single = self._single
        flat: list[int] = []
        for cut in self._cuts:
            if cut > reach:
                break
            node = path[cut - first] if cut < last else path[-1]
            flat += single[node[1]] if type(node) is tuple else node[LEADERS]
        keys[: len(flat)] = map(plus, keys, flat)
        self._deep_keys = keys
        return keys

    def _insert(self, node: Any, key: int, then: int, move: Move) -> None:
        """Count ``move`` as the follower of an occurrence whose packed moves before it were
        ``then``, in the trie ``node`` of its context ``key`` of order max_order + 1 (a trie
        exists once the context has occurred: see :meth:`_deep_expected`). A node at depth d holds
        the occurrences whose last d moves are the node's: a list [occurrences, None, the
        children by the move d + 1 back (1-3; 0: none, too early in the match), per memory
        the most counted move (the first on ties), then per memory its three counts]. A
        leaf holds occurrences that agree on all ``deep`` moves: such a list with its
        packed moves in place of None, or (packed moves, follower) while it has one. A leaf
        meeting an occurrence it disagrees with becomes a chain of nodes down to where they
        part, one leaf under it for each."""
        parent: Any = self._roots
        slot = key
        depth = self.max_order + 1
        count = self._count
        while True:
            tail = node[0] if type(node) is tuple else node[TAIL]
            if tail is None:  # a node: count here, then go down
                count(node, move)
                slot = CHILD + ((then >> 2 * depth) & 3)
                child = node[slot]
                if child is None:
                    node[slot] = (then, move)
                    return
                parent, node = node, child
                depth += 1
                continue
            if tail == then:
                if type(node) is tuple:
                    node = parent[slot] = self._node(node[1], then)
                count(node, move)
                return
            x = then ^ tail
            parted = ((x & -x).bit_length() - 1) >> 1  # the depth below which they part
            # the chain's nodes hold what the leaf holds, and the new occurrence
            held = self._node(node[1]) if type(node) is tuple else node
            for d in range(depth, parted + 1):
                inner = [
                    held[TOTAL],
                    None,
                    None,
                    None,
                    None,
                    None,
                    held[LEADERS][:],
                    *held[COUNTS:],
                ]
                count(inner, move)
                parent[slot] = inner
                parent, slot = inner, CHILD + ((then >> 2 * d) & 3)
            parent[CHILD + ((tail >> 2 * parted) & 3)] = node
            parent[slot] = (then, move)
            return

    def _count(self, node: list[Any], move: Move) -> None:
        """One more occurrence, followed by ``move``, in ``node``'s counts and leaders
        (decaying every count alike, only the counted move can take the lead)."""
        node[TOTAL] += 1
        leaders = node[LEADERS]
        at = COUNTS
        for j, decay in enumerate(self._deep_decays):
            if decay != 1.0:
                node[at] *= decay
                node[at + 1] *= decay
                node[at + 2] *= decay
            value = node[at + move] = node[at + move] + 1
            leader = leaders[j]
            if leader != move:
                other = node[at + leader]
                if value > other or value == other and move < leader:
                    leaders[j] = move
            at += 3

    def _node(self, follower: Move, tail: int | None = None) -> list[Any]:
        """A node (or, with ``tail``, a leaf) holding one occurrence, followed by
        ``follower``."""
        width = len(self._deep_decays)
        node = [1, tail, None, None, None, None, [follower] * width, *((0, 0, 0) * width)]
        for j in range(width):
            node[COUNTS + 3 * j + follower] = 1
        return node

    def _cut(self, order: int) -> None:
        """Start a run of deep orders at ``order``: its pairs take the cells of the run's
        first order (they have expected the same moves in every round so far)."""
        cuts = self._cuts
        at = bisect.bisect(cuts, order)
        width = len(self._deep_decays)
        low = self.max_order
        source = self._base_pairs + width * (cuts[at - 1] - low - 1)
        target = self._base_pairs + width * (order - low - 1)
        for j in range(width):
            self._turns.copy_group(source + j, target + j)
        cuts.insert(at, order)
        self._cut_set.add(order)
        self._run_keys[width * at : width * at] = [3 * (target + j) for j in range(width)]

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
