"""The fCC bots' relatives: the same simple ideas with every parameter, for testing generality.

quincy plays a fixed cycle, kris reacts to our last move, mrugesh beats the most frequent of
our last ten moves and abbey counts what followed our last move. Each idea here is one
parametrised class, and a member is named by a spec, ``family:key=value,...`` (for example
``counter:window=20,target=least,tie=first``), which :func:`make_relative` parses:

- ``counter``: beats the most (or least) frequent of our last ``window`` moves (``all``: the
  whole history), ties broken by a fixed order, first seen, last seen, or ``set``: CPython's
  ``max(set(window), key=...)``, so the tie depends on ``PYTHONHASHSEED`` as mrugesh's does;
- ``context``: counts what followed our last ``k`` moves (decayed or not) and beats the most
  counted continuation, or second-guesses it by ``rotation``;
- ``reaction``: beats, copies or loses to our move ``lag`` rounds back;
- ``cycle``: plays a fixed ``pattern`` over and over;
- ``switcher``: plays members of the families above in turn, ``period`` rounds each;
- every family takes ``noise=e``: a share ``e`` of moves is uniformly random.

Like the fCC bots, a member keeps its state from match to match unless ``reset()`` is called
(``move(None)`` starts the next match). :func:`member_grid` lists the benchmark's members,
with every parameter spread over its range.
"""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from ..engine.moves import LETTERS, Move, beats, check_move

WHOLE = "all"  # a counter's window covering the whole history
TIE_RULES = ("first", "last", "set")  # besides a fixed order: a permutation of "RPS"


class RecentCounter:
    """Beat the most (or least) frequent of our last ``window`` moves (None: all of them).

    The idea of freeCodeCamp's mrugesh and Billings' freqbot (1999), with the window, the
    target and the tie rule open: ``tie`` is a permutation of "RPS" (a fixed order), "first"
    (the move that entered the window first, as ``Counter.most_common`` has it), "last" (the
    one seen last) or "set" (the first in the iteration order of a ``set`` built from the
    window, as ``max(set(window), key=window.count)`` does: it depends on the hash seed).
    Moves never seen count zero and rank before the others, in R, P, S order (for "set",
    they are added to the set after the window's moves). Nothing seen yet: all three tie.
    """

    family: ClassVar[str] = "counter"

    def __init__(
        self,
        window: int | None = 10,
        target: str = "most",
        tie: str = "first",
        rng: random.Random | None = None,
    ) -> None:
        self.window = _check_window(window)
        if target not in ("most", "least"):
            raise ValueError(f"invalid target {target!r}: expected 'most' or 'least'")
        self.target = target
        self.tie = _check_tie(tie)
        self.name = spec_name(
            self.family, window=WHOLE if window is None else window, target=target, tie=tie
        )
        self.reset()

    def reset(self) -> None:
        # positions (move numbers) of each of our moves still counted, oldest first
        self._positions: tuple[deque[int], ...] = (deque(), deque(), deque())
        self._ring: deque[Move] = deque()
        self._counts = [0, 0, 0]
        self._first = [-1, -1, -1]  # whole history: where each move was first seen
        self._last = [-1, -1, -1]
        self._seen = 0

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
            self._record(their_last)
        return beats(self._target())

    def _record(self, move: Move) -> None:
        if self.window is None:
            self._counts[move] += 1
            if self._first[move] < 0:
                self._first[move] = self._seen
        else:
            if len(self._ring) == self.window:
                self._positions[self._ring.popleft()].popleft()
            self._ring.append(move)
            self._positions[move].append(self._seen)
        self._last[move] = self._seen
        self._seen += 1

    def _target(self) -> Move:
        if self.window is None:
            counts, first = self._counts, self._first
        else:
            counts = [len(p) for p in self._positions]
            first = [p[0] if p else -1 for p in self._positions]
        last = [self._last[m] if counts[m] else -1 for m in range(3)]
        best = max(counts) if self.target == "most" else min(counts)
        tied = [m for m in range(3) if counts[m] == best]
        if len(tied) == 1:
            return tied[0]
        tie = self.tie
        if tie == "first":
            return min(tied, key=lambda m: (first[m], m))
        if tie == "last":
            return max(tied, key=lambda m: (last[m], -m))
        if tie == "set":
            present = sorted((first[m], m) for m in range(3) if counts[m])
            letters: set[str] = set()
            for _, m in present:
                letters.add(LETTERS[m])
            for m in range(3):
                letters.add(LETTERS[m])  # absent ones after the window's (no-op if present)
            count = {LETTERS[m]: counts[m] for m in range(3)}
            pick = max if self.target == "most" else min
            return LETTERS.index(pick(letters, key=count.__getitem__))
        return next(LETTERS.index(letter) for letter in tie if LETTERS.index(letter) in tied)


