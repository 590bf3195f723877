"""What running a bot from a file costs: start-up per match and time per move.

A bot from a file runs in its own child process, one per match (``roshambo.arena.filebots``):
each match pays for starting an interpreter and loading the file, and each move for a
round trip over a pipe. Measured here with trivial bots (they answer rock), so what is
timed is the arena's cost, not the bot's: the wall-clock time of ``move`` calls from the
arena's side, for a Kaggle agent and an rpscontest script, beside the same bot as an
in-process class. Start-up is the first move (interpreter, file, first answer); per move is
the median over ``--rounds`` rounds of the mean over the next ``--moves`` moves; the kinds
are interleaved round after round.

    python benchmarks/filebots.py [--moves 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roshambo.apps import options  # noqa: E402
from roshambo.apps.report import table  # noqa: E402
from roshambo.arena.tournaments import make_player  # noqa: E402
from roshambo.opponents import RockBot  # noqa: E402

SOURCES = {
    "kaggle": "def agent(observation, configuration):\n    return 0\n",
    "rpscontest": "output = 'R'\n",
}


def measure(player: object, moves: int) -> tuple[float, float]:
    """(seconds for the first move, mean seconds per later move)."""
    start = time.perf_counter()
    player.move(None)  # type: ignore[attr-defined]
    first = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(moves):
        player.move(0)  # type: ignore[attr-defined]
    per_move = (time.perf_counter() - start) / moves
    close = getattr(player, "close", None)
    if close is not None:
        close()
    return first, per_move


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=options.positive_int, default=2000)
    parser.add_argument("--rounds", type=options.positive_int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        specs = {}
        for kind, source in SOURCES.items():
            path = Path(folder) / f"{kind}_rock.py"
            path.write_text(source, encoding="utf-8")
            specs[kind] = str(path)
        samples: dict[str, list[tuple[float, float]]] = {"in-process class": []}
        samples.update({f"{kind} file": [] for kind in specs})
        for _ in range(args.rounds):
            samples["in-process class"].append(measure(RockBot(), args.moves))
            for kind, spec in specs.items():
                samples[f"{kind} file"].append(
                    measure(make_player(spec, random.Random(1)), args.moves)
                )
    rows = [
        (
            name,
            f"{1000 * statistics.median(f for f, _ in runs):.1f} ms",
            f"{1e6 * statistics.median(m for _, m in runs):.1f} us",
        )
        for name, runs in samples.items()
    ]
    print(f"{args.rounds} interleaved rounds of {args.moves} moves (medians)")
    print(table(("bot", "start-up (first move)", "per move"), rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
