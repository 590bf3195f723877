"""The classic RoShamBo field (Billings 1999/2000) from open_spiel, as opponents.

``pyspiel.roshambo_bot_names()`` lists the 43 bots; :class:`ClassicBot` wraps one into our
opponent protocol. open_spiel is optional and imported lazily; without it every entry point
raises :class:`OpenSpielMissing`, whose message says how to install it.

The bots draw from the C library's ``random()``. We seed it with ``srandom`` (through
``ctypes``) from the injected ``random.Random`` whenever a bot is (re)built, so a match
replays from its seed as long as its players move in a fixed order in one process -- which
is how ``arena.play_match`` runs. Where ``srandom`` is unavailable (Windows), the bots'
randomness is not reproducible.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import random
from types import ModuleType

from ..engine.moves import Move, check_move

INSTALL_HINT = (
    "the classic RoShamBo field needs open_spiel; install it with\n"
    "    pip install open_spiel\n"
    "or, from a checkout of this project,\n"
    '    pip install -e ".[arena]"'
)

# Greenberg crashes open_spiel when built for fewer than 200 throws; the field was written
# for 1000-throw matches, so bots are built for at least that many.
MIN_CAPACITY = 1000


class OpenSpielMissing(ImportError):
    """open_spiel (``pyspiel``) is not installed."""


def load_pyspiel() -> ModuleType:
    """Import ``pyspiel`` or raise :class:`OpenSpielMissing` with the install command."""
    try:
        import pyspiel
    except ImportError as exc:
        raise OpenSpielMissing(INSTALL_HINT) from exc
    return pyspiel


def bot_names() -> tuple[str, ...]:
    """The names of the classic bots, as open_spiel lists them (43 in open_spiel 1.x/2.x)."""
    return tuple(load_pyspiel().roshambo_bot_names())


def check_bot_name(name: str) -> str:
    """Return ``name`` if open_spiel knows it; otherwise raise ``ValueError`` listing them."""
    names = bot_names()
    if name not in names:
        raise ValueError(f"unknown classic bot {name!r}: expected one of {', '.join(names)}")
    return name


def _seed_c_random(seed: int) -> None:
    """Seed the C library's ``random()``, which the classic bots draw from (best effort)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        libc.srandom(ctypes.c_uint(seed))
    except (OSError, AttributeError, TypeError):
        pass


class ClassicBot:
    """One of Billings' classic bots behind our opponent protocol (``reset`` / ``move``).

    It keeps its own open_spiel ``repeated_game`` state; since the protocol only tells it the
    opponent's last move, it remembers its own to apply the pair each turn.
    """

    name = "classic"

    def __init__(
        self, bot_name: str, rng: random.Random | None = None, *, throws: int = MIN_CAPACITY
    ) -> None:
        self._pyspiel = load_pyspiel()
        self.bot_name = check_bot_name(bot_name)
        self.name = f"classic:{bot_name}"
        if throws < 1:
            raise ValueError(f"throws must be >= 1, got {throws}")
        self.capacity = max(throws, MIN_CAPACITY)
        self._seed = (rng if rng is not None else random.Random()).getrandbits(32)
        self.reset()

    def reset(self) -> None:
        _seed_c_random(self._seed)
        game = self._pyspiel.load_game(
            f"repeated_game(stage_game=matrix_rps(),num_repetitions={self.capacity},recall=1)"
        )
        self._state = game.new_initial_state()
        self._bot = self._pyspiel.make_roshambo_bot(0, self.bot_name, self.capacity)
        self._last: Move | None = None

    def move(self, their_last: Move | None) -> Move:
        if their_last is None:
            if self._last is not None:
                raise ValueError(
                    f"{self.name}: their_last is None only on a match's first "
                    "move; call reset() to start a new match"
                )
        else:
            check_move(their_last)
            if self._last is None:
                raise ValueError(
                    f"{self.name}: got their move {their_last!r} before making a first move"
                )
            self._state.apply_actions([self._last, their_last])
        if self._state.is_terminal():
            raise ValueError(
                f"{self.name}: built for {self.capacity} throws; "
                "pass a larger throws= for longer matches"
            )
        self._last = int(self._bot.step(self._state))
        return self._last
