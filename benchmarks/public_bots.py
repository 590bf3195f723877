"""The engine against a folder of public bots: N matches each, paired seeds, mean +- se.

The development population is a folder of bot files that nobody here wrote (rpscontest
scripts and Kaggle agents; see README, "Results"): bring it onto your machine, never commit
it, and name it with ``--bots DIR``. Some need numpy, scikit-learn or kaggle-environments
(``pip install -e ".[bench]"``); every bot runs with the ``numpy1-scalars`` shim unless
``--no-shim`` (a bot that needs none is not affected by it).

    python benchmarks/public_bots.py --bots DIR                    # 48 matches a bot
    python benchmarks/public_bots.py --bots DIR --only a.py,b.py --matches 12
    python benchmarks/public_bots.py --bots DIR --compare HEAD~3   # two engines, paired

Every match's seed is drawn from ``--seed``, the bot's file name and the repetition, so two
runs (or two engines) play each bot with the same seeds whatever else the folder holds. A
bot's line is flagged ``LOSS`` when the engine's mean score is below zero by more than two
standard errors. ``--compare REF`` plays the same matches with the engine of the git ref
REF (a temporary worktree; REF must have ``roshambo.arena.tournaments.play_match`` and ``resolve``) and
reports the paired difference, this tree minus REF, per bot and over all.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from roshambo.apps import options  # noqa: E402 (the checkout's package, put on the path above)
from roshambo.arena.filebots import BotSource  # noqa: E402

SHIM = "numpy1-scalars"

# One worker's matches, played by the engine of the tree on its PYTHONPATH: a JSON list of
# [bot path, repetition, seed] in argv[1]; one JSON line a match out.
# The arena's play_match and resolve, in a tree of this layout or of one from before it
# (350aac0), for the child scripts here and in the scorecard.
ARENA = """
try:
    from roshambo.arena.tournaments import play_match, resolve
except ImportError:  # a tree from before the engine / arena / apps layout
    from roshambo.arena import play_match, resolve
"""
CHILD = (
    ARENA
    + """
import inspect, json, sys
games, shims, jobs = int(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3])
takes_shims = "shims" in inspect.signature(resolve).parameters
ai = resolve("ai", throws=games)
for path, rep, seed in jobs:
    bot = resolve(path, throws=games, **({"shims": tuple(shims)} if takes_shims else {}))
    result = play_match(ai, bot, games, seed)
    forfeit = result.forfeit.error if result.forfeit is not None else None
    print(json.dumps([path, rep, result.wins, result.losses, result.ties, forfeit]), flush=True)
"""
)


@dataclass(frozen=True)
class Match:
    """One match of the engine against a bot file, from the engine's side."""

    bot: str
    rep: int
    wins: int
    losses: int
    ties: int
    forfeit: str | None

    @property
    def score(self) -> int:
        return self.wins - self.losses


@dataclass(frozen=True)
class Line:
    """A bot's matches: the engine's mean score per match and the mean's standard error."""

    bot: str
    matches: int
    mean: float
    se: float
    forfeits: int

    @property
    def significant_loss(self) -> bool:
        return self.mean + 2 * self.se < 0


