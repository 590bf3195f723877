"""Moves as integers: the beats / rotate / outcome tables and fCC letter parsing."""

from __future__ import annotations

import re

import pytest

from roshambo.engine.moves import (
    ACCEPTED,
    LETTERS,
    MOVES,
    PAPER,
    ROCK,
    SCISSORS,
    beats,
    check_move,
    outcome,
    parse_letter,
    rotate,
    to_letter,
)

R, P, S = ROCK, PAPER, SCISSORS


def test_moves_are_the_integers_0_1_2_in_r_p_s_order() -> None:
    assert (R, P, S) == (0, 1, 2)
    assert MOVES == (R, P, S)
    assert LETTERS == "RPS"


@pytest.mark.parametrize("move, winner", [(R, P), (P, S), (S, R)])
def test_beats_table(move: int, winner: int) -> None:
    assert beats(move) == winner


@pytest.mark.parametrize("move", MOVES)
@pytest.mark.parametrize("k", range(-4, 7))
def test_rotate_is_addition_mod_3(move: int, k: int) -> None:
    assert rotate(move, k) == (move + k) % 3
    assert rotate(move, 1) == beats(move)
    assert rotate(move, 3) == move


OUTCOMES = {
    (R, R): 0,
    (R, P): -1,
    (R, S): +1,
    (P, R): +1,
    (P, P): 0,
    (P, S): -1,
    (S, R): -1,
    (S, P): +1,
    (S, S): 0,
}


@pytest.mark.parametrize("mine, theirs", list(OUTCOMES))
def test_outcome_table(mine: int, theirs: int) -> None:
    assert outcome(mine, theirs) == OUTCOMES[mine, theirs]
    assert outcome(theirs, mine) == -outcome(mine, theirs)
    assert outcome(beats(theirs), theirs) == 1


@pytest.mark.parametrize("letter, move", [("R", R), ("P", P), ("S", S), ("", None)])
def test_parse_letter_accepts_exactly_the_four_values(letter: str, move: int | None) -> None:
    assert parse_letter(letter) == move
    if move is not None:
        assert to_letter(move) == letter


def _names_the_accepted_ones(message: str) -> bool:
    return all(token in message for token in ('"R"', '"P"', '"S"', '""'))


@pytest.mark.parametrize("bad", [None, 1, 0, [], ["R"], b"R", 1.0, True, object])
def test_parse_letter_rejects_non_strings_with_type_error(bad: object) -> None:
    with pytest.raises(TypeError, match=re.escape(repr(bad))) as error:
        parse_letter(bad)
    assert _names_the_accepted_ones(str(error.value)), str(error.value)
    assert ACCEPTED in str(error.value)


@pytest.mark.parametrize(
    "bad", ["X", "r", "p", "s", " R", "R ", " ", "RR", "RP", "\n", "rock", "Ｒ", "R\x00"]
)
def test_parse_letter_rejects_other_strings_with_value_error(bad: str) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(bad))) as error:
        parse_letter(bad)
    assert _names_the_accepted_ones(str(error.value)), str(error.value)


@pytest.mark.parametrize("move", MOVES)
def test_check_move_accepts_0_1_2(move: int) -> None:
    assert check_move(move) == move


@pytest.mark.parametrize("bad", [3, -1, True, False, 1.0, "R", None, "0"])
def test_check_move_rejects_anything_else_naming_it(bad: object) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        check_move(bad)
