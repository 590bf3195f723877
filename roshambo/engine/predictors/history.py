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
In an ensemble the halves that would rebuild an index another half already keeps borrow it
(see :meth:`HistoryMatcher.share`) and only read what followed its match on their side.
"""

from __future__ import annotations

from ..moves import Move
from .base import SYMBOLS, Capabilities, PredictorBase, check_positive, check_source, real_side


class HistoryMatcher(PredictorBase):
    """Predict what followed the longest earlier match of the recent context.

    ``window`` limits how far back a match may lie (the latest occurrence of the context
    must end within the last ``window`` rounds; an older context counts as never seen);
    ``None`` searches the whole match.
    """

    OFFERS = Capabilities(shares=True)  # an identical index, borrowed (see share)

    def __init__(self, source: str = "both", max_len: int = 12, window: int | None = None) -> None:
        self.source = check_source(source)
        self._symbol = SYMBOLS[source]
        self.max_len = check_positive(max_len, "max_len")
        self.window = check_positive(window, "window", allow_none=True)
        suffix = "" if window is None else f"@{window}"
        self.name = f"history-{source}{suffix}"
        # symbols are 1..3 (one side) or 1..9 (pairs): base 10 keeps lengths apart
        self._base = 10
        self._weights = tuple(self._base**length for length in range(self.max_len))
        self.reset()

    def reset(self) -> None:
        # bytearrays, not lists: the garbage collector never walks them, so its passes do
        # not grow with the match
        self._symbols = bytearray()
        self._theirs = bytearray()
        self._index: dict[int, int] = {}
        self._found: int | None = None  # where what followed the longest match is
        self._owner: HistoryMatcher | None = None  # whose index this one reads, if shared
        self._prediction: Move | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HistoryMatcher) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def share(self, shared: dict[object, object], mirrored: bool) -> None:
        """Borrow an identical index from a predictor already in ``shared`` (or offer this
        one): the index depends only on which real side's moves it reads, once a mirrored
        twin's swapped arguments are undone. A borrower reads the owner's match each round,
        so it must be updated after the owner, with the same rounds (the ensemble calls
        ``share`` in the order of its updates, on fresh predictors). ``reset`` ends it."""
        owner = shared.setdefault(
            ("history", real_side(self.source, mirrored), self.max_len, self.window), self
        )
        if owner is not self:
            if not isinstance(owner, HistoryMatcher) or owner._symbols or self._symbols:
                raise ValueError(
                    f"cannot share {owner!r}'s index: sharing needs fresh history matchers"
                )
            self._owner = owner

    def update(self, my_move: Move, their_move: Move) -> Move | None:
        owner = self._owner
        if owner is not None:  # a borrowed index: what followed the owner's match, our side
            theirs = self._theirs
            theirs.append(their_move)
            found = owner._found
            self._prediction = prediction = theirs[found] if found is not None else None
            return prediction
        symbols = self._symbols
        symbols.append(self._symbol[my_move * 3 + their_move])
        self._theirs.append(their_move)
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
        self._found = found
        self._prediction = prediction = self._theirs[found] if found is not None else None
        if window is not None and end % window == 0 and end > window:
            # drop what has expired: one pass every ``window`` rounds, over an index of at
            # most ``max_len`` entries per round of the window
            self._index = {
                key: position for key, position in index.items() if position >= end - window
            }
        return prediction

    def predict(self) -> Move | None:
        return self._prediction

    @property
    def found(self) -> int | None:
        """Where, in the rounds so far (counted from 0), the round that followed the latest
        longest match of the recent context is; None where no context has recurred. A
        borrower reads its owner's."""
        owner = self._owner
        return (self if owner is None else owner)._found
