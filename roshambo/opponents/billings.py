"""Darse Billings' test-suite ("dummy") bots, from the published descriptions.

Billings, First International RoShamBo Programming Competition, 1999 (``rsb-ts1.c``):
Good Ole Rock, R-P-S 20-20-60, Rotate R-P-S, Beat Frequent Pick, Pi, De Bruijn; plus bots
in the same spirit from their descriptions (copy, switcher, drifter). Random is
``baselines.RandomPlayer``. ``their_last=None`` means "nothing to observe" (the first move
of a match); state carries over to a second match unless ``reset()`` is called.
"""

from __future__ import annotations

import random
from typing import ClassVar

from ..engine.moves import Move, beats, check_move


class RockBot:
    """Billings' "Good Ole Rock": rock, always."""

    name = "rockbot"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.reset()

    def reset(self) -> None:
        """Rock has no state."""

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        return 0


class RotateBot:
    """Billings' "Rotate R-P-S": rock, paper, scissors, rock, ..."""

    name = "rotatebot"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.reset()

    def reset(self) -> None:
        self._turn = 0

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        choice = self._turn % 3
        self._turn += 1
        return choice


class CopyBot:
    """Copies the opponent's last move; rock first.

    (Billings' own "copybot", "Beat Last Move", plays what beats it; that one is fCC's kris.)
    """

    name = "copybot"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.reset()

    def reset(self) -> None:
        self._theirs: Move = 0

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            self._theirs = check_move(their_last)
        return self._theirs


class FreqBot:
    """Billings' "Beat Frequent Pick": beats the opponent's most frequent move.

    Ties as in the published code: paper only if rock leads outright, else scissors if
    paper outnumbers scissors, else rock (so rock on the first move).
    """

    name = "freqbot"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.reset()

    def reset(self) -> None:
        self._counts = [0, 0, 0]

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            self._counts[check_move(their_last)] += 1
        rock, paper, scissors = self._counts
        if rock > paper and rock > scissors:
            return 1
        if paper > scissors:
            return 2
        return 0


class BiasedBot:
    """Billings' "R-P-S 20-20-60": 20% rock, 20% paper, 60% scissors, independently."""

    name = "biased"
    PROBABILITIES: ClassVar[tuple[float, float, float]] = (0.2, 0.2, 0.6)

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        """Biased random has no state besides its rng."""

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        rock, paper, _ = self.PROBABILITIES
        throw = self._rng.random()
        return 0 if throw < rock else 1 if throw < rock + paper else 2


class SwitcherBot:
    """Switches between simple strategies every SWITCH_EVERY moves (Billings' suite idea).

    Strategies: one fixed move, rotate R-P-S, beat the opponent's last move, beat its most
    frequent move. Each block picks, with the rng, a strategy other than the current one
    (and a fresh fixed move or rotation start).
    """

    name = "switcher"
    SWITCH_EVERY: ClassVar[int] = 50
    STRATEGIES: ClassVar[int] = 4  # 0 fixed, 1 rotate, 2 beat last, 3 beat most frequent

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        self._turn = 0
        self._strategy = -1
        self._base: Move = 0
        self._theirs: Move | None = None
        self._counts = [0, 0, 0]

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            self._counts[check_move(their_last)] += 1
            self._theirs = their_last
        if self._turn % self.SWITCH_EVERY == 0:
            options = [s for s in range(self.STRATEGIES) if s != self._strategy]
            self._strategy = self._rng.choice(options)
            self._base = self._rng.randrange(3)
        step = self._turn % self.SWITCH_EVERY
        self._turn += 1
        if self._strategy == 0:
            return self._base
        if self._strategy == 1:
            return (self._base + step) % 3
        if self._strategy == 2:
            return beats(self._base if self._theirs is None else self._theirs)
        counts = self._counts
        return beats(max(range(3), key=counts.__getitem__))


class DeBruijnBot:
    """Billings' "De Bruijn": a de Bruijn sequence of order 4 over R, P, S, repeated.

    Every window of four consecutive moves (cyclically) occurs exactly once per period of
    81, so no pattern of length up to four beats it. The sequence is generated, not stored
    (Fredricksen-Kessler-Maiorana: concatenated Lyndon words, the lexicographically least).
    """

    name = "debruijn"
    ORDER: ClassVar[int] = 4

    def __init__(self, rng: random.Random | None = None) -> None:
        self._sequence = self.sequence(3, self.ORDER)
        self.reset()

    @staticmethod
    def sequence(k: int, n: int) -> tuple[int, ...]:
        """The least de Bruijn sequence of order ``n`` over ``k`` symbols (length k**n)."""
        word = [0] * (n + 1)
        out: list[int] = []

        def extend(t: int, p: int) -> None:
            if t > n:
                if n % p == 0:
                    out.extend(word[1 : p + 1])
                return
            word[t] = word[t - p]
            extend(t + 1, p)
            for symbol in range(word[t - p] + 1, k):
                word[t] = symbol
                extend(t + 1, t)

        extend(1, 1)
        return tuple(out)

    def reset(self) -> None:
        self._index = 0

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        choice = self._sequence[self._index]
        self._index = (self._index + 1) % len(self._sequence)
        return choice


class PiBot:
    """Billings' "Pi": the decimal digits of pi mod 3, skipping zeros, cycling over DIGITS.

    The digits are computed (Machin's formula in integer arithmetic), not copied.
    """

    name = "pibot"
    DIGITS: ClassVar[int] = 1200

    def __init__(self, rng: random.Random | None = None) -> None:
        self._moves = tuple(d % 3 for d in self.digits(self.DIGITS) if d != 0)
        self.reset()

    @staticmethod
    def digits(count: int) -> tuple[int, ...]:
        """The first ``count`` decimal digits of pi: 3, 1, 4, 1, 5, ..."""
        guard = 10
        unity = 10 ** (count - 1 + guard)

        def arccot(x: int) -> int:
            total = term = unity // x
            square, n, sign = x * x, 3, -1
            while term:
                term //= square
                total += sign * (term // n)
                n, sign = n + 2, -sign
            return total

        pi = 4 * (4 * arccot(5) - arccot(239))
        return tuple(int(c) for c in str(pi // 10**guard)[:count])

    def reset(self) -> None:
        self._index = 0

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        choice = self._moves[self._index]
        self._index = (self._index + 1) % len(self._moves)
        return choice


class DrifterBot:
    """A biased random bot whose probabilities drift slowly as a random walk.

    In the spirit of Billings' drifting dummies (Copy-drift, Add-drift): each move every
    weight takes a Gaussian step of STEP, floored at FLOOR, and the move is drawn from the
    normalised weights, starting from uniform.
    """

    name = "drifter"
    STEP: ClassVar[float] = 0.01
    FLOOR: ClassVar[float] = 0.02

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        self._weights = [1 / 3, 1 / 3, 1 / 3]

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        weights = self._weights
        for m in range(3):
            weights[m] = max(self.FLOOR, weights[m] + self._rng.gauss(0.0, self.STEP))
        total = weights[0] + weights[1] + weights[2]
        for m in range(3):
            weights[m] /= total
        throw = self._rng.random()
        return 0 if throw < weights[0] else 1 if throw < weights[0] + weights[1] else 2

    @property
    def probabilities(self) -> tuple[float, float, float]:
        """The current (last used) probabilities of rock, paper, scissors."""
        rock, paper, scissors = self._weights
        return rock, paper, scissors
