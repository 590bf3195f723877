"""Adversaries: opponents built to exploit our own engine.

The copy-attacker knows our engine's code but not its seed (issue 4): it runs its own copy
of the engine on the same history, seen from our engine's side, and plays what beats the
copy's move. Whatever our engine decides deterministically, the attacker knows in advance;
only our engine's random draws are hidden from it. The hedge-reader goes one step further
and beats what our engine would have played had it not hedged. Self-play opponents are our
engine itself, with another seed or another configuration.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from ..engine.ensemble import EnsembleConfig
from ..engine.moves import Move, beats, check_move


@runtime_checkable
class ShadowableEngine(Protocol):
    """What an engine must offer to be shadowed exactly.

    ``observe(mine, theirs)`` records a finished round with the engine's real move, and
    ``choose()`` picks the next move from the engine's state. With only
    ``move(their_last)``, a copy records its own choices as its moves, and drifts from the
    real engine whenever their random draws differ.
    """

    def reset(self) -> None: ...

    def observe(self, mine: Move, theirs: Move) -> None: ...

    def choose(self) -> Move: ...


class CopyAttacker:
    """Knows our engine's code, not its seed: shadows a copy of it and beats the copy's move.

    Each turn the copy is told the round just played from our engine's point of view: our
    engine's real move (the attacker's ``their_last``) as the copy's own move, and the
    attacker's move as the copy's opponent's. Then:

    - if the copy has ``policy() -> (p_rock, p_paper, p_scissors)``, the attacker plays the
      best response to that exact distribution (ties at random);
    - else, with ``observe`` + ``choose`` (:class:`ShadowableEngine`), it beats ``choose()``;
    - else (an engine with only ``move(their_last)``) it beats ``copy.move(attacker's last
      move)``, which is exact only while the engine's state does not depend on its own
      random choices.

    ``their_last=None`` after the first move starts a new match: the copy starts one as our
    engine does under ``RPS.player`` (``new_match``, or ``reset`` for an engine without
    it). ``engine`` builds the copy from an rng (default: :class:`roshambo.engine.agent.Agent`);
    the copy's seed is drawn from the attacker's rng.
    """

    name = "copy-attacker"

    def __init__(
        self,
        rng: random.Random | None = None,
        engine: Callable[[random.Random], Any] | None = None,
    ) -> None:
        if engine is None:
            from ..engine.agent import Agent  # imported late: the engine may import the opponents

            engine = Agent
        self._rng = rng if rng is not None else random.Random()
        self._engine = engine
        self.reset()

    def reset(self) -> None:
        self._copy: Any = self._engine(random.Random(self._rng.getrandbits(64)))  # any engine
        self._shadows = isinstance(self._copy, ShadowableEngine)
        self._has_policy = self._shadows and callable(getattr(self._copy, "policy", None))
        self._mine: Move | None = None  # the attacker's last move

    @property
    def exact(self) -> bool:
        """Whether the copy is told our engine's real moves (it offers observe + choose)."""
        return self._shadows

    def move(self, their_last: Move | None) -> Move:
        if their_last is not None:
            check_move(their_last)
        elif self._mine is not None:
            getattr(self._copy, "new_match", self._copy.reset)()
            self._mine = None
        if self._shadows:
            choice = self._shadow(their_last)
        else:
            choice = beats(self._copy.move(self._mine))
        self._mine = choice
        return choice

    def _shadow(self, their_last: Move | None) -> Move:
        if their_last is not None and self._mine is not None:
            self._copy.observe(their_last, self._mine)
        if not self._has_policy:
            return beats(self._copy.choose())
        p = self._copy.policy()
        gains = [p[(m - 1) % 3] - p[(m + 1) % 3] for m in range(3)]
        best = max(gains)
        return self._rng.choice([m for m in range(3) if gains[m] >= best - 1e-12])


class HedgeReader(CopyAttacker):
    """A copy-attacker that also reads through our hedge.

    Our engine plays its deterministic choice m unless a Thompson draw sends it to uniform
    random play; whatever the chance h of that draw, the distribution (1 - h) m + h uniform
    is best answered by beating m. The plain copy-attacker beats its copy's *realised* move,
    so it wastes the rounds where its copy's own draw hedged (it gains about (1 - h) ** 2 a
    round); this one asks its copy for the move it intended before its draw
    (``intended()``, see :meth:`roshambo.engine.ensemble.Ensemble.intended_move`) and beats it
    every round our engine can trust at all (about 1 - h), playing at random only when its
    copy intends nothing. The copy needs ``observe``, ``choose`` and ``intended``.
    """

    name = "hedge-reader"

    def reset(self) -> None:
        super().reset()
        if not (self._shadows and callable(getattr(self._copy, "intended", None))):
            raise ValueError(
                f"engine {self._engine!r} offers no observe, choose and intended to read"
            )

    def _shadow(self, their_last: Move | None) -> Move:
        if their_last is not None and self._mine is not None:
            self._copy.observe(their_last, self._mine)
        self._copy.choose()
        intended = self._copy.intended()
        return self._rng.randrange(3) if intended is None else beats(intended)


class EngineCopy:
    """Self-play: our own engine (:class:`roshambo.engine.agent.Agent`) with its own seed, as an
    opponent. ``config`` gives it other meta-level constants. A ``their_last=None`` after
    its first move starts a new match (``new_match``, as ``RPS.player`` does for ours)."""

    name = "engine-copy"
    CONFIG: EnsembleConfig | None = None

    def __init__(self, rng: random.Random | None = None) -> None:
        from ..engine.agent import Agent  # imported late: the engine may import the opponents

        self._agent = Agent(rng if rng is not None else random.Random(), config=self.CONFIG)
        self.reset()

    def reset(self) -> None:
        self._agent.reset()

    def move(self, their_last: Move | None) -> Move:
        if their_last is None and self._agent.started:
            self._agent.new_match()
        return self._agent.move(their_last)


class EngineVariant(EngineCopy):
    """Our engine with another configuration: half-length windows, faster meta-score and
    trust decays. Same predictors, so it models us as we model it, on other horizons."""

    name = "engine-variant"
    CONFIG = EnsembleConfig(windows=(500, 50, 5), meta_decay=0.95, trust_decay=0.95)
