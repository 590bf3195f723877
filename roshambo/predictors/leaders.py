"""Window leaders: the opponent's move as a reaction to which moves lead a recent window.

A frequency player reacts to the most frequent of our last few moves and breaks ties its own
way: a fixed order (which the calibrated chains learn), the order in which the tied moves
entered the window (``Counter.most_common``), or a mix of both (``max`` over a ``set``, when
two moves share a slot of its hash table: then where the colliding moves land can depend on
every move present, the trailing one too). This predictor learns the reaction itself
instead of assuming one. Its context is the set of moves tied for the lead of a side's last
``window`` moves, in their order of first appearance there; it predicts the continuation
most often seen after that context. A tie is read more finely too, with the order of first
appearance of every move present in the window: that row speaks once seen, and until then
the tie's coarser row does (backing off from the finer context to the coarser one, as
prediction by partial matching does, Cleary & Witten 1984). A context not seen yet at all
borrows the reaction last seen to a single leader (their move relative to it), applied to
the earliest of the tied moves, so the predictor speaks from the first reaction on. With
``decay`` below 1, a row's older counts shrink by that factor each time the context recurs:
at 0.6 a reaction seen twice running outweighs any past, while one deviation after a long
run does not (a deterministic opponent whose reaction we first saw through moves we never
made, such as ones from its previous match still in its window, is relearnt at once). It
models any opponent whose move depends on which of our moves lead our recent counts
(Billings 1999, the "freqbot" family, with the tie rule left open), at O(1) work a round.
"""
from __future__ import annotations

from collections import deque

from ..moves import Move
from .base import check_decay, check_positive, check_source


class WindowLeaders:
    """Predict their move from the leading moves of a recent window, in first-seen order.

    ``source`` is the side whose window is read ("mine": the opponent reacts to our moves);
    the predictor is silent until ``min_count`` moves have been seen; ``decay`` weighs a
    context's older reactions down each time it recurs (1: plain counts).
    """

    def __init__(self, source: str = "mine", window: int = 10, min_count: int = 1,
                 decay: float = 1.0) -> None:
        self.source = check_source(source)
        if source == "both":
            raise ValueError(f"invalid source {source!r}: a window's leaders are one side's moves")
        self.window = check_positive(window, "window")
        self.min_count = check_positive(min_count, "min_count")
        self.decay = check_decay(decay, "decay")
        self.name = f"leaders{window}-{source}"
        self._mine = source == "mine"
        self.reset()

    def reset(self) -> None:
        # positions of each move inside the window, oldest first: their number is the move's
        # count, the first one is where the move first appears there, and the window's oldest
        # move is the next to leave
        self._positions: tuple[deque[int], ...] = (deque(), deque(), deque())
        self._ring: deque[Move] = deque()
        self._seen = 0
        self._table: dict[int, list[float]] = {}
        self._refined: dict[int, list[float]] = {}  # the rows of ties read finely
        self._context: int | None = None  # the leaders as base-4 digits 1..3, earliest first
        self._fine: int | None = None  # on a tie: also every move present, earliest first
        self._first: Move = 0  # the earliest of the current leaders
        self._offset: int | None = None  # their move minus the single leader, last seen
        self._prediction: Move | None = None

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        context = self._context
        table = self._table
        if context is not None:
            self._count(table, context, their_move)
            if context < 4:  # one digit: a single leader
                self._offset = (their_move - self._first) % 3
            if self._fine is not None:
                self._count(self._refined, self._fine, their_move)
        move = my_move if self._mine else their_move
        ring = self._ring
        positions = self._positions
        if len(ring) == self.window:
            positions[ring.popleft()].popleft()
        ring.append(move)
        positions[move].append(self._seen)
        self._seen += 1
        counts = list(map(len, positions))
        c0, c1, c2 = counts
        # the common case: one leader, no order to read
        if c0 > c1 and c0 > c2:
            first, context, fine = 0, 1, None
        elif c1 > c0 and c1 > c2:
            first, context, fine = 1, 2, None
        elif c2 > c0 and c2 > c1:
            first, context, fine = 2, 3, None
        else:
            top = max(counts)
            present = sorted((positions[m][0], m) for m in range(3) if counts[m])
            context = fine = 0
            for _, present_move in present:
                if counts[present_move] == top:
                    context = context * 4 + present_move + 1
                fine = fine * 4 + present_move + 1
            fine = fine << 6 | context  # the coarse context takes 6 bits (3 base-4 digits)
            first = next(m for _, m in present if counts[m] == top)
        self._context = context
        self._fine = fine
        self._first = first
        if self._seen < self.min_count:
            prediction = None
        else:
            row = None if fine is None else self._refined.get(fine)
            if row is None:
                row = table.get(context)
            if row is not None:
                # argmax3, inlined (a row's counts are never all zero once it exists: a count
                # adds 1 after any decay)
                a, b, c = row
                if a >= b:
                    prediction = 0 if a >= c else 2
                else:
                    prediction = 1 if b >= c else 2
            else:
                prediction = None if self._offset is None else (first + self._offset) % 3
        self._prediction = prediction
        return prediction

    def _count(self, rows: dict[int, list[float]], key: int, move: Move) -> None:
        """Count ``move`` after the context ``key``, its older counts weighed by ``decay``."""
        row = rows.get(key)
        if row is None:
            row = rows[key] = [0, 0, 0]
        elif self.decay != 1.0:
            decay = self.decay
            row[0] *= decay
            row[1] *= decay
            row[2] *= decay
        row[move] += 1

    def predict(self) -> Move | None:
        return self._prediction
