"""The predictor contract shared by every family."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Literal, Protocol, overload

from ..moves import Move
from .features import Features

SOURCES = ("their", "mine", "both")
# TIED[mask]: the moves whose bit is set in mask, in order
TIED = tuple(tuple(m for m in range(3) if mask >> m & 1) for mask in range(8))


def _entry_orders(code: int) -> tuple[int, tuple[int, ...]]:
    """ENTRY_ORDERS' entry for ``code`` (see there): the moves present sorted by ranks that
    give the code's comparisons (absent moves rank -1, as the caller's do)."""
    present = [m for m in range(3) if code >> m & 1]
    before = {(0, 1): code >> 3 & 1, (0, 2): code >> 4 & 1, (1, 2): code >> 5 & 1}
    # a move's place: how many present moves enter before it (a cycle, which distinct
    # positions never give, gets some order)
    place = {
        m: sum(before[(x, m)] if x < m else 1 - before[(m, x)] for x in present if x != m)
        for m in present
    }
    order = 0
    tied_orders = [0] * 8
    for m in sorted(present, key=lambda m: (place[m], m)):
        order = order * 4 + m + 1
        for mask in range(8):
            if mask >> m & 1:
                tied_orders[mask] = tied_orders[mask] * 4 + m + 1
    return order, tuple(tied_orders)


# ENTRY_ORDERS[entry_code(a0, a1, a2)]: the order in which the moves present entered (as
# base-4 digits m + 1, earliest first) and, per tied mask, the order of the tied ones present
ENTRY_ORDERS = tuple(_entry_orders(code) for code in range(64))


def entry_code(a0: int, a1: int, a2: int) -> int:
    """Where in ENTRY_ORDERS the moves that entered at distinct positions ``a0``, ``a1``,
    ``a2`` (-1: absent, >= 0 otherwise) are: the present moves' mask, then whether a0 < a1,
    a0 < a2 and a1 < a2 (the comparisons with an absent move are ignored there)."""
    return (
        (a0 >= 0)
        | (a1 >= 0) << 1
        | (a2 >= 0) << 2
        | (a0 < a1) << 3
        | (a0 < a2) << 4
        | (a1 < a2) << 5
    )


@dataclass(frozen=True)
class Capabilities:
    """What a predictor offers the ensemble beyond ``update`` and ``predict``, declared as
    data (a class's ``OFFERS``; ``half`` is the instance's) and checked against what the
    class implements by :func:`check_capabilities`, which the registry runs on every entry.

    - ``half``: the halves it works in ("both", "direct", "mirrored"; silent in the other);
    - ``selectable``: whether its strategies may be chosen (False: a noise floor);
    - ``carried``: kept from match to match (:class:`roshambo.engine.predictors.carried.CarriedOver`);
    - ``doubt``: offers ``doubt()`` (see :class:`Predictor`);
    - ``exact``: offers ``exact``, a callable or None where this instance cannot say;
    - ``new_match``: forgets part of the last opponent at a new match (``new_match()``).

    The shared features a predictor reads it takes in ``join`` (see :mod:`.features`).
    """

    half: str = "both"
    selectable: bool = True
    carried: bool = False
    doubt: bool = False
    exact: bool = False
    new_match: bool = False


class Predictor(Protocol):
    """Predicts the opponent's next move from the two move histories.

    ``update(my_move, their_move)`` records one round in O(1) and returns the predicted next
    opponent move, or ``None`` while the predictor has nothing to say; ``predict()`` returns
    that prediction again (``None`` before the first round). The ensemble reads the return
    value, one call per predictor a round.
    Running a predictor on swapped arguments makes it predict *our* next move: that is the
    P' half of the Iocaine Powder strategies (Egnor 1999).
    A predictor may also offer ``doubt() -> bool``: whether its evidence leaves open that the
    side it predicts plays the prediction plus 2 instead (the one alternative that would
    beat the move answering the prediction); the ensemble then plays the move that ties the
    prediction and beats that alternative (see :mod:`roshambo.engine.ensemble`, caution).
    And ``exact() -> tuple[Move, int] | None``: the move a model of the side forces, where
    that model has fitted every move of the side since the model started, with how many
    moves have tested it; the ensemble follows it outright once the tests are many enough
    (see :mod:`roshambo.engine.ensemble`, exact models). A wrapper that cannot say sets ``exact``
    to None. What it offers it declares in ``capabilities`` (see :class:`Capabilities`);
    the ensemble asks for nothing else. ``join`` tells every fresh half which half it is,
    and hands it the hub of shared features it may take what it reads from (see
    :mod:`.features`; :class:`PredictorBase` takes none).
    """

    name: str
    source: str  # whose moves its model reads ("their", "mine", "both"; "" if none)

    @property
    def capabilities(self) -> Capabilities: ...

    def join(self, features: Features, mirrored: bool) -> None: ...

    def reset(self) -> None: ...

    def update(self, my_move: Move, their_move: Move) -> Move | None: ...

    def predict(self) -> Move | None: ...


# SYMBOLS[source][my_move * 3 + their_move]: the symbol a round adds to a context read from
# their moves, ours, or both as pairs; 1-based, so that base-10 digit strings of symbols
# keep contexts of different lengths apart.
SYMBOLS = {
    "their": tuple(their + 1 for my in range(3) for their in range(3)),
    "mine": tuple(my + 1 for my in range(3) for their in range(3)),
    "both": tuple(my * 3 + their + 1 for my in range(3) for their in range(3)),
}


def check_source(source: str) -> str:
    """Validate a context source: our moves, theirs, or both as pairs."""
    if source not in SOURCES:
        raise ValueError(f"invalid source {source!r}: expected one of {', '.join(SOURCES)}")
    return source


def real_side(source: str, mirrored: bool) -> str:
    """Whose moves a context of ``source`` reads, in the real match, for a half that may be a
    mirrored twin (shown the swapped histories): their moves and ours trade places; pairs stay
    pairs (a twin's are the same rounds, each pair written the other way round)."""
    if not mirrored or source == "both":
        return source
    return "mine" if source == "their" else "their"


HALVES = ("both", "direct", "mirrored")


def check_half(half: str) -> str:
    """Validate which halves of the ensemble a predictor works in: a model that only makes
    sense one way round (an opponent counting our moves) stays silent, at no cost, in the
    other half."""
    if half not in HALVES:
        raise ValueError(f"invalid half {half!r}: expected one of {', '.join(HALVES)}")
    return half


def idle_in(half: str, mirrored: bool) -> bool:
    """Whether a predictor working only in ``half`` idles as a half that is ``mirrored``."""
    return half != "both" and half != ("mirrored" if mirrored else "direct")


class PredictorBase:
    """The contract's defaults: works in both halves, offers nothing beyond ``update`` and
    ``predict`` (a subclass declares more in ``OFFERS``), shares no work."""

    OFFERS: ClassVar[Capabilities] = Capabilities()
    half: str = "both"
    source: str = ""

    @property
    def capabilities(self) -> Capabilities:
        """``OFFERS`` in this instance's halves."""
        offers = self.OFFERS
        return offers if offers.half == self.half else replace(offers, half=self.half)

    def join(self, features: Features, mirrored: bool) -> None:
        """Nothing to take: works alike in either half, on its own."""


class WorksInOneHalf(PredictorBase):
    """For a predictor that models one side only, so works in one half of the ensemble
    (``half``: "direct", "mirrored" or "both") and is silent, doing nothing, in the other.
    Its ``update`` returns ``None`` at once while ``_idle``, which ``reset`` clears."""

    _idle: bool

    def join(self, features: Features, mirrored: bool) -> None:
        """Idle in the half this predictor does not work in."""
        self._idle = idle_in(self.half, mirrored)


def works_as(predictor: Predictor, mirrored: bool) -> bool:
    """Whether ``predictor`` has anything to say as a half that is ``mirrored``, once the
    ensemble has joined it (one that works in one half only idles in the other).
    The ensemble updates working halves only."""
    return not idle_in(predictor.capabilities.half, mirrored)


# the capabilities a class offers by implementing the attribute of the same name (see
# check_capabilities)
IMPLEMENTS = ("doubt", "exact", "new_match")


def check_capabilities(predictor: Predictor) -> Capabilities:
    """``predictor``'s capabilities, checked against its class: every capability declared is
    implemented, and (but for a wrapper carried over, which offers what it wraps) every one
    implemented is declared. Raises ValueError naming the predictor and the mismatch."""
    name = getattr(predictor, "name", type(predictor).__name__)
    caps = getattr(predictor, "capabilities", None)
    if not isinstance(caps, Capabilities):
        raise ValueError(
            f"predictor {name!r} declares no Capabilities (got {caps!r}): derive it from "
            "PredictorBase and declare what it offers in OFFERS"
        )
    check_half(caps.half)
    implemented = {flag: hasattr(predictor, flag) for flag in IMPLEMENTS}
    for flag, offered in implemented.items():
        declared = getattr(caps, flag)
        if declared and not offered:
            raise ValueError(f"predictor {name!r} declares {flag} but does not implement it")
        if offered and not declared and not caps.carried:
            raise ValueError(f"predictor {name!r} implements {flag} but does not declare it")
    return caps


class TieContexts:
    """Which of a count's tied moves a side picks, learnt per tie context as prediction by
    partial matching does (Cleary & Witten 1984): the finest context is the order in which
    the moves present entered the counted moves, with the tied move seen last; then the
    order in which the tied moves alone entered; then the tied moves alone. A context's
    entry is the move last picked there, or with ``votes`` the move picked there most often
    (the last picked among equals): a side whose rule holds a whole match is then read
    through its random moves, each of which would otherwise stand for the rule until the
    context comes up again. Shared by the counters that read ties."""

    def __init__(self, votes: bool = False) -> None:
        if not isinstance(votes, bool):
            raise ValueError(f"invalid votes {votes!r}: expected True or False")
        self.votes = votes
        self._picked: dict[int, Move] = {}  # tie context -> the tied move picked there last
        self._counts: dict[int, list[int]] = {}  # with votes: tie context -> picks per move
        # the contexts of the tie read last (fine, middle, coarse) and its tied moves, until
        # the side's pick is learnt
        self.pending: tuple[int, int, int, tuple[Move, ...]] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TieContexts) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def read(self, entry: int, mask: int, last: Move, kind: int, default: Move) -> Move:
        """The tied move (``mask``: a bit per tied move) the finest context seen names, else
        ``default``; ``entry`` is the order in which the moves present entered, as
        :func:`entry_code` gives it, ``last`` the tied move seen last, ``kind`` (0 or 1) tells
        ties of different counts apart."""
        order, tied_orders = ENTRY_ORDERS[entry]  # every move present's, and the tied ones'
        # the contexts as integers: the coarse one (kind, tied moves) in 0..15, the fine one
        # (also the order of every move present and the last seen) from 16 up, the middle one
        # (the coarse one and the tied moves' order) negative
        coarse = kind << 3 | mask
        fine = ((order << 2 | last) << 4 | coarse) + 16
        middle = -(tied_orders[mask] << 4 | coarse) - 1
        tied = TIED[mask]
        self.pending = (fine, middle, coarse, tied)
        picked = self._picked
        if self.votes:
            for key in (fine, middle, coarse):
                chosen = picked.get(key)
                if chosen is not None:
                    counts = self._counts[key]
                    for m in tied:
                        if counts[m] > counts[chosen]:
                            chosen = m
                    return chosen
            return default
        chosen = picked.get(fine)
        if chosen is None:
            chosen = picked.get(middle)
            if chosen is None:
                chosen = picked.get(coarse, default)
        return chosen

    def learn(self, move: Move) -> None:
        """The side picked ``move`` after the pending tie: remember it in each of its
        contexts, if it is one of the tied moves; the tie is no longer pending."""
        pending = self.pending
        if pending is not None:
            if move in pending[3]:
                picked = self._picked
                picked[pending[0]] = picked[pending[1]] = picked[pending[2]] = move
                if self.votes:
                    counts = self._counts
                    for key in pending[:3]:
                        row = counts.get(key)
                        if row is None:
                            row = counts[key] = [0, 0, 0]
                        row[move] += 1
            self.pending = None


