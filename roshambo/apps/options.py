"""Value types for every command line here (``python -m roshambo``, ``main.py``, ``bench``).

One parser per kind of value, and one message shape: argparse puts the option in front, so
a bad value reads ``argument --games: expected a positive integer, got 'abc'`` wherever it
was typed. Each parser raises ``argparse.ArgumentTypeError``, never a bare ``ValueError``
(which argparse would report by the function's name).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterable


def _bad(expected: str, text: str) -> argparse.ArgumentTypeError:
    return argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")


def integer(text: str) -> int:
    """Any integer (a seed)."""
    try:
        return int(text)
    except ValueError:
        raise _bad("an integer", text) from None


def _int_in(text: str, low: int, high: int | None, expected: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise _bad(expected, text) from None
    if value < low or high is not None and value > high:
        raise _bad(expected, text)
    return value


def positive_int(text: str) -> int:
    """An integer >= 1 (games, repetitions, workers, sizes)."""
    return _int_in(text, 1, None, "a positive integer")


def positive_ints(text: str) -> tuple[int, ...]:
    """A comma-separated list of positive integers, e.g. ``1000,10000``."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    try:
        values = tuple(int(part) for part in parts)
    except ValueError:
        values = ()
    if not values or min(values) < 1:
        raise _bad("comma-separated positive integers", text)
    return values


def seconds(text: str) -> float:
    """A finite number of seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0 or math.isinf(value):
        raise _bad("a positive number of seconds", text)
    return value


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
