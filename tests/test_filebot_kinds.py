"""Telling rpscontest scripts from Kaggle agents by what the file does (issue #66, 1).

Every file under ``tests/bots/shapes`` reproduces a shape of real public bots. The ones
that can be read one way play "rock first, then beat the opponent's last move", so a match
against a constant rock shows both the detected kind and that the bot really ran that way.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from roshambo.apps.cli import main
from roshambo.arena.filebots import BotSource, kind_lines
from roshambo.arena.tournaments import play_match, resolve
from roshambo.opponents import RockBot

SHAPES = Path(__file__).resolve().parent / "bots" / "shapes"
READABLE = {
    "rpscontest_plain.py": "rpscontest",
    "rpscontest_helpers.py": "rpscontest",
    "rpscontest_global_function.py": "rpscontest",
    "kaggle_global_output.py": "kaggle",
    "kaggle_class.py": "kaggle",
    "kaggle_several_callables.py": "kaggle",
    "kaggle_exec_wrapper.py": "kaggle",
}
REFUSED = ("ambiguous.py", "neither.py")


def test_the_corpus_is_what_the_tests_name() -> None:
    assert sorted(p.name for p in SHAPES.glob("*.py")) == sorted([*READABLE, *REFUSED])


@pytest.mark.parametrize("name, kind", sorted(READABLE.items()))
def test_each_shape_is_read_as_its_kind_and_plays_that_way(name: str, kind: str) -> None:
    spec = str(SHAPES / name)
    assert BotSource.read(spec).kind == kind
    result = play_match(resolve(spec), RockBot, 12, 5)
    assert (result.wins, result.losses, result.ties) == (11, 0, 1), result.forfeit


@pytest.mark.parametrize("name", REFUSED)
def test_ambiguous_and_unreadable_files_are_refused_naming_both_forced_forms(name: str) -> None:
    path = SHAPES / name
    with pytest.raises(ValueError) as caught:
        BotSource.read(str(path))
    message = str(caught.value)
    assert f"rpscontest:{path}" in message and f"kaggle:{path}" in message
    assert name in message


def test_the_refusal_says_why_it_could_be_either() -> None:
    with pytest.raises(
        ValueError,
        match=r"agent\(observation, configuration\).*reads input "
        r"and sets output",
    ):
        BotSource.read(str(SHAPES / "ambiguous.py"))


@pytest.mark.parametrize("kind, wins", [("kaggle", 12), ("rpscontest", 11)])
def test_a_forced_kind_runs_an_ambiguous_file_that_way(kind: str, wins: int) -> None:
    # as a Kaggle agent it always plays paper; as a script rock first, then paper
    result = play_match(resolve(f"{kind}:{SHAPES / 'ambiguous.py'}"), RockBot, 12, 5)
    assert result.wins == wins


def test_a_kaggle_agent_using_a_global_named_output_is_not_an_rpscontest_script() -> None:
    source = BotSource.read(str(SHAPES / "kaggle_global_output.py"))
    assert source.kind == "kaggle"
    assert "myagent(observation, configuration)" in source.describe("x.py")


def test_the_kind_line_says_why_and_how_to_force_the_other() -> None:
    spec = str(SHAPES / "rpscontest_plain.py")
    [line] = kind_lines([resolve(spec)])
    assert line == (
        f"bot file {spec}: runs as an rpscontest script, since its top-level code "
        f"sets output from input (force the other reading with kaggle:{spec})"
    )
    [forced] = kind_lines([resolve(f"kaggle:{spec}")])
    assert forced.endswith("runs as a Kaggle agent (forced)")


def test_match_and_tournament_say_each_bot_files_kind_once(capsys) -> None:
    script = str(SHAPES / "rpscontest_plain.py")
    agent = str(SHAPES / "kaggle_class.py")
    assert main(["match", script, agent, "--games", "5", "--seed", "1"]) == 0
    err = capsys.readouterr().err
    assert (
        err.count("runs as an rpscontest script") == 1 and err.count("runs as a Kaggle agent") == 1
    )
    assert (
        main(
            [
                "tournament",
                script,
                agent,
                "rockbot",
                "--games",
                "5",
                "--seed",
                "1",
                "--workers",
                "1",
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert err.count(f"bot file {script}:") == 1 and err.count(f"bot file {agent}:") == 1


def test_serve_says_each_bot_files_kind_before_its_url(capsys, monkeypatch) -> None:
    import io

    from roshambo.apps import web

    out = io.StringIO()

    def stop(self) -> None:  # the server's loop: stop at once
        raise KeyboardInterrupt

    monkeypatch.setattr(web.ThreadingWSGIServer, "serve_forever", stop)
    web.serve(port=0, out=out, bots=(str(SHAPES / "kaggle_class.py"),))
    lines = out.getvalue().splitlines()
    assert "runs as a Kaggle agent" in lines[0] and "open http://" in lines[1]