@overload
def check_positive(value: int, what: str, allow_none: Literal[False] = False) -> int: ...
@overload
def check_positive(value: int | None, what: str, allow_none: bool = False) -> int | None: ...


def check_positive(value: int | None, what: str, allow_none: bool = False) -> int | None:
    """Validate a length or window size (``None`` too, where ``allow_none``)."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"invalid {what} {value!r}: expected a positive integer")
    return value


def check_decay(value: object, what: str) -> float:
    """Validate a decay factor: a real number in (0, 1] (bools and strings are refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 < value <= 1.0:
        raise ValueError(f"invalid {what} {value!r}: expected a number in (0, 1]")
    return float(value)


RESCALE_AT = 1e100  # a lazily decayed table folds its weight back in before floats lose range


def fold_weight(rows: list[list[float]], weight: float) -> float:
    """Divide every cell of a table kept scaled by ``weight`` (decay ** -rounds, so that a
    round adds one weight instead of decaying every cell) and return the new weight, 1.0."""
    for row in rows:
        row[:] = [cell / weight for cell in row]
    return 1.0


def argmax3(counts: Sequence[float]) -> Move | None:
    """Index of the largest of three counts, the first on ties; None when all are zero."""
    a, b, c = counts
    if a == b == c == 0:
        return None
    if a >= b:
        return 0 if a >= c else 2
    return 1 if b >= c else 2


class TurnCounts:
    """Decayed counts, per group, of which turn (0, 1, 2) of the group's reference move a
    counted move was: the core of the lagged rolls (a group per lag) and the decayed contexts
    (a group per order and memory). Counts are kept scaled by ``decay ** -rounds`` (a round
    adds one weight instead of decaying every cell), and only the cells a round adds to can
    take the lead, so the best cell (the first on ties) is kept as the counts go."""

    def __init__(self, groups: int, decay: float, min_hits: int) -> None:
        self.groups = groups
        self.decay = decay
        # a cell that held min_hits rounds' worth, decayed since: the weight it needs today,
        # in units of this round's weight (a run of hits ending now holds sum(decay ** i))
        self._bar = sum(decay**i for i in range(min_hits)) * 0.999
        self.reset()

    def reset(self) -> None:
        self._cells = [0.0] * (3 * self.groups)  # cell 3 g + turn, scaled by _weight
        self._weight = 1.0
        self._best = -1  # the best cell (-1: none yet)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TurnCounts) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def count(self, move: Move, references: Iterable[Move]) -> None:
        """Count ``move`` as a turn of each group's reference, the first group's first (the
        groups past the last reference given skip)."""
        cells = self._cells
        self._weight = weight = self._weight / self.decay
        best = self._best
        top = cells[best] if best >= 0 else 0.0
        cell = 0
        for reference in references:
            hit = cell + (move - reference) % 3
            value = cells[hit] = cells[hit] + weight
            if value > top or value == top and hit < best:
                best, top = hit, value
            cell += 3
        if weight > RESCALE_AT:
            self._weight = fold_weight([cells], weight)
        self._best = best

    def count_through(self, table: Sequence[int], keys: Iterable[int]) -> None:
        """Count one round at the cells ``table[key]`` (3 g + turn) of the ``keys`` given, one
        per group in group order: as ``count`` does, for a caller that keeps its references as
        keys of a table of the cells a round hits."""
        cells = self._cells
        self._weight = weight = self._weight / self.decay
        best = self._best
        top = cells[best] if best >= 0 else 0.0
        for key in keys:
            hit = table[key]
            value = cells[hit] = cells[hit] + weight
            if value > top or value == top and hit < best:
                best, top = hit, value
        if weight > RESCALE_AT:
            self._weight = fold_weight([cells], weight)
        self._best = best

    def copy_group(self, source: int, target: int) -> None:
        """Give group ``target`` the cells of ``source``, for a group that has stood for the
        same references as ``source`` in every round so far. A copy only ties the cells it
        copies, so with ``target`` after ``source`` the best cell stays the same."""
        cells = self._cells
        cells[3 * target : 3 * target + 3] = cells[3 * source : 3 * source + 3]

    def leader(self) -> tuple[int, int] | None:
        """The best (group, turn), once it holds ``min_hits`` straight rounds' worth."""
        best = self._best
        if best < 0 or self._cells[best] < self._bar * self._weight:
            return None
        return divmod(best, 3)
