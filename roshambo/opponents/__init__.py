"""The opponent zoo: fCC bots, baselines, Billings' test-suite bots, adversaries.

An opponent is a class with a ``name``, ``__init__(rng=None)``, ``reset()`` and
``move(their_last) -> Move`` (:class:`Opponent`). ``OPPONENTS`` is the one registry, and
:func:`make_opponent` the one way to get an opponent by name.

Conventions shared by every opponent: ``their_last`` is the other side's previous move,
``None`` on the first move of a match; a bad value raises ``ValueError`` naming it, before
any state changes. ``reset()`` makes the opponent fresh; without it, state carries over to
the next match (the fCC bots do exactly what the functions in ``RPS_game.py`` do).
Randomness comes only from the injected ``rng`` (``None``: seeded from the OS).

The fCC bots' relatives (:mod:`.relatives`) are named by a spec instead, such as
``counter:window=20,target=least``; :func:`make_opponent` accepts those too.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..engine.moves import Move
from .adversaries import CopyAttacker, EngineCopy, EngineVariant, HedgeReader
from .baselines import FrequencyPlayer, MarkovChainPlayer, RandomPlayer, TreePredictor
from .billings import (
    BiasedBot,
    CopyBot,
    DeBruijnBot,
    DrifterBot,
    FreqBot,
    PiBot,
    RockBot,
    RotateBot,
    SwitcherBot,
)
from .fcc import FccAbbey, FccKris, FccMrugesh, FccQuincy
from .modern import BanditEnsemble, ModernMatcher
from .relatives import FAMILIES, is_relative, make_relative, member_grid, usage


@runtime_checkable
class Opponent(Protocol):
    """The opponent protocol (OpenSpiel's bot API in this project's terms)."""

    name: str

    def __init__(self, rng: random.Random | None = None) -> None: ...

    def reset(self) -> None: ...

    def move(self, their_last: Move | None) -> Move: ...


OPPONENTS: dict[str, type[Opponent]] = {
    # freeCodeCamp
    "quincy": FccQuincy,
    "abbey": FccAbbey,
    "kris": FccKris,
    "mrugesh": FccMrugesh,
    # baselines
    "markov": MarkovChainPlayer,
    "tree": TreePredictor,
    "frequency": FrequencyPlayer,
    "random": RandomPlayer,
    # Billings' test suite
    "rockbot": RockBot,
    "rotatebot": RotateBot,
    "copybot": CopyBot,
    "freqbot": FreqBot,
    "biased": BiasedBot,
    "switcher": SwitcherBot,
    "debruijn": DeBruijnBot,
    "pibot": PiBot,
    "drifter": DrifterBot,
    # adversaries
    "copy-attacker": CopyAttacker,
    "hedge-reader": HedgeReader,
    "engine-copy": EngineCopy,
    "engine-variant": EngineVariant,
    "modern-matcher": ModernMatcher,
    "bandit-ensemble": BanditEnsemble,
}


def canonical_name(name: str) -> str:
    """The one spelling of an opponent: a relative's whole spec (every parameter, in its
    family's order; ``ValueError`` if it is not one), any other name as given."""
    return make_relative(name).name if is_relative(name) else name


def make_opponent(name: str, rng: random.Random | None = None) -> Opponent:
    """A fresh opponent by registry name or relative's spec; ``ValueError`` naming the valid
    ones otherwise."""
    if is_relative(name):
        return make_relative(name, rng)
    cls = OPPONENTS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(
            f"unknown opponent {name!r}: expected one of {', '.join(OPPONENTS)}, "
            f"or a relative's spec: {usage()}"
        )
    return cls(rng=rng)


__all__ = [
    "FAMILIES",
    "OPPONENTS",
    "Opponent",
    "canonical_name",
    "is_relative",
    "make_opponent",
    "make_relative",
    "member_grid",
    "BiasedBot",
    "BanditEnsemble",
    "CopyAttacker",
    "EngineCopy",
    "EngineVariant",
    "HedgeReader",
    "ModernMatcher",
    "CopyBot",
    "DeBruijnBot",
    "DrifterBot",
    "FccAbbey",
    "FccKris",
    "FccMrugesh",
    "FccQuincy",
    "FreqBot",
    "FrequencyPlayer",
    "MarkovChainPlayer",
    "PiBot",
    "RandomPlayer",
    "RockBot",
    "RotateBot",
    "TreePredictor",
    "SwitcherBot",
]
