"""Value types for every command line here (``python -m roshambo``, ``main.py``, ``bench``).

One parser per kind of value, and one message shape: argparse puts the option in front, so
a bad value reads ``argument --games: expected a positive integer, got 'abc'`` wherever it
was typed. Each parser raises ``argparse.ArgumentTypeError``, never a bare ``ValueError``
(which argparse would report by the function's name). An integer is plain decimal digits,
with a leading minus where the range says what a negative one means: ``int()`` alone also
takes ``1_0``, `` 5 ``, ``+5`` and other scripts' digits; a number is likewise plain
decimal (``1``, ``0.25``, ``.5``, ``1e-3``), where ``float()`` would also take ``1_0``, spaces,
``nan`` and ``inf``.
"""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

from ..arena.executors import MAX_LOCAL

T = TypeVar("T", int, str)
DECIMAL = re.compile(r"-?[0-9]+")
NUMBER = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


def _bad(expected: str, text: str) -> argparse.ArgumentTypeError:
    return argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")


def decimal(text: str) -> int | None:
    """``text`` as an integer if it is plain ASCII decimal digits after an optional minus,
    else ``None``."""
    return int(text) if DECIMAL.fullmatch(text) else None


def real(text: str) -> float | None:
    """``text`` as a float if it is a plain decimal number (:data:`NUMBER`), else ``None``."""
    return float(text) if NUMBER.fullmatch(text) else None


def integer(text: str) -> int:
    """Any integer (a seed)."""
    value = decimal(text)
    if value is None:
        raise _bad("an integer", text)
    return value


def seed(text: str) -> int:
    """A seed: an integer >= 0 (``random.Random`` seeds -n as n, so a negative seed would be
    another name for a positive one)."""
    return _int_in(text, 0, None, "a non-negative integer (a seed)")


def output_file(text: str) -> Path:
    """A file to write: not empty, not a directory, in a directory that exists and can be
    written to (checked when the command line is read, so that no run is lost to a bad
    name at its end)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected a file name, got {text!r}")
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a directory, not a file")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text!r}: no directory {str(folder)!r}")
    if not os.access(folder, os.W_OK) or path.exists() and not os.access(path, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text!r}: permission denied")
    return path


def _int_in(text: str, low: int, high: int | None, expected: str) -> int:
    value = decimal(text)
    if value is None or value < low or high is not None and value > high:
        raise _bad(expected, text)
    return value


def positive_int(text: str) -> int:
    """An integer >= 1 (games, repetitions, workers, sizes)."""
    return _int_in(text, 1, None, "a positive integer")


MAX_WORKERS = MAX_LOCAL  # processes a command may start: more is a typo, or a fork bomb
# throws a match may last: a million take minutes and about 100 MB; open_spiel's classic
# bots refuse 2 ** 31 and exhaust memory well before
MAX_GAMES = 1_000_000
MAX_SECONDS = 86_400.0  # a time limit longer than a day is a typo (and overflows a timer)


def games(text: str) -> int:
    """A number of throws per match: 1 to ``MAX_GAMES``."""
    return _int_in(text, 1, MAX_GAMES, f"a number of games from 1 to {MAX_GAMES:,}")


def workers(text: str) -> int:
    """A number of worker processes: 1 to ``MAX_WORKERS``."""
    return _int_in(text, 1, MAX_WORKERS, f"a number of processes from 1 to {MAX_WORKERS}")


def positive_ints(text: str) -> tuple[int, ...]:
    """A comma-separated list of positive integers, e.g. ``1000,10000`` (spaces around the
    commas allowed, as in lists of names)."""
    parsed = [decimal(part.strip(" ")) for part in text.split(",")]
    values = tuple(value for value in parsed if value is not None)
    if not values or len(values) < len(parsed) or min(values) < 1:
        raise _bad("comma-separated positive integers", text)
    twice = _twice(values)
    if twice:
        raise argparse.ArgumentTypeError(f"{', '.join(twice)} given twice in {text!r}")
    return values


def seconds(text: str) -> float:
    """A number of seconds > 0, at most ``MAX_SECONDS``."""
    value = real(text)
    if value is None or not 0 < value <= MAX_SECONDS:
        raise _bad(f"a positive number of seconds up to {MAX_SECONDS:,.0f}", text)
    return value


def positive_number(text: str) -> float:
    """A finite number > 0 (a scale)."""
    value = real(text)
    if value is None or not 0 < value < math.inf:
        raise _bad("a finite number > 0", text)
    return value


def host_name(text: str) -> str:
    """An address to listen on, named: an empty one would listen on every interface
    unasked (say 0.0.0.0 for that)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            f"expected an address (e.g. 127.0.0.1, or 0.0.0.0 for every interface), got {text!r}"
        )
    return text.strip()


def port_number(text: str) -> int:
    """A port to serve on: 0 to 65535 (0 picks a free one)."""
    return _int_in(text, 0, 65535, "a port from 0 to 65535")


def one_of(choices: Iterable[str], what: str) -> Callable[[str], str]:
    """A parser for one of ``choices`` (``what`` names them in the refusal)."""
    known = tuple(choices)

    def parse(text: str) -> str:
        if text not in known:
            raise _bad(f"{what}: {', '.join(known)}", text)
        return text

    return parse


def names(text: str) -> list[str]:
    """A comma-separated list of names (empty entries dropped; '' for none)."""
    return [name.strip() for name in text.split(",") if name.strip()]


def names_once(text: str) -> list[str]:
    """A comma-separated list of names, none twice ('' for none)."""
    found = names(text)
    twice = _twice(found)
    if twice:
        raise argparse.ArgumentTypeError(f"{', '.join(twice)} named twice in {text!r}")
    return found


def some_names(text: str) -> list[str]:
    """A comma-separated list of at least one name, none twice."""
    found = names_once(text)
    if not found:
        raise argparse.ArgumentTypeError(f"expected comma-separated names, got {text!r}")
    return found


def _twice(items: Sequence[T]) -> list[str]:
    """The items that occur more than once, each once, sorted, as text."""
    return [str(item) for item in sorted({item for item in items if items.count(item) > 1})]
