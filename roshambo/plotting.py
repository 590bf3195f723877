"""The running win rate over a match, drawn with matplotlib (``python main.py --plot FILE``).

matplotlib is an optional extra (``pip install -e ".[plot]"``) and is imported lazily, with
the Agg backend through :class:`matplotlib.figure.Figure`, so nothing global (pyplot, the
default backend) is touched. Per-game data comes from :class:`MoveRecorder`, which wraps the
fCC player and bot callables, so ``RPS_game.play`` and its output stay exactly as they are.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Final, Sequence

from .moves import outcome, parse_letter

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


def require_matplotlib() -> None:
    """Raise :class:`MatplotlibMissing` (with install instructions) if matplotlib is absent."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as err:
        raise MatplotlibMissing(INSTALL_HINT) from err


def draw(traces: Sequence[MatchTrace], path: str | Path) -> Path:
    """Draw each match's running win rate, with a dashed line at the 60% pass mark, to ``path``."""
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
    axes.set_title("Running win rate of player 1 against each opponent")
    axes.legend(loc="lower right")
    figure.tight_layout()
    target = Path(path)
    figure.savefig(target)
    return target
