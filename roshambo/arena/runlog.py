"""Run logs: a tournament streamed to a JSONL file as its matches finish, and resumed from it.

The first line describes the run (``{"run": {...}}``: master seed, throws, repetitions, the
population, the candidates and a fingerprint of every player); each later line is one
finished match (players, repetition, seed, score, throws won/lost/tied, seconds, and the
forfeit if there was one), appended and flushed as it arrives. Reopening the file for the
same run reads the matches already there, so only the rest are played; since every seed is
drawn from the master seed, a run killed at any point and resumed gives exactly the results
of an uninterrupted one. A file that holds another run is refused, naming what differs. A
process killed mid-write leaves a torn last line without its newline: it is dropped (the
file is cut back to the last whole line) and that match is played again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .matches import Factory, Forfeit, MatchResult

FORMAT = 1


def fingerprint(factory: Factory) -> str:
    """What identifies a player's code and settings: its ``fingerprint()`` or its ``repr``."""
    method = getattr(factory, "fingerprint", None)
    return method() if callable(method) else repr(factory)


@dataclass(frozen=True)
class RunHeader:
    """Everything that decides a run's results, as written on a run log's first line."""

    seed: int
    n: int
    reps: int
    population: tuple[str, ...]
    candidates: tuple[str, ...]
    players: tuple[tuple[str, str], ...]

    @classmethod
    def of(
        cls,
        *,
        seed: int,
        n: int,
        reps: int,
        population: tuple[str, ...],
        candidates: tuple[str, ...],
        factories: Mapping[str, Factory],
    ) -> RunHeader:
        players = tuple(
            (label, fingerprint(factories[label])) for label in (*population, *candidates)
        )
        return cls(seed, n, reps, population, candidates, players)

    def to_json(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "seed": self.seed,
            "n": self.n,
            "reps": self.reps,
            "population": list(self.population),
            "candidates": list(self.candidates),
            "players": dict(self.players),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunHeader:  # parsed JSON
        players = data["players"]
        assert isinstance(players, Mapping)
        return cls(
            int(data["seed"]),
            int(data["n"]),
            int(data["reps"]),
            tuple(data["population"]),
            tuple(data["candidates"]),
            tuple((str(k), str(v)) for k, v in players.items()),
        )


def match_line(result: MatchResult, seconds: float) -> dict[str, object]:
    """One finished match as a run-log line."""
    return {
        "player": result.player,
        "opponent": result.opponent,
        "rep": result.rep,
        "seed": result.seed,
        "n": result.n,
        "score": result.score,
        "wins": result.wins,
        "losses": result.losses,
        "ties": result.ties,
        "seconds": round(seconds, 4),
        "forfeit": asdict(result.forfeit) if result.forfeit is not None else None,
    }


def result_from_line(data: Mapping[str, Any]) -> MatchResult:  # parsed JSON
    """The :class:`MatchResult` a run-log line holds."""
    forfeit = data.get("forfeit")
    return MatchResult(
        player=str(data["player"]),
        opponent=str(data["opponent"]),
        wins=int(data["wins"]),
        losses=int(data["losses"]),
        ties=int(data["ties"]),
        seed=int(data["seed"]),
        n=int(data["n"]),
        rep=int(data["rep"]),
        forfeit=Forfeit(**forfeit) if isinstance(forfeit, Mapping) else None,
    )


def read_seed(path: str | Path) -> int | None:
    """The master seed of the run logged in ``path``, or None if there is none yet."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline()
    except FileNotFoundError:
        return None
    if not first.endswith(b"\n"):
        return None
    try:
        return int(json.loads(first)["run"]["seed"])
    except (ValueError, KeyError, TypeError):
        raise ValueError(
            f"{path} is not a run log of this arena (its first line is not a run description)"
        ) from None


class RunLog:
    """An append-only JSONL log of one run; ``done`` maps (player, opponent, rep) to results."""

    def __init__(self, path: str | Path, header: RunHeader) -> None:
        self.path = Path(path)
        self.header = header
        self.done: dict[tuple[str, str, int], MatchResult] = {}
        whole = self._read()
        self._handle = open(self.path, "ab")
        if whole is None:
            self._write({"run": header.to_json()})

    def _read(self) -> int | None:
        """Load a previous run's matches; cut off a torn last line; None for a new file."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        whole = data.rfind(b"\n") + 1
        lines = data[:whole].splitlines()
        if not lines:
            if data:
                os.truncate(self.path, 0)
            return None
        try:
            found = RunHeader.from_json(json.loads(lines[0])["run"])
        except (ValueError, KeyError, TypeError, AssertionError):
            raise ValueError(
                f"{self.path} is not a run log of this arena (its first line is "
                f"not a run description): choose another --out file"
            ) from None
        if found != self.header:
            raise ValueError(
                f"{self.path} holds another run ({self._difference(found)}): "
                f"rerun the same command to resume it, or choose another --out file"
            )
        for number, line in enumerate(lines[1:], start=2):
            try:
                result = result_from_line(json.loads(line))
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(
                    f"{self.path}, line {number}: not a match record ({exc})"
                ) from None
            self.done[(result.player, result.opponent, result.rep)] = result
        if whole < len(data):
            os.truncate(self.path, whole)
        return whole

    def _difference(self, found: RunHeader) -> str:
        ours, theirs = self.header.to_json(), found.to_json()
        fields = [key for key in ours if ours[key] != theirs.get(key)]
        shown = [
            f"{key} {theirs[key]!r}, not {ours[key]!r}"
            for key in fields
            if key in ("seed", "n", "reps")
        ]
        shown += [f"other {key}" for key in fields if key not in ("seed", "n", "reps")]
        return "; ".join(shown)

    def _write(self, data: Mapping[str, object]) -> None:
        self._handle.write(json.dumps(data).encode("utf-8") + b"\n")
        self._handle.flush()

    def record(self, result: MatchResult, seconds: float) -> None:
        """Append one finished match and flush it to the file."""
        self._write(match_line(result, seconds))
        self.done[(result.player, result.opponent, result.rep)] = result

    def close(self) -> None:
        self._handle.close()
