"""What opponents take from the engine in the opening: the first rounds of many matches.

Against an opponent that simulates our code (the copy-attacker, the hedge-reader) all of the
score is made in the first rounds, before the trust hedge has the evidence to stop
following; the rest of a match is a uniform draw worth 0 in expectation, and only adds noise.
So a change to the hedge is screened on the first ``--rounds`` rounds of many matches: the
mean score (ours, +1 a win, -1 a loss) ± its standard error, the games lost in those
rounds a match (the mean, the most, and how many matches lost at least 5 to 9: the fCC bar
allows about ten a 1000-game match, and the opening is where a match spends them), and per
round the share of matches lost and the share where the engine followed its choice. Match k
seeds the engine with k and the opponent with 10000 + k, so two engines run with the same
arguments meet the same opponents; the per-match scores can be saved (``--json``) and
compared paired.

    python benchmarks/opening.py copy-attacker hedge-reader [--rounds 150] [--matches 200]
    python benchmarks/opening.py quincy --rounds 100 --matches 4000   # the tail of games lost
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roshambo.agent import Agent  # noqa: E402
from roshambo.arena import make_player  # noqa: E402

TAIL = (5, 6, 7, 8, 9)  # games lost a match, counted in the report's tail
OPPONENT_SEED = 10_000  # match k: engine seed k, opponent seed OPPONENT_SEED + k


@dataclass(frozen=True)
class Opening:
    """The engine's score and games lost in each match's first rounds, and per round over
    the matches: how many were lost, and how many followed the engine's choice (did not hedge)."""

    opponent: str
    rounds: int
    scores: tuple[int, ...]
    lost: tuple[int, ...]
    followed: tuple[int, ...]
    losses: tuple[int, ...]  # games lost, per match (``lost`` counts matches, per round)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores)

    @property
    def stderr(self) -> float:
        return statistics.stdev(self.scores) / math.sqrt(len(self.scores)) if len(self.scores) > 1 else math.nan


def play_opening(opponent: str, rounds: int, match: int) -> tuple[int, list[bool], list[bool]]:
    """Match ``match``'s first ``rounds`` rounds: our score, and per round lost / followed."""
    ours = Agent(random.Random(match))
    theirs = make_player(opponent, random.Random(OPPONENT_SEED + match))
    score = 0
    lost: list[bool] = []
    followed: list[bool] = []
    mine = other = None
    for _ in range(rounds):
        a = ours.move(other)
        b = theirs.move(mine)
        result = (a - b) % 3  # 1 we won, 2 we lost
        score += (result == 1) - (result == 2)
        lost.append(result == 2)
        followed.append(not ours.belief().hedging)
        mine, other = a, b
    return score, lost, followed


def measure(opponent: str, rounds: int, matches: int, workers: int = 2) -> Opening:
    """Play the openings of ``matches`` matches against ``opponent`` (in ``workers`` processes)."""
    if rounds < 1 or matches < 1:
        raise ValueError(f"need at least one round and one match, got rounds={rounds}, matches={matches}")
    make_player(opponent)  # a bad name fails here, with the arena's message
    jobs = range(matches)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(play_opening, [opponent] * matches, [rounds] * matches, jobs))
    else:
        results = [play_opening(opponent, rounds, k) for k in jobs]
    lost = [0] * rounds
    followed = [0] * rounds
    for _, match_lost, match_followed in results:
        for r in range(rounds):
            lost[r] += match_lost[r]
            followed[r] += match_followed[r]
    return Opening(opponent, rounds, tuple(score for score, _, _ in results), tuple(lost), tuple(followed),
                   tuple(sum(match_lost) for _, match_lost, _ in results))


def report(opening: Opening, shown: int = 12) -> str:
    """The mean score ± standard error, the games lost a match (mean, most, the tail), and
    the first ``shown`` rounds' shares."""
    n = len(opening.scores)
    head = (f"{opening.opponent}: {opening.mean:+.2f} +- {opening.stderr:.2f} over the first "
            f"{opening.rounds} rounds of {n} matches")
    shown = min(shown, opening.rounds)

    def cells(counts: tuple[int, ...]) -> str:
        return " ".join(f"{c / n:4.2f}" for c in counts[:shown])

    tail = " ".join(f">={k}: {sum(games >= k for games in opening.losses)}" for k in TAIL)
    summary = (f"  games lost a match: mean {statistics.fmean(opening.losses):.2f}, most {max(opening.losses)};"
               f" matches with {tail}")
    return "\n".join([head, summary, f"  round     {' '.join(f'{r + 1:4d}' for r in range(shown))}",
                      f"  lost      {cells(opening.lost)}", f"  followed  {cells(opening.followed)}"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponents", nargs="+", metavar="OPPONENT", help="registry names or specs")
    parser.add_argument("--rounds", type=int, default=150, help="rounds of each match (default 150)")
    parser.add_argument("--matches", type=int, default=200, help="matches per opponent (default 200)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--json", help="also save every match's score to FILE")
    args = parser.parse_args(argv)
    try:
        openings = [measure(name, args.rounds, args.matches, args.workers) for name in args.opponents]
    except ValueError as error:
        parser.error(str(error))
    for opening in openings:
        print(report(opening))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {o.opponent: {"rounds": o.rounds, "scores": list(o.scores)} for o in openings}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