def match_seed(seed: int, bot: str, rep: int) -> int:
    """A 63-bit seed from the run's seed, the bot's file name and the repetition."""
    digest = hashlib.sha256(f"{seed}/{bot}/{rep}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def bot_files(folder: Path, only: Sequence[str] = ()) -> list[Path]:
    """The ``.py`` files of ``folder``, sorted (``only``: just these file names)."""
    if not folder.is_dir():
        raise ValueError(f"--bots {str(folder)!r} is not a folder")
    files = sorted(folder.glob("*.py"))
    if only:
        missing = sorted(set(only) - {f.name for f in files})
        if missing:
            raise ValueError(f"no bot file {', '.join(missing)} in {folder}")
        files = [f for f in files if f.name in only]
    if not files:
        raise ValueError(f"no bot files (*.py) in {folder}")
    return files


def play(
    tree: Path,
    files: Sequence[Path],
    matches: int,
    games: int,
    seed: int,
    workers: int,
    shims: Sequence[str],
) -> list[Match]:
    """Every bot ``matches`` times against the engine of ``tree``, in ``workers`` processes.

    Each file runs as the kind this tree reads it as (``kaggle:PATH`` or ``rpscontest:PATH``),
    so an older tree's engine meets the bots exactly as this one's does."""
    kinds = {f: BotSource.read(str(f)).kind for f in files}
    jobs = [
        (f"{kinds[f]}:{f}", rep, match_seed(seed, f.name, rep))
        for rep in range(matches)
        for f in files
    ]
    chunks = [jobs[i::workers] for i in range(workers) if jobs[i::workers]]
    argv = [str(games), json.dumps(list(shims))]
    outs = run_children(
        tree, CHILD, [([*argv, json.dumps(chunk)], {}) for chunk in chunks], workers
    )
    rows = [json.loads(line) for out in outs for line in out if line.startswith("[")]
    played = [Match(Path(row[0]).name, *row[1:]) for row in rows]
    return sorted(played, key=lambda m: (m.bot, m.rep))


def run_children(
    tree: Path, code: str, runs: Sequence[tuple[list[str], dict[str, str]]], workers: int
) -> list[list[str]]:
    """Run ``python -c code ARGV`` for each (ARGV, extra environment) of ``runs`` with the
    package of ``tree`` on the path, ``workers`` at once; each run's output lines, in order.
    The hash seed is 0 unless a run sets it (what breaks ties in set order replays)."""
    base = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")

    def run(job: tuple[list[str], dict[str, str]]) -> list[str]:
        argv, extra = job
        done = subprocess.run(
            [sys.executable, "-c", code, *argv],
            capture_output=True,
            text=True,
            cwd=tree,
            env={**base, **extra},
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"a child under {tree} failed: {done.stderr.strip()[-2000:]}")
        return done.stdout.splitlines()

    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(runs)))) as pool:
        return list(pool.map(run, runs))


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error (NaN for fewer than two values)."""
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return mean, se


def lines(matches: Sequence[Match]) -> list[Line]:
    """Per bot, in name order."""
    bots = sorted({m.bot for m in matches})
    out = []
    for bot in bots:
        own = [m for m in matches if m.bot == bot]
        mean, se = mean_se([m.score for m in own])
        out.append(Line(bot, len(own), mean, se, sum(m.forfeit is not None for m in own)))
    return out


def paired(candidate: Sequence[Match], reference: Sequence[Match]) -> list[Line]:
    """Per bot, the candidate's score minus the reference's, match by match (same seeds).

    A pair in which either side's bot forfeited is left out (``forfeits`` counts them): the
    trees may differ in what lets a bot run (a shim an older tree lacks), not in the engine."""
    theirs = {(m.bot, m.rep): m for m in reference}
    bots = sorted({m.bot for m in candidate})
    out = []
    for bot in bots:
        pairs = [(m, theirs[(m.bot, m.rep)]) for m in candidate if m.bot == bot]
        kept = [a.score - b.score for a, b in pairs if a.forfeit is None and b.forfeit is None]
        mean, se = mean_se(kept) if kept else (math.nan, math.nan)
        out.append(Line(bot, len(kept), mean, se, len(pairs) - len(kept)))
    return out


def _cell(mean: float, se: float) -> str:
    return f"{mean:+.1f} ± {se:.1f}" if not math.isnan(se) else f"{mean:+.1f}"


def format_table(rows: Sequence[Line], heading: str) -> str:
    """A table of lines with the mean over the bots (and its standard error) at the foot."""
    width = max(len("bot"), *(len(r.bot) for r in rows))
    text = [f"{'bot'.ljust(width)}  matches  {heading:>15}  forfeits", "-" * (width + 38)]
    for r in rows:
        flag = "  LOSS" if r.significant_loss else ""
        text.append(
            f"{r.bot.ljust(width)}  {r.matches:7d}  {_cell(r.mean, r.se):>15}  "
            f"{r.forfeits:8d}{flag}"
        )
    means = [r.mean for r in rows if not math.isnan(r.mean)] or [math.nan]
    over = math.sqrt(sum(r.se**2 for r in rows if not math.isnan(r.se))) / len(rows)
    text.append("-" * (width + 38))
    text.append(
        f"{'mean over bots'.ljust(width)}  {sum(r.matches for r in rows):7d}  "
        f"{_cell(statistics.fmean(means), over):>15}"
    )
    losses = [r.bot for r in rows if r.significant_loss]
    text.append(f"significant losses: {', '.join(losses) if losses else 'none'}")
    return "\n".join(text)


def commit_of(ref: str) -> str:
    """The commit that the git ref ``ref`` names in this checkout; ``ValueError`` naming
    ``ref`` if it names none (checked before anything runs, so that a typo loses no run)."""
    if not ref.strip() or ref.startswith("-"):  # "-x" would be read as an option of git's
        raise ValueError(f"expected a git ref (a branch, tag or commit), got {ref!r}")
    try:
        done = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as error:
        raise ValueError(f"cannot look up git ref {ref!r}: {error}") from None
    if done.returncode != 0:
        raise ValueError(f"unknown git ref {ref!r}: it names no commit in {REPO}")
    return done.stdout.strip()


def worktree(ref: str, where: Path) -> Path:
    """A detached worktree of ``ref`` under ``where``."""
    path = where / "ref"
    done = subprocess.run(
        ["git", "-C", str(REPO), "worktree", "add", "--detach", str(path), ref],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise ValueError(f"cannot check out {ref!r}: {done.stderr.strip()}")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--bots",
        type=Path,
        required=True,
        metavar="DIR",
        help="the folder of bot files (rpscontest scripts, Kaggle agents)",
    )
    parser.add_argument(
        "--only",
        type=options.names,
        default=[],
        metavar="FILES",
        help="comma-separated file names of the folder to play (default: all)",
    )
    parser.add_argument(
        "--matches", type=options.positive_int, default=48, help="matches per bot (default 48)"
    )
    parser.add_argument(
        "--games", type=options.positive_int, default=1000, help="games per match (default 1000)"
    )
    parser.add_argument(
        "--seed", type=options.seed, default=2026, help="the run's seed (default 2026)"
    )
    parser.add_argument(
        "--workers",
        type=options.workers,
        default=os.cpu_count() or 1,
        help="processes to play in (default: all cores)",
    )
    parser.add_argument(
        "--no-shim", action="store_true", help=f"run the bots without the {SHIM} shim"
    )
    parser.add_argument(
        "--compare",
        metavar="REF",
        default=None,
        help="also play the same matches with the engine of git ref REF",
    )
    parser.add_argument(
        "--json", type=options.output_file, default=None, help="write every match to this file"
    )
    args = parser.parse_args(argv)
    try:
        files = bot_files(args.bots, args.only)
    except ValueError as error:
        parser.error(str(error))
    if args.compare is not None:
        try:
            commit = commit_of(args.compare)
        except ValueError as error:
            parser.error(f"argument --compare: {error}")
    shims = () if args.no_shim else (SHIM,)
    start = time.perf_counter()
    ours = play(REPO, files, args.matches, args.games, args.seed, args.workers, shims)
    print(
        f"the engine of this tree against {len(files)} bots of {args.bots}: {args.matches} "
        f"matches of {args.games} games each, seed {args.seed}"
    )
    print(format_table(lines(ours), "mean score ± se"))
    record: dict[str, object] = {
        "seed": args.seed,
        "games": args.games,
        "matches": [m.__dict__ for m in ours],
    }
    if args.compare is not None:
        with tempfile.TemporaryDirectory() as where:
            tree = worktree(commit, Path(where))
            try:
                theirs = play(tree, files, args.matches, args.games, args.seed, args.workers, shims)
            finally:
                subprocess.run(
                    ["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)],
                    capture_output=True,
                    check=False,
                )
        print()
        print(f"this tree minus {args.compare}, paired by seed:")
        print(format_table(paired(ours, theirs), "difference ± se"))
        record["reference"] = {"ref": args.compare, "matches": [m.__dict__ for m in theirs]}
    if args.json is not None:
        args.json.write_text(json.dumps(record, indent=1), encoding="utf-8")
        print(f"wrote {args.json}")
    print(f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