class ContextCounter:
    """Count what followed our last ``k`` moves and beat the most counted continuation.

    freeCodeCamp's abbey (k = 1 over the whole match) generalised: ``decay`` below 1 shrinks
    a context's older counts each time it recurs; ``rotation`` 1 or 2 second-guesses the
    prediction (plays what beats it shifted once or twice more, Egnor 1999). Ties and
    contexts not seen yet predict the first of R, P, S (abbey's dict order).
    """

    family: ClassVar[str] = "context"

    def __init__(
        self, k: int = 1, decay: float = 1.0, rotation: int = 0, rng: random.Random | None = None
    ) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"invalid k {k!r}: expected an integer of at least 1")
        if isinstance(decay, bool) or not isinstance(decay, (int, float)) or not 0 < decay <= 1:
            raise ValueError(f"invalid decay {decay!r}: expected a number in (0, 1]")
        if rotation not in (0, 1, 2) or isinstance(rotation, bool):
            raise ValueError(f"invalid rotation {rotation!r}: expected 0, 1 or 2")
        self.k, self.decay, self.rotation = k, float(decay), rotation
        self.name = spec_name(self.family, k=k, decay=_number(decay), rotation=rotation)
        self.reset()

    def reset(self) -> None:
        self._recent: deque[Move] = deque(maxlen=self.k)
        self._rows: dict[tuple[Move, ...], list[float]] = {}

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
            if len(self._recent) == self.k:
                row = self._rows.setdefault(tuple(self._recent), [0.0, 0.0, 0.0])
                if self.decay != 1.0:
                    row[0] *= self.decay
                    row[1] *= self.decay
                    row[2] *= self.decay
                row[their_last] += 1
            self._recent.append(their_last)
        counts = self._rows.get(tuple(self._recent))
        prediction = 0 if counts is None else max(range(3), key=counts.__getitem__)
        return (prediction + 1 + self.rotation) % 3


class Reaction:
    """Answer our move ``lag`` rounds back: beat it, copy it or lose to it.

    freeCodeCamp's kris (beat, lag 1) and Billings' copybot (copy) generalised; before
    ``lag`` moves of ours are known, our move is taken to be rock, as kris does.
    """

    family: ClassVar[str] = "reaction"
    SHIFTS: ClassVar[dict[str, int]] = {"beat": 1, "copy": 0, "lose": 2}

    def __init__(self, lag: int = 1, mode: str = "beat", rng: random.Random | None = None) -> None:
        if isinstance(lag, bool) or not isinstance(lag, int) or lag < 1:
            raise ValueError(f"invalid lag {lag!r}: expected an integer of at least 1")
        if mode not in self.SHIFTS:
            raise ValueError(f"invalid mode {mode!r}: expected one of {', '.join(self.SHIFTS)}")
        self.lag, self.mode = lag, mode
        self.name = spec_name(self.family, lag=lag, mode=mode)
        self.reset()

    def reset(self) -> None:
        self._recent: deque[Move] = deque(maxlen=self.lag)

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
            self._recent.append(their_last)
        answered = self._recent[0] if len(self._recent) == self.lag else 0
        return (answered + self.SHIFTS[self.mode]) % 3


