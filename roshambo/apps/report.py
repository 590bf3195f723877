"""Tables and files from arena results: formatting is here, computing in ``arena``.

Every ``format_*`` function returns a string; the CLI decides where it goes. The writers put
match results in CSV (one row per match) and a whole tournament in JSON.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TextIO

from ..arena.tournaments import (
    MatchResult,
    PairSummary,
    PopulationMetrics,
    TournamentResult,
    match_record,
)

CSV_FIELDS = (
    "player",
    "opponent",
    "rep",
    "seed",
    "n",
    "wins",
    "losses",
    "ties",
    "score",
    "win_rate",
    "forfeit",
)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table: first column left-aligned, the others right-aligned."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: list[str]) -> str:
        first = row[0].ljust(widths[0])
        rest = (cell.rjust(width) for cell, width in zip(row[1:], widths[1:]))
        return "  ".join([first, *rest]).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule, *(line(row) for row in cells[1:])])


def rate(wins: int, decisive: int) -> str:
    """A win rate for tables: '66.7%', or '-' before any decisive game (as the browser shows)."""
    return f"{100.0 * wins / decisive:.1f}%" if decisive else "-"


def format_match(result: MatchResult) -> str:
    """One match in a line or two, with its seed."""
    text = (
        f"{result.player} vs {result.opponent}: {result.n} games, seed {result.seed}\n"
        f"  wins {result.wins}  losses {result.losses}  ties {result.ties}  "
        f"score {result.score:+d}  win rate {rate(result.wins, result.decisive)}"
    )
    if result.forfeit is not None:
        text += "\n  " + format_forfeit(result)
    return text


def format_forfeit(result: MatchResult) -> str:
    """'BOT forfeits in round K (error: ...): the rest of the throws count as lost'."""
    forfeit = result.forfeit
    assert forfeit is not None
    return (
        f"{forfeit.player} forfeits in round {forfeit.round} of {result.n} ({forfeit.error}): "
        f"that round and the rest count as lost"
    )


def format_forfeits(result: TournamentResult) -> str:
    """The matches lost by forfeit: who, against whom, which repetition, round and error."""
    rows = [
        (
            m.forfeit.player,
            m.opponent if m.forfeit.player == m.player else m.player,
            m.rep,
            m.forfeit.round,
            m.forfeit.error,
        )
        for m in result.forfeits()
        if m.forfeit is not None
    ]
    return f"forfeits ({len(rows)}; the forfeiting bot loses that round and the rest):\n" + table(
        ("bot", "against", "rep", "round", "error"), rows
    )


def format_metrics(metrics: Sequence[PopulationMetrics], label: str = "candidate") -> str:
    """PR, PE, AGG (Lanctot et al. 2023) and the fCC win rate, one row per candidate."""
    rows = [
        (
            m.candidate,
            f"{m.pr:.1f}",
            f"{m.pe:.1f}",
            f"{m.agg:.1f}",
            m.worst,
            rate(m.wins, m.decisive),
        )
        for m in metrics
    ]
    return table((label, "PR", "PE", "AGG", "worst member", "win rate"), rows)


def _mean_std(summary: PairSummary | None) -> str:
    if summary is None:
        return "-"
    if summary.matches < 2:
        return f"{summary.mean_score:+.1f}"
    return f"{summary.mean_score:+.1f} ± {summary.std_score:.1f}"


def format_population(result: TournamentResult) -> str:
    """Per-member table: each candidate's mean score ± std against each population member."""
    by_pair = {(p.player, p.opponent): p for p in result.pairs()}
    rows = [
        (member, *(_mean_std(by_pair.get((c, member))) for c in result.candidates))
        for member in result.population
    ]
    return table(("member", *result.candidates), rows)


