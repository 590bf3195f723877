"""The running win rate over a match, drawn with matplotlib (``--plot FILE``).

matplotlib is an optional extra (``pip install -e ".[plot]"``) and is imported lazily, with
the Agg backend through :class:`matplotlib.figure.Figure`, so nothing global (pyplot, the
default backend) is touched. Per-game data comes from two places:

- ``python main.py --plot``: :class:`MoveRecorder` wraps the fCC player and bot callables,
  so ``RPS_game.play`` and its output stay exactly as they are;
- ``python -m roshambo match|headtohead --plot``: :func:`trace_match` replays an arena match
  from its seed (the same players, seeds and move order as ``arena.play_match``) and keeps
  every throw instead of only the counts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ..arena.tournaments import Factory, Player
from ..engine.moves import Move, check_move, outcome, parse_letter, to_letter

PASS_MARK: Final = 60.0
INSTALL_HINT: Final = (
    "--plot needs matplotlib, which is not installed. Install it with\n"
    "    python -m pip install matplotlib\n"
    "or, from this project's folder,\n"
    '    python -m pip install -e ".[plot]"'
)


class MatplotlibMissing(RuntimeError):
    """matplotlib cannot be imported; the message says how to install it."""


class MoveRecorder:
    """An fCC player/bot callable that also records every move it returns."""

    def __init__(self, play: Callable[[str], str]) -> None:
        self._play = play
        self.reset()

    def reset(self) -> None:
        self.moves: list[str] = []

    def __call__(self, prev_play: str) -> str:
        move = self._play(prev_play)
        self.moves.append(move)
        return move


@dataclass(frozen=True)
class MatchTrace:
    """The moves of one match: player 1 (ours) against the named opponent."""

    opponent: str
    player_moves: tuple[str, ...]
    opponent_moves: tuple[str, ...]

    def running_win_rate(self) -> list[float]:
        """Percent of decisive games won after each game (NaN until one is decisive)."""
        return running_win_rate(self.player_moves, self.opponent_moves)


def running_win_rate(mine: Sequence[str], theirs: Sequence[str]) -> list[float]:
    """After each game: wins / (wins + losses) * 100 so far, as fCC's ``play`` counts it.

    Games before the first decisive one have no rate and give NaN (a gap in the plot).
    """
    if len(mine) != len(theirs):
        raise ValueError(f"move lists differ in length: {len(mine)} and {len(theirs)}")
    wins = decisive = 0
    rates: list[float] = []
    for a, b in zip(mine, theirs):
        mine_move, their_move = parse_letter(a), parse_letter(b)
        if mine_move is None or their_move is None:
            raise ValueError(f"a recorded game has an empty move: {a!r} against {b!r}")
        result = outcome(mine_move, their_move)
        decisive += result != 0
        wins += result > 0
        rates.append(wins / decisive * 100 if decisive else math.nan)
    return rates


def trace_match(
    a: Factory, b: Factory, n: int, seed: int, *, label: str | None = None
) -> MatchTrace:
    """The throws of ``arena.play_match(a, b, n, seed)``, from ``a``'s side, against ``label``.

    Players are built and seeded exactly as ``play_match`` builds them (two 64-bit seeds drawn
    from ``seed``, ``a`` first) and move in the same order, so the trace's last running win
    rate is that match's ``win_rate``. ``label`` defaults to ``b``'s player name.
    """
    if n < 0:
        raise ValueError(f"a match needs n >= 0 throws, got {n}")
    seeds = random.Random(seed)
    player_a = a(random.Random(seeds.getrandbits(64)))
    player_b = b(random.Random(seeds.getrandbits(64)))
    moves_a: list[str] = []
    moves_b: list[str] = []
    last_a: Move | None = None
    last_b: Move | None = None
    for _ in range(n):
        last_a, last_b = _checked(player_a, last_b), _checked(player_b, last_a)
        moves_a.append(to_letter(last_a))
        moves_b.append(to_letter(last_b))
    return MatchTrace(player_b.name if label is None else label, tuple(moves_a), tuple(moves_b))


def _checked(player: Player, their_last: Move | None) -> Move:
    move = player.move(their_last)
    try:
        return check_move(move)
    except ValueError as exc:
        raise ValueError(f"{player.name}: {exc}") from None


def require_matplotlib(path: str | Path | None = None) -> None:
    """Raise :class:`MatplotlibMissing` (with install instructions) if matplotlib is absent,
    and a ValueError if ``path``'s extension names a format it cannot write (checked before
    a command plays, not when it draws)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as err:
        raise MatplotlibMissing(INSTALL_HINT) from err
    if path is None:
        return
    extension = Path(path).suffix[1:].lower()
    if not extension:
        return  # matplotlib's default format (PNG)
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    if extension not in formats:
        raise ValueError(
            f"cannot draw to {str(path)!r}: the format {extension!r} is not one matplotlib "
            f"writes ({', '.join(sorted(formats))})"
        )


def draw(traces: Sequence[MatchTrace], path: str | Path, *, player: str = "player 1") -> Path:
    """Draw each match's running win rate, with a dashed line at the 60% pass mark, to ``path``.

    ``player`` names the side whose win rate is drawn, in the title.
    """
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for trace in traces:
        rates = trace.running_win_rate()
        final = rates[-1] if rates and not math.isnan(rates[-1]) else 0.0
        axes.plot(range(1, len(rates) + 1), rates, label=f"{trace.opponent} ({final:.1f}%)")
    axes.axhline(PASS_MARK, color="grey", linestyle="--", label=f"{PASS_MARK:.0f}% pass mark")
    axes.set_ylim(0, 101)
    axes.set_xlabel("game")
    axes.set_ylabel("win rate so far (% of decisive games)")
    axes.set_title(f"Running win rate of {player} against each opponent")
    axes.legend(loc="lower right")
    figure.tight_layout()
    target = Path(path)
    if not target.suffix:  # matplotlib would add ".png" itself: say where it is
        target = target.with_suffix(".png")
    figure.savefig(target)
    return target
