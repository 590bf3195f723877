"""A copy-attacker from outside: ``RPS.py`` loaded twice, as two module instances.

The attacker holds its own instance of our entry point (its own mutable default, so its
own engine, seeded from the operating system as ours is), shows it every move we are shown,
asks it for the move we are about to play and beats that. All it lacks is our engine's
random seed, which is never derived from anything it can see. Each match loads both
instances afresh (1000 games through ``player(prev_play)``, the fCC way); the score is ours,
+1 a won game and -1 a lost one, as mean ± standard error over the matches. The seeds come
from the operating system, so two runs differ by their noise only.

    python benchmarks/outside_copy.py [--matches 100] [--games 1000] [--workers 2]
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from roshambo.apps import options  # noqa: E402
from roshambo.engine.moves import LETTERS, beats, outcome  # noqa: E402


def load_entry_point(tag: str) -> ModuleType:
    """A fresh module instance of RPS.py (its own ``player`` and mutable default)."""
    spec = importlib.util.spec_from_file_location(f"rps_instance_{tag}", ROOT / "RPS.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def match(number: int, games: int = 1000) -> int:
    """Our score in one match against the outside copy-attacker."""
    ours, copy = load_entry_point(f"ours{number}"), load_entry_point(f"copy{number}")
    theirs_last = ""
    score = 0
    for _ in range(games):
        expected = LETTERS.index(copy.player(theirs_last))  # the copy, shown what we are
        mine = LETTERS.index(ours.player(theirs_last))
        theirs = beats(expected)
        score += outcome(mine, theirs)
        theirs_last = LETTERS[theirs]
    return score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=options.positive_int, default=100)
    parser.add_argument("--games", type=options.positive_int, default=1000)
    parser.add_argument("--workers", type=options.workers, default=2)
    args = parser.parse_args(argv)
    with ProcessPoolExecutor(args.workers) as pool:
        scores = list(pool.map(match, range(args.matches), [args.games] * args.matches))
    mean = statistics.fmean(scores)
    se = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else math.nan
    print(
        f"the engine against a copy of RPS.py loaded beside it: {mean:+.1f} ± {se:.1f} a "
        f"{args.games}-game match over {len(scores)} matches (worst {min(scores):+d}, best "
        f"{max(scores):+d})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
