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

CAUSES = ("error", "illegal", "timeout")  # a forfeit's causes (see Forfeit)

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
        """The header a run log's first line describes; ``ValueError`` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a run description is an object, not {data!r}")
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}, not {FORMAT}")
        players = data["players"]
        labels = (data["population"], data["candidates"])
        if not isinstance(players, Mapping) or not all(
            isinstance(x, list) and all(isinstance(label, str) for label in x) for x in labels
        ):
            raise ValueError("the players are not lists of labels with their fingerprints")
        return cls(
            _count(data["seed"], "seed"),
            _count(data["n"], "n"),
            _count(data["reps"], "reps"),
            tuple(labels[0]),
            tuple(labels[1]),
            tuple((str(k), str(v)) for k, v in players.items()),
        )


def _count(value: object, what: str) -> int:
    """``value`` if it is a non-negative integer (not a bool, a float or a string)."""
    if type(value) is not int or value < 0:
        raise ValueError(f"{what} {value!r} is not a non-negative integer")
    return value


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
    """The :class:`MatchResult` a run-log line holds; ``ValueError`` naming what is wrong
    (a field missing or of the wrong kind, throws that do not add up to ``n``, a forfeit
    by neither player)."""
    if not isinstance(data, Mapping):
        raise ValueError(f"a match record is an object, not {data!r}")
    player, opponent = data["player"], data["opponent"]
    if not isinstance(player, str) or not isinstance(opponent, str):
        raise ValueError(f"players {player!r} and {opponent!r} are not labels")
    wins, losses, ties = (_count(data[key], key) for key in ("wins", "losses", "ties"))
    n = _count(data["n"], "n")
    if wins + losses + ties != n:
        raise ValueError(f"wins {wins}, losses {losses} and ties {ties} do not add up to n {n}")
    forfeit = data.get("forfeit")
    if forfeit is not None:
        if not isinstance(forfeit, Mapping) or set(forfeit) != {
            "player",
            "round",
            "cause",
            "error",
        }:
            raise ValueError(f"forfeit {forfeit!r} is not a forfeit record")
        who, round_, cause, error = (forfeit[k] for k in ("player", "round", "cause", "error"))
        if (
            who not in (player, opponent)
            or type(round_) is not int
            or not 1 <= round_ <= n
            or cause not in CAUSES
            or not isinstance(error, str)
        ):
            raise ValueError(f"forfeit {dict(forfeit)!r} is not a forfeit of this match")
        forfeit = Forfeit(who, round_, cause, error)
    return MatchResult(
        player=player,
        opponent=opponent,
        wins=wins,
        losses=losses,
        ties=ties,
        seed=_count(data["seed"], "seed"),
        n=n,
        rep=_count(data["rep"], "rep"),
        forfeit=forfeit,
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
        return _count(json.loads(first)["run"]["seed"], "seed")
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
        self.lines: dict[tuple[str, str, int], int] = {}  # where each one is (1-based)
        whole = self._read()
        try:
            self._handle = open(self.path, "ab")
        except OSError as err:  # a place that looked writable (say, under /proc) but is not
            raise ValueError(f"cannot write {str(path)!r}: {err.strerror or err}") from None
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
        except (ValueError, KeyError, TypeError) as exc:
            why = f"no {exc}" if isinstance(exc, KeyError) else str(exc)
            raise ValueError(
                f"{self.path} is not a run log of this arena (its first line is "
                f"not a run description: {why}): choose another --out file"
            ) from None
        if found != self.header:
            raise ValueError(
                f"{self.path} holds another run ({self._difference(found)}): "
                f"rerun the same command to resume it, or choose another --out file"
            )
        for number, line in enumerate(lines[1:], start=2):
            try:
                result = result_from_line(json.loads(line))
                self._check(result)
            except (ValueError, KeyError, TypeError) as exc:
                why = f"no {exc}" if isinstance(exc, KeyError) else str(exc)
                raise ValueError(
                    f"{self.path}, line {number}: not a match record ({why})"
                ) from None
            key = (result.player, result.opponent, result.rep)
            self.done[key] = result
            self.lines[key] = number
        if whole < len(data):
            os.truncate(self.path, whole)
        return whole

    def _check(self, result: MatchResult) -> None:
        """That a record is one of this run's matches (its seed is checked against the
        schedule by the tournament, which draws it)."""
        header = self.header
        labels = {label for label, _ in header.players}
        if result.player not in labels or result.opponent not in labels:
            raise ValueError(
                f"{result.player!r} against {result.opponent!r}: not this run's players"
            )
        if result.n != header.n:
            raise ValueError(f"n {result.n}, but this run plays {header.n} throws a match")
        if result.rep >= header.reps:
            raise ValueError(f"rep {result.rep}, but this run has {header.reps} repetitions")

    def _difference(self, found: RunHeader) -> str:
        """What differs between this run and the log's ``found`` one, in a few words."""
        ours = self.header
        shown = [
            f"{key} {getattr(found, key)!r}, not {getattr(ours, key)!r}"
            for key in ("seed", "n", "reps")
            if getattr(found, key) != getattr(ours, key)
        ]
        if (found.population, found.candidates) != (ours.population, ours.candidates):
            theirs_labels, ours_labels = dict(found.players), dict(ours.players)
            gone = [label for label in theirs_labels if label not in ours_labels]
            new = [label for label in ours_labels if label not in theirs_labels]
            what = [f"{', '.join(gone)} only in the log"] if gone else []
            what += [f"{', '.join(new)} only in this run"] if new else []
            shown.append(", ".join(what) or "the players in another order or role")
        else:
            # a fingerprint names the throws a player is built for: a change of n alone
            # changes every one of them, and is already said
            changed = [
                label
                for (label, theirs), (_, mine) in zip(found.players, ours.players)
                if theirs.replace(f"throws={found.n}", "throws=")
                != mine.replace(f"throws={ours.n}", "throws=")
            ]
            if changed:
                shown.append(f"other code or settings of {', '.join(changed)}")
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