def format_headtohead(result: TournamentResult) -> str:
    """Each candidate against each opponent: mean score ± std, the mean's standard error (std /
    sqrt(matches)), win rate, matches won/lost/drawn."""
    rows = []
    for pair in result.pairs():
        won, lost, drawn = match_record(
            m for m in result.oriented() if (m.player, m.opponent) == (pair.player, pair.opponent)
        )
        error = f"{pair.std_score / pair.matches**0.5:.1f}" if pair.matches > 1 else "-"
        rows.append(
            (
                pair.player,
                pair.opponent,
                pair.matches,
                _mean_std(pair),
                error,
                f"{pair.mean_win_rate:.1f}%" if pair.wins + pair.losses else "-",
                f"{won}/{lost}/{drawn}",
            )
        )
    return table(
        ("player", "opponent", "matches", "mean score ± std", "std error", "win rate", "W/L/D"),
        rows,
    )


def format_standings(result: TournamentResult, matrix: bool = True) -> str:
    """A round robin: metrics per entrant (best AGG first), then (if ``matrix``) the
    cross-table of mean scores."""
    metrics = sorted(result.metrics(), key=lambda m: m.agg, reverse=True)
    ranking = format_metrics(metrics, label="player")
    if not matrix:
        return ranking
    by_pair = {(p.player, p.opponent): p.mean_score for p in result.pairs()}
    names = result.population
    matrix_rows = [
        (f"{i}. {a}", *("·" if a == b else f"{by_pair[(a, b)]:+.0f}" for b in names))
        for i, a in enumerate(names, start=1)
    ]
    cross = table(
        ("row vs column (mean score)", *(str(i) for i in range(1, len(names) + 1))), matrix_rows
    )
    return ranking + "\n\n" + cross


def write_cross_table(path: str | Path, result: TournamentResult) -> None:
    """The round robin's cross-table as CSV: each row player's mean score against each column
    player (empty on the diagonal), in entry order."""
    by_pair = {(p.player, p.opponent): p.mean_score for p in result.pairs()}
    names = result.population
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["player", *names])
        for a in names:
            writer.writerow(
                [a, *("" if a == b else f"{by_pair.get((a, b), 0.0):.3f}" for b in names)]
            )


def format_header(result: TournamentResult) -> str:
    """How the results were produced: sizes and the master seed that reproduces them."""
    kind = "round robin" if result.round_robin else "candidates vs population"
    return (
        f"{kind}: {len(result.population)} entrants, {result.n} games per match, "
        f"{result.reps} repetition(s), {len(result.matches)} matches, seed {result.seed}"
    )


def match_row(result: MatchResult) -> dict[str, object]:
    """One match as a flat dict (the CSV row)."""
    return {
        "player": result.player,
        "opponent": result.opponent,
        "rep": result.rep,
        "seed": result.seed,
        "n": result.n,
        "wins": result.wins,
        "losses": result.losses,
        "ties": result.ties,
        "score": result.score,
        "win_rate": round(result.win_rate, 3),
        "forfeit": result.forfeit.player if result.forfeit is not None else "",
    }


def write_csv(path: str | Path, matches: Sequence[MatchResult]) -> None:
    """Write one row per match (``CSV_FIELDS``)."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for result in matches:
            writer.writerow(match_row(result))


def tournament_dict(result: TournamentResult) -> dict[str, object]:
    """A whole tournament as JSON-ready data: setup, matches, pair summaries, metrics."""
    return {
        "n": result.n,
        "reps": result.reps,
        "seed": result.seed,
        "population": list(result.population),
        "candidates": list(result.candidates),
        "metrics": [asdict(m) for m in result.metrics()],
        "pairs": [asdict(p) for p in result.pairs()],
        "matches": [match_row(m) for m in result.matches],
    }


def write_json(path: str | Path, result: TournamentResult) -> None:
    """Write :func:`tournament_dict` as indented JSON."""
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(tournament_dict(result), handle, indent=2)
        handle.write("\n")


class ProgressBar:
    """A one-line progress bar, redrawn in place (meant for a terminal's stderr)."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = width

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // total if total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} matches")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()
