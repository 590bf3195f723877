"""History matching: Egnor 1999, Iocaine Powder.

Find the longest earlier occurrence of the most recent context and predict the opponent
move that followed it. The context is read from the opponent's moves, ours, or both as
pairs. Instead of rescanning the history, an index maps every context of length 1..max_len
(encoded as an integer) to the position just after its latest occurrence, so each round
costs O(max_len) whatever the length of the match, and indexing a context one symbol
longer only when its shorter form recurs keeps memory at O(1) entries per round. With a
window, a context whose latest occurrence has left the window counts as never seen (its
position says so at lookup), and once every ``window`` rounds the index drops all such
contexts in one pass, so its size stays bounded however long the match, at an amortized
O(1) a round: Iocaine's own longest history age is 1000 rounds.

Of Iocaine's six halves over one history size, only three indexes differ: the opponent's
moves indexed to predict the opponent (P on their moves) are the same index as the one a
twin running on the swapped histories builds to predict us (P' on our moves), and so on.
The index is a shared feature (:class:`ContextIndex`, see :mod:`.features`): in an ensemble
the halves that read the same one take it from the line-up's hub, which keeps it, and each
only reads what followed its match on its side.
"""

from __future__ import annotations

from ..moves import Move
from .base import SYMBOLS, PredictorBase, check_positive, check_source, real_side
from .features import Features


class ContextIndex:
    """Where the latest longest earlier occurrence of the recent context of ``side``'s moves
    (or both as pairs) ends, within the last ``window`` rounds (None: the whole match),
    for contexts of 1 to ``max_len`` symbols: a shared feature (see the module)."""

    def __init__(self, side: str, max_len: int, window: int | None) -> None:
        self.side = check_source(side)
        self.max_len = max_len
        self.window = window
        self._symbol = SYMBOLS[side]
        # symbols are 1..3 (one side) or 1..9 (pairs): base 10 keeps lengths apart
        self._weights = tuple(10**length for length in range(max_len))
        # bytearrays, not lists: the garbage collector never walks them, so its passes do
        # not grow with the match
        self._symbols = bytearray()
        self._index: dict[int, int] = {}
        # where, in the rounds so far (counted from 0), the round that followed the latest
        # longest match of the recent context is; None where no context has recurred
        self.found: int | None = None

    @property
    def key(self) -> tuple[str, str, int, int | None]:
        return ("history", self.side, self.max_len, self.window)

    @property
    def name(self) -> str:
        return f"index-{self.side}{'' if self.window is None else f'@{self.window}'}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ContextIndex) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def update(self, mine: Move, theirs: Move) -> None:
        symbols = self._symbols
        symbols.append(self._symbol[mine * 3 + theirs])
        end = len(symbols)  # position that follows the current context
        index = self._index
        window = self.window
        # positions start at 1 (0: never seen); those before ``oldest`` have expired
        oldest = 1 if window is None or end <= window else end - window
        key = 0
        found = None
        get = index.get
        # the context read backwards, one symbol longer each step, up to max_len symbols
        for weight, symbol in zip(self._weights, reversed(symbols)):
            key += symbol * weight
            position = get(key, 0)
            index[key] = end
            if position < oldest:
                # A context seen for the first time (or not within the window): no longer
                # one can have occurred, and indexing stops here, so the index grows by O(1)
                # entries a round and a repeated context is learnt one symbol longer each
                # time it recurs (LZ78).
                break
            found = position
        self.found = found
        if window is not None and end % window == 0 and end > window:
            # drop what has expired: one pass every ``window`` rounds, over an index of at
            # most ``max_len`` entries per round of the window
            self._index = {
                key: position for key, position in index.items() if position >= end - window
            }


class HistoryMatcher(PredictorBase):
    """Predict what followed the longest earlier match of the recent context.

    ``window`` limits how far back a match may lie (the latest occurrence of the context
    must end within the last ``window`` rounds; an older context counts as never seen);
    ``None`` searches the whole match.
    """

    def __init__(self, source: str = "both", max_len: int = 12, window: int | None = None) -> None:
        self.source = check_source(source)
        self.max_len = check_positive(max_len, "max_len")
        self.window = check_positive(window, "window", allow_none=True)
        suffix = "" if window is None else f"@{window}"
        self.name = f"history-{source}{suffix}"
        self.reset()

    def reset(self) -> None:
        # the index, private (updated here) until the line-up's hub hands over its own
        self._matches = ContextIndex(self.source, self.max_len, self.window)
        self._private = True
        self._theirs = bytearray()  # (a bytearray: see ContextIndex)
        self._prediction: Move | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HistoryMatcher) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def join(self, features: Features, mirrored: bool) -> None:
        """Read the hub's index of the real side this half's context reads (once a mirrored
        twin's swapped arguments are undone); a fresh matcher only."""
        if self._theirs:
            raise ValueError(f"cannot join {self.name!r} to a hub mid-match: reset it first")
        side = real_side(self.source, mirrored)
        self._matches = features.get(ContextIndex(side, self.max_len, self.window))
        self._private = False

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        if self._private:
            self._matches.update(my_move, their_move)
        theirs = self._theirs
        theirs.append(their_move)
        found = self._matches.found
        self._prediction = prediction = theirs[found] if found is not None else None
        return prediction

    def predict(self) -> Move | None:
        return self._prediction

    @property
    def found(self) -> int | None:
        """Where, in the rounds so far (counted from 0), the round that followed the latest
        longest match of the recent context is; None where no context has recurred."""
        return self._matches.found
