"""Moves as small integers, with arithmetic for "beats".

R, P, S = 0, 1, 2 and ``beats(m) = (m + 1) % 3``: paper beats rock, scissors beat paper,
rock beats scissors. A prediction ``p`` of the opponent's next move becomes the three
Iocaine Powder rotations ``(p + 1 + k) % 3`` for k = 0, 1, 2 (Egnor 1999).
"""

from __future__ import annotations

from typing import Final

Move = int

ROCK: Final = 0
PAPER: Final = 1
SCISSORS: Final = 2
MOVES: Final = (ROCK, PAPER, SCISSORS)
# in place of a move where there is none (a silent prediction, no deterministic choice): the
# index after the three moves in tables of them
NO_MOVE: Final = 3
LETTERS: Final = "RPS"
NAMES: Final = ("rock", "paper", "scissors")
ACCEPTED: Final = '"R", "P", "S", or "" to start a match'


def beats(move: Move) -> Move:
    """The move that beats ``move``."""
    return (move + 1) % 3


def rotate(move: Move, k: int) -> Move:
    """``move`` shifted ``k`` steps along R -> P -> S -> R."""
    return (move + k) % 3


def outcome(mine: Move, theirs: Move) -> int:
    """+1 if ``mine`` beats ``theirs``, -1 if it loses, 0 on a tie."""
    return ((mine - theirs + 1) % 3) - 1


def to_letter(move: Move) -> str:
    """0/1/2 -> "R"/"P"/"S"."""
    return LETTERS[move]


def check_move(move: object) -> Move:
    """Return ``move`` if it is one of 0, 1, 2; otherwise raise naming the value."""
    if isinstance(move, bool) or not isinstance(move, int) or move not in MOVES:
        raise ValueError(f"invalid move {move!r}: expected 0 (rock), 1 (paper) or 2 (scissors)")
    return move


def parse_letter(value: object) -> Move | None:
    """Parse an fCC move string: "R"/"P"/"S" -> 0/1/2, "" (match start) -> None.

    Anything else raises before any state anywhere can change: ``TypeError`` for a
    non-string, ``ValueError`` for any other string; both name the value and the accepted ones.
    """
    if not isinstance(value, str):
        raise TypeError(
            f"invalid move {value!r} of type {type(value).__name__}: expected {ACCEPTED}"
        )
    if value == "":
        return None
    index = LETTERS.find(value) if len(value) == 1 else -1
    if index < 0:
        raise ValueError(f"invalid move {value!r}: expected {ACCEPTED}")
    return index