class FixedCycle:
    """Play ``pattern`` over and over, whatever we do (freeCodeCamp's quincy, any cycle)."""

    family: ClassVar[str] = "cycle"

    def __init__(self, pattern: str = "RRPPS", rng: random.Random | None = None) -> None:
        if not isinstance(pattern, str) or not pattern or set(pattern) - set(LETTERS):
            raise ValueError(f"invalid pattern {pattern!r}: expected a string of R, P and S")
        self.pattern = tuple(LETTERS.index(letter) for letter in pattern)
        self.name = spec_name(self.family, pattern=pattern)
        self.reset()

    def reset(self) -> None:
        self._turn = 0

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        move = self.pattern[self._turn % len(self.pattern)]
        self._turn += 1
        return move


class Switcher:
    """Play deterministic relatives in turn, ``period`` rounds each (Billings' switcher idea).

    The members are drawn by ``seed`` from :func:`member_grid`'s deterministic counters,
    context counters, reactions and cycles of the short ranges (not the hash-seed dependent
    ones); every member
    sees every move, so the one that takes over plays from an up-to-date state.
    ``member_moves`` is what every member played in the last round, the active one's move
    among them (None before the first): a player that knows the members but not the
    schedule can follow them all (see ``benchmarks/switches.py``).
    """

    family: ClassVar[str] = "switcher"
    MEMBERS: ClassVar[int] = 3

    def __init__(self, period: int = 100, seed: int = 0, rng: random.Random | None = None) -> None:
        if isinstance(period, bool) or not isinstance(period, int) or period < 1:
            raise ValueError(f"invalid period {period!r}: expected a positive integer")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"invalid seed {seed!r}: expected a non-negative integer")
        self.period, self.seed = period, seed
        pool = [
            spec
            for spec in member_grid(noisy=False, wide=False)
            if not spec.startswith(Switcher.family) and "tie=set" not in spec
        ]
        self.members = tuple(random.Random(seed).sample(pool, self.MEMBERS))
        self.name = spec_name(self.family, period=period, seed=seed)
        self.reset()

    def reset(self) -> None:
        self._bots = [make_relative(spec) for spec in self.members]
        self._turn = 0
        self.member_moves: tuple[Move, ...] | None = None

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        moves = self.member_moves = tuple(bot.move(their_last) for bot in self._bots)
        active = (self._turn // self.period) % len(moves)
        self._turn += 1
        return moves[active]


class Noisy:
    """A relative that plays a uniformly random move with probability ``share``.

    ``rule_move`` is the move the inner relative's rule chose in the last round, before the
    noise (None before the first): a player that beats it every round is the best one can be
    against this bot, and since the noise draws do not depend on what the other side plays,
    its record over the same rounds is the best achievable in that very match (see
    :func:`best_rate` for the expectation).
    """

    def __init__(self, inner: Relative, share: float, rng: random.Random | None = None) -> None:
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share < 1:
            raise ValueError(f"invalid noise {share!r}: expected a share in (0, 1)")
        self.inner, self.share = inner, float(share)
        self._rng = rng if rng is not None else random.Random()
        self.name: str = f"{inner.name},noise={_number(share)}"
        self.rule_move: Move | None = None

    def reset(self) -> None:
        self.inner.reset()
        self.rule_move = None

    def move(self, their_last: Move | None) -> Move:
        move = self.rule_move = self.inner.move(
            their_last
        )  # checks their_last, keeps the inner state going
        return self._rng.randrange(3) if self._rng.random() < self.share else move


Relative = RecentCounter | ContextCounter | Reaction | FixedCycle | Switcher | Noisy


# --- specs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """One parameter of a family: its name, how a spec's text becomes a value, its default."""

    name: str
    parse: Callable[[str], object]
    default: str
    help: str


@dataclass(frozen=True)
class Family:
    """A family of relatives: its class and its parameters, in spec order."""

    name: str
    cls: type
    params: tuple[Param, ...]

    def usage(self) -> str:
        return f"{self.name}:" + ",".join(f"{p.name}={p.help}" for p in self.params)


# A spec's numbers as they are typed: ASCII digits, no spaces or underscores (Python's int()
# and float() also take "5_0", " 5" and other scripts' digits, which would then label a
# member with a spelling nobody meant)
INTEGER = re.compile(r"-?[0-9]+")
NUMBER = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


def _int(text: str) -> int:
    if not INTEGER.fullmatch(text):
        raise ValueError(text)
    return int(text)


def _window(text: str) -> int | None:
    return None if text == WHOLE else _int(text)


def _float(text: str) -> float:
    if not NUMBER.fullmatch(text):
        raise ValueError(text)
    return float(text)


FAMILIES: dict[str, Family] = {
    family.name: family
    for family in (
        Family(
            "counter",
            RecentCounter,
            (
                Param("window", _window, "10", f"N|{WHOLE}"),
                Param("target", str, "most", "most|least"),
                Param("tie", str, "first", "first|last|set|RPS (any order)"),
            ),
        ),
        Family(
            "context",
            ContextCounter,
            (
                Param("k", _int, "1", "1 or more"),
                Param("decay", _float, "1", "(0,1]"),
                Param("rotation", _int, "0", "0|1|2"),
            ),
        ),
        Family(
            "reaction",
            Reaction,
            (Param("lag", _int, "1", "1 or more"), Param("mode", str, "beat", "beat|copy|lose")),
        ),
        Family("cycle", FixedCycle, (Param("pattern", str, "RRPPS", "R/P/S string"),)),
        Family(
            "switcher",
            Switcher,
            (Param("period", _int, "100", "rounds"), Param("seed", _int, "0", "members' draw")),
        ),
    )
}
NOISE = "noise"


def spec_name(family: str, **params: object) -> str:
    """The canonical spec of a member: ``family:key=value,...`` in the family's order."""
    return f"{family}:" + ",".join(f"{key}={value}" for key, value in params.items())


def usage() -> str:
    """Every family and its parameters, for error messages."""
    return (
        "; ".join(family.usage() for family in FAMILIES.values())
        + f" (any of them: ,{NOISE}=share)"
    )


def is_relative(name: object) -> bool:
    """Whether ``name`` is spelled like a relative's spec (a known family before a colon)."""
    return isinstance(name, str) and name.split(":", 1)[0] in FAMILIES and ":" in name


def make_relative(spec: str, rng: random.Random | None = None) -> Relative:
    """A fresh member from its spec; ``ValueError`` naming the bad part otherwise."""
    if not is_relative(spec):
        raise ValueError(
            f"invalid relative {spec!r}: expected family:key=value,... with families {usage()}"
        )
    family_name, _, body = spec.partition(":")
    family = FAMILIES[family_name]
    known = {p.name: p for p in family.params}
    values: dict[str, object] = {}
    noise: float | None = None
    # an empty body is every default; an empty item ("window=5,") would make a second
    # spelling, and so a second player, of one member
    for item in body.split(",") if body else ():
        if not item:
            raise ValueError(
                f"invalid relative {spec!r}: an empty parameter (a comma too many); "
                f"expected {family.usage()}"
            )
        key, equals, text = item.partition("=")
        if not equals or (key not in known and key != NOISE) or key in values:
            raise ValueError(
                f"invalid parameter {item!r} in {spec!r}: expected "
                f"{family.usage()} (and optionally {NOISE}=share), each at most once"
            )
        try:
            value = _float(text) if key == NOISE else known[key].parse(text)
        except ValueError:
            raise ValueError(
                f"invalid value {text!r} for {key} in {spec!r}: expected {family.usage()}"
            ) from None
        if key == NOISE:
            noise = value  # type: ignore[assignment]
        else:
            values[key] = value
    for param in family.params:
        values.setdefault(param.name, param.parse(param.default))
    bot = family.cls(**values, rng=rng)
    return bot if noise is None else Noisy(bot, noise, rng)


# --- the benchmark's members ---------------------------------------------------------------

COUNTER_WINDOWS = (2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 50, WHOLE)
COUNTER_TIES = ("RPS", "SPR", "first", "last", "set")
CONTEXT_DECAYS = (1, 0.99, 0.95, 0.9, 0.8)
CONTEXT_ORDERS = (1, 2, 3)
REACTION_LAGS = (1, 2, 3)
CYCLE_LENGTHS = tuple(range(2, 13))
# the wide ranges: the same families one step and more beyond the short ones above, which
# are the ranges the switchers draw their members from
WIDE_COUNTER_WINDOWS = (65, 100, 150, 200)
WIDE_CONTEXT_ORDERS = (4, 5, 6)
WIDE_REACTION_LAGS = (4, 6, 8, 10, 12)
WIDE_CYCLE_LENGTHS = (13, 16, 20, 25, 30, 40)
# beyond the grid: members past the wide ranges, for a benchmark of how far each family's
# mechanism carries (benchmarks/relatives.py --beyond)
BEYOND_COUNTER_WINDOWS = (250, 300, 500, 1000)
BEYOND_CONTEXT_ORDERS = (7, 8, 10, 12, 16, 24, 32, 40, 64)
BEYOND_REACTION_LAGS = (51, 60, 80, 120)
BEYOND_CYCLE_LENGTHS = (41, 45, 50, 60, 80)
NOISE_SHARES = (0.05, 0.1, 0.2)
NOISY_TIES = ("first", "last", "set", "RPS")
SWITCHER_SEEDS = (1, 2, 3, 4)  # the members' draws: seed 2's three counters are near alike


def cycle_patterns(wide: bool = True, lengths: tuple[int, ...] | None = None) -> tuple[str, ...]:
    """Cycles of every length of ``CYCLE_LENGTHS`` (with ``wide``, then of
    ``WIDE_CYCLE_LENGTHS``; or of ``lengths``): two per length, drawn (seeded, the short ones
    first) so that each uses at least two different moves."""
    draw = random.Random(2026)
    patterns: list[str] = []
    if lengths is None:
        lengths = CYCLE_LENGTHS + (WIDE_CYCLE_LENGTHS if wide else ())
    for length in lengths:
        wanted = len(patterns) + 2
        while len(patterns) < wanted:
            pattern = "".join(draw.choice(LETTERS) for _ in range(length))
            if len(set(pattern)) > 1 and pattern not in patterns:
                patterns.append(pattern)
    return tuple(patterns)


def _counters(windows: tuple[int | str, ...], ties: tuple[str, ...]) -> list[str]:
    """Counters of every window, both targets and every tie rule given."""
    return [
        spec_name("counter", window=w, target=t, tie=tie)
        for w in windows
        for t in ("most", "least")
        for tie in ties
    ]


def _contexts(orders: tuple[int, ...], decays: tuple[float, ...]) -> list[str]:
    """Context counters of every order and decay given, at every rotation."""
    return [
        spec_name("context", k=k, decay=_number(d), rotation=r)
        for k in orders
        for d in decays
        for r in (0, 1, 2)
    ]


def _reactions(lags: tuple[int, ...]) -> list[str]:
    """Reactions at every lag given, in every mode."""
    return [spec_name("reaction", lag=lag, mode=mode) for lag in lags for mode in Reaction.SHIFTS]


def beyond_grid() -> tuple[str, ...]:
    """Members past the grid's wide ranges (deterministic, fresh): counters of our last 250 to
    1000 moves, contexts of orders 7 to 64, reactions at lags 51 to 120, cycles of 41 to 80;
    where the engine's mechanisms stop carrying the bar, not a target."""
    members = _counters(BEYOND_COUNTER_WINDOWS, ("first",))
    members += _contexts(BEYOND_CONTEXT_ORDERS, (1, 0.9))
    members += _reactions(BEYOND_REACTION_LAGS)
    members += [spec_name("cycle", pattern=p) for p in cycle_patterns(lengths=BEYOND_CYCLE_LENGTHS)]
    return tuple(members)


def member_grid(noisy: bool = True, wide: bool = True) -> tuple[str, ...]:
    """The benchmark's members: every family with its parameters spread over their range
    (deterministic ones first; each family's short ranges, then with ``wide`` its wide
    ones), then, with ``noisy``, a sample of each family at every noise share."""

    drawn = cycle_patterns(wide)
    members = _counters(COUNTER_WINDOWS, COUNTER_TIES)
    members += _counters(WIDE_COUNTER_WINDOWS, COUNTER_TIES) if wide else []
    members += _contexts(CONTEXT_ORDERS, CONTEXT_DECAYS)
    members += _contexts(WIDE_CONTEXT_ORDERS, CONTEXT_DECAYS) if wide else []
    members += _reactions(REACTION_LAGS) + (_reactions(WIDE_REACTION_LAGS) if wide else [])
    members += [spec_name("cycle", pattern=p) for p in drawn]
    members += [
        spec_name("switcher", period=p, seed=s) for p in (50, 100, 200) for s in SWITCHER_SEEDS
    ]
    if not noisy:
        return tuple(members)
    # counters: every kind of tie rule (first seen, last seen, a set's order, a fixed order)
    sample = [
        spec_name("counter", window=w, target=t, tie=tie)
        for w in (5, 20, WHOLE) + ((100,) if wide else ())
        for t in ("most", "least")
        for tie in NOISY_TIES
    ]
    orders = (1, 2, 3) + ((5,) if wide else ())
    sample += [spec_name("context", k=k, decay=d, rotation=0) for k in orders for d in (1, 0.9)]
    lags = (1, 2, 3) + ((8,) if wide else ())
    sample += [spec_name("reaction", lag=lag, mode="beat") for lag in lags]
    # cycles of length 2, 4, 7, 9 and 12 (and a wide one, 20): the shortest, the longest and
    # three between (of 2, 7, 12 and 20 the first drawn)
    sample += [spec_name("cycle", pattern=p) for p in ("RPPS", "RSPPRSSRP")]
    sample += [
        spec_name("cycle", pattern=next(p for p in drawn if len(p) == n))
        for n in (2, 7, 12) + ((20,) if wide else ())
    ]
    sample += [spec_name("switcher", period=100, seed=1)]
    members += [f"{spec},{NOISE}={_number(e)}" for e in NOISE_SHARES for spec in sample]
    return tuple(members)


def best_rate(noise: float) -> float:
    """The best win rate (of decisive games) against a relative with a ``noise`` share of
    uniformly random moves: its deterministic moves all won, its random ones a third each.
    An expectation: one match's best achievable is its own (see :class:`Noisy`)."""
    return (1 - noise + noise / 3) / (1 - noise + 2 * noise / 3)


def _check_window(window: object) -> int | None:
    if window is not None and (
        isinstance(window, bool) or not isinstance(window, int) or window < 1
    ):
        raise ValueError(
            f"invalid window {window!r}: expected a positive integer, "
            f"or {WHOLE!r} (None) for the whole match"
        )
    return window


def _check_tie(tie: object) -> str:
    if tie in TIE_RULES or (isinstance(tie, str) and sorted(tie) == sorted(LETTERS)):
        return tie
    raise ValueError(
        f"invalid tie {tie!r}: expected one of {', '.join(TIE_RULES)} or an order of RPS"
    )


def _number(value: float) -> str:
    """A share or decay as written in a spec: 1 for 1.0, 0.9 for 0.9."""
    return f"{value:g}"
