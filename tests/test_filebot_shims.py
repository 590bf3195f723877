"""Compatibility shims given to bot files from outside (``--shim NAME``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from roshambo.apps.cli import main
from roshambo.arena.filebots import SHIMS, check_shims
from roshambo.arena.tournaments import play_match, resolve
from roshambo.opponents import RockBot

BEAT_LAST = str(Path(__file__).resolve().parent / "bots" / "kaggle_beat_last.py")
OLD_NUMPY = """
import numpy as np


def agent(observation, configuration):
    votes = np.array([1])  # a one-element array taken as a number, as NumPy 1 allowed
    return int(votes) + int(float(np.array([0.0])))
"""


def write(tmp_path: Path, source: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text(source, encoding="utf-8")
    return str(path)


def test_unknown_shims_are_named() -> None:
    assert check_shims(("numpy1-scalars",)) == ("numpy1-scalars",)
    with pytest.raises(ValueError, match="unknown shim 'numpy2'.*numpy1-scalars"):
        check_shims(("numpy2",))
    with pytest.raises(ValueError, match="unknown shim"):
        resolve(BEAT_LAST, shims=("numpy2",))


def test_the_numpy1_shim_runs_a_bot_that_numpy2_refuses(tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    path = write(tmp_path, OLD_NUMPY)
    plain = play_match(resolve(path), RockBot, 5, 1)
    try:
        int(np.array([1]))
        refused = False
    except TypeError:
        refused = True
    if refused:  # the forfeit names the real error where no shim is given
        assert plain.forfeit is not None and "TypeError" in plain.forfeit.error
    shimmed = play_match(resolve(path, shims=("numpy1-scalars",)), RockBot, 5, 1)
    assert shimmed.forfeit is None and shimmed.wins == 5  # paper every round


def test_a_shim_is_never_taken_for_the_agent(tmp_path: Path) -> None:
    path = write(tmp_path, "x = 1\n")
    result = play_match(resolve(f"kaggle:{path}", shims=("numpy1-scalars",)), RockBot, 3, 1)
    assert result.forfeit is not None and "defines no callable agent" in result.forfeit.error


def test_the_shims_are_part_of_a_run_logs_fingerprint() -> None:
    spec = BEAT_LAST
    assert "shims" not in resolve(spec).fingerprint()  # type: ignore[attr-defined]
    shimmed = resolve(spec, shims=("numpy1-scalars",))
    assert shimmed.fingerprint().endswith("shims=numpy1-scalars")  # type: ignore[attr-defined]


def test_the_cli_takes_a_shim_and_refuses_an_unknown_one(capsys) -> None:
    assert set(SHIMS) == {"numpy1-scalars"}
    assert (
        main(
            [
                "match",
                BEAT_LAST,
                "rockbot",
                "--games",
                "5",
                "--seed",
                "1",
                "--shim",
                "numpy1-scalars",
            ]
        )
        == 0
    )
    with pytest.raises(SystemExit):
        main(["match", "ai", "rockbot", "--shim", "numpy2"])
    assert (
        "argument --shim: expected a shim: numpy1-scalars, got 'numpy2'" in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "ai", "rockbot", "--games", "5", "--shim", "numpy1-scalars"],
        ["match", "ai", "rockbot", "--games", "5", "--move-timeout", "2"],
        ["tournament", "rockbot", "random", "--games", "5", "--shim", "numpy1-scalars"],
        ["headtohead", "rockbot", "--games", "5", "--move-timeout", "2"],
        ["play", "rockbot", "--shim", "numpy1-scalars"],
    ],
)
def test_options_for_bot_files_are_refused_where_no_player_is_one(capsys, argv) -> None:
    assert main(argv) == 2
    flag = "--shim" if "--shim" in argv else "--move-timeout"
    assert capsys.readouterr().err == (
        f"error: {flag} is for bot files (PATH.py, rpscontest:PATH, kaggle:PATH), "
        "and no player here is one\n"
    )
