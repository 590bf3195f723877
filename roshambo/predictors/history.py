"""History matching: Egnor 1999, Iocaine Powder.

Find the longest earlier occurrence of the most recent context and predict the opponent
move that followed it. The context is read from the opponent's moves, ours, or both as
pairs. Instead of rescanning the history, an index maps every context of length 1..max_len
(encoded as an integer) to the position just after its latest occurrence, so each round
costs O(max_len) whatever the length of the match, and indexing a context one symbol
longer only when its shorter form recurs keeps memory at O(1) entries per round. With a
window, the index forgets contexts whose latest occurrence has left the window (rebuilt from
the history, one round's contexts at a time), so its size, and with it the cost of a lookup,
stays bounded
however long the match: Iocaine's own longest history age is 1000 rounds.
"""
from __future__ import annotations

from ..moves import Move
from .base import SYMBOLS, check_positive, check_source


class HistoryMatcher:
    """Predict what followed the longest earlier match of the recent context.

    ``window`` limits how far back a match may lie (the latest occurrence of the context
    must end within the last ``window`` rounds; an older context counts as never seen);
    ``None`` searches the whole match.
    """

    def __init__(self, source: str = "both", max_len: int = 12, window: int | None = None) -> None:
        self.source = check_source(source)
        self._symbol = SYMBOLS[source]
        self.max_len = check_positive(max_len, "max_len")
        self.window = check_positive(window, "window", allow_none=True)
        suffix = "" if window is None else f"@{window}"
        self.name = f"history-{source}{suffix}"
        # symbols are 1..3 (one side) or 1..9 (pairs): base 10 keeps lengths apart
        self._base = 10
        self.reset()

    def reset(self) -> None:
        # bytearrays, not lists: the garbage collector never walks them, so its passes do
        # not grow with the match
        self._symbols = bytearray()
        self._theirs = bytearray()
        self._index: dict[int, int] = {}
        self._depth = bytearray()  # how many contexts each round indexed (at most max_len)
        self._prediction: Move | None = None

    def update(self, my_move: Move, their_move: Move) -> None:
        symbols = self._symbols
        symbols.append(self._symbol[my_move * 3 + their_move])
        self._theirs.append(their_move)
        end = len(symbols)  # position that follows the current context
        index = self._index
        window = self.window
        key = 0
        weight = 1
        found = None
        depth = 0
        for length in range(1, min(self.max_len, end) + 1):
            key += symbols[end - length] * weight
            weight *= self._base
            position = index.get(key)
            index[key] = end
            depth = length
            if position is None:
                # A context seen for the first time: no longer one can have occurred, and
                # indexing stops here, so the index grows by O(1) entries a round and a
                # repeated context is learnt one symbol longer each time it recurs (LZ78).
                break
            found = position
        self._prediction = self._theirs[found] if found is not None else None
        if window is not None:
            self._depth.append(depth)
            if end > window:
                self._forget(end - window)

    def _forget(self, position: int) -> None:
        """Drop the contexts indexed at ``position`` whose latest occurrence is still there.

        Those contexts are the suffixes, of lengths 1 to the depth indexed then, of the
        symbols before ``position``: rebuilt from the history, they need no queue of keys.
        """
        symbols = self._symbols
        index = self._index
        key = 0
        weight = 1
        for length in range(1, self._depth[position - 1] + 1):
            key += symbols[position - length] * weight
            weight *= self._base
            if index.get(key) == position:
                del index[key]

    def predict(self) -> Move | None:
        return self._prediction
