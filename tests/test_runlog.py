"""Run logs: every match streamed as it finishes, and a killed run resumed to the same table."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO, python_env
from roshambo.apps.cli import main
from roshambo.arena.runlog import match_line, read_seed, result_from_line
from roshambo.arena.tournaments import Forfeit, MatchResult, Registered, tournament

NAMES = ("rockbot", "rotatebot", "random", "markov")


def entrants(n: int = 40) -> dict[str, Registered]:
    return {name: Registered(name, n) for name in NAMES}


def run(out: Path | None, seed: int = 9, n: int = 40, reps: int = 2, workers: int = 1):
    return tournament(entrants(n), n=n, reps=reps, seed=seed, out=out, workers=workers)


def test_every_match_is_one_line_after_the_run_description(tmp_path) -> None:
    out = tmp_path / "run.jsonl"
    result = run(out)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["run"]["seed"] == 9 and lines[0]["run"]["population"] == list(NAMES)
    assert len(lines) == 1 + len(result.matches) == 1 + 6 * 2
    for line in lines[1:]:
        assert {
            "player",
            "opponent",
            "rep",
            "seed",
            "score",
            "wins",
            "losses",
            "ties",
            "seconds",
            "forfeit",
        } <= set(line)
        assert line["seconds"] >= 0
    assert {result_from_line(line) for line in lines[1:]} == set(result.matches)


@pytest.mark.parametrize("kept", [0, 1, 5, 12])
def test_a_run_cut_anywhere_resumes_to_the_uninterrupted_result(tmp_path, kept: int) -> None:
    whole = run(None)
    full = tmp_path / "full.jsonl"
    run(full, workers=2)
    data = full.read_bytes()
    lines = data.splitlines(keepends=True)
    for torn in (b"", lines[min(kept + 1, len(lines) - 1)][:17]):  # cut clean, or mid-line
        part = tmp_path / f"part{len(torn)}.jsonl"
        part.write_bytes(b"".join(lines[: 1 + kept]) + torn)
        resumed = run(part)
        assert resumed == whole
        records = part.read_text(encoding="utf-8").splitlines()
        assert len(records) == 1 + len(whole.matches)  # the torn line is gone, none doubled
        assert all(json.loads(line) for line in records)


def test_a_finished_run_is_not_played_again(tmp_path, monkeypatch) -> None:
    out = tmp_path / "run.jsonl"
    first = run(out)
    import roshambo.arena.tournaments as arena

    monkeypatch.setattr(arena, "play_match", lambda *a, **k: pytest.fail("played again"))
    assert run(out) == first


@pytest.mark.parametrize(
    "change, complaint",
    [
        ({"seed": 10}, "seed 9, not 10"),
        ({"n": 50}, "n 40, not 50"),
        ({"reps": 3}, "reps 2, not 3"),
    ],
)
def test_a_log_of_another_run_is_refused_and_left_alone(tmp_path, change, complaint) -> None:
    out = tmp_path / "run.jsonl"
    run(out)
    before = out.read_bytes()
    with pytest.raises(ValueError, match=complaint + ".*another --out file"):
        run(out, **change)
    assert out.read_bytes() == before


def test_other_players_are_another_run(tmp_path) -> None:
    out = tmp_path / "run.jsonl"
    run(out)
    with pytest.raises(ValueError, match="markov only in the log"):
        tournament(
            {name: Registered(name, 40) for name in NAMES[:3]}, n=40, reps=2, seed=9, out=out
        )


def test_files_that_are_not_run_logs_are_refused(tmp_path) -> None:
    stranger = tmp_path / "notes.jsonl"
    stranger.write_text('{"hello": 1}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="not a run log"):
        run(stranger)
    with pytest.raises(ValueError, match="not a run log"):
        read_seed(stranger)
    out = tmp_path / "run.jsonl"
    run(out)
    lines = out.read_text(encoding="utf-8").splitlines()
    lines[3] = "{broken"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 4: not a match record"):
        run(out)


@pytest.mark.parametrize(
    "edit, complaint",
    [
        (lambda r: "null", "a match record is an object, not None"),
        (lambda r: [1, 2, 3], r"an object, not \[1, 2, 3\]"),
        (lambda r: {**r, "wins": r["wins"] + 999}, "do not add up to n 40"),
        (lambda r: {**r, "wins": -5}, "wins -5 is not a non-negative integer"),
        (lambda r: {**r, "wins": True}, "wins True is not"),
        (lambda r: {**r, "wins": 3.0}, "wins 3.0 is not"),
        (lambda r: {**r, "wins": 1e400}, "wins inf is not"),
        (lambda r: {**r, "n": 7}, "do not add up to n 7"),
        (lambda r: {k: v for k, v in r.items() if k != "ties"}, "no 'ties'"),
        (lambda r: {**r, "rep": 5}, "rep 5, but this run has 2 repetitions"),
        (lambda r: {**r, "player": "zz"}, "not this run's players"),
        (
            lambda r: {**r, "forfeit": {"player": "zz", "round": "a", "cause": 5, "error": None}},
            "is not a forfeit of this match",
        ),
        (lambda r: {**r, "seed": r["seed"] + 1}, "has seed .* but this run draws"),
        (
            lambda r: {**r, "player": r["opponent"], "opponent": r["player"]},
            "is not scheduled",
        ),
    ],
)
def test_a_doctored_record_is_named_and_nothing_is_played(
    tmp_path, monkeypatch, edit, complaint
) -> None:
    out = tmp_path / "run.jsonl"
    run(out)
    lines = out.read_text(encoding="utf-8").splitlines()
    changed = edit(json.loads(lines[2]))
    lines[2] = changed if isinstance(changed, str) else json.dumps(changed)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = out.read_bytes()
    import roshambo.arena.tournaments as arena

    monkeypatch.setattr(arena, "play_match", lambda *a, **k: pytest.fail("played"))
    with pytest.raises(ValueError, match="line 3: .*" + complaint):
        run(out)
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    "change, complaint",
    [
        ({"seed": 1e400}, "seed inf is not"),
        ({"format": 2}, "format 2, not 1"),
        ({"n": "40"}, "n '40'"),
    ],
)
def test_a_doctored_run_description_is_named(tmp_path, change, complaint) -> None:
    out = tmp_path / "run.jsonl"
    run(out)
    lines = out.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head["run"].update(change)
    lines[0] = json.dumps(head)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not a run description: " + complaint):
        run(out)
    if "seed" in change:  # what the CLI reads first to resume without --seed
        with pytest.raises(ValueError, match="not a run log"):
            read_seed(out)


def test_forfeits_survive_the_round_trip() -> None:
    result = MatchResult(
        "a.py", "b", 1, 9, 0, 5, 10, 3, Forfeit("a.py", 2, "timeout", "timeout: x")
    )
    assert result_from_line(json.loads(json.dumps(match_line(result, 0.25)))) == result


def table_of(output: str) -> str:
    """The printed result without the timing footer and file notes."""
    return "\n".join(
        line
        for line in output.splitlines()
        if not line.startswith(("match log:", "wrote ")) and " matches in " not in line
    )


def test_the_cli_resumes_with_the_logged_seed(tmp_path, capsys) -> None:
    out = tmp_path / "run.jsonl"
    args = ["tournament", *NAMES, "--games", "30", "--workers", "1", "--out", str(out)]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0  # no --seed: the seed comes from the log, nothing is replayed
    assert table_of(capsys.readouterr().out) == table_of(first)
    assert main([*args[:-2], "--out", str(out), "--seed", str(read_seed(out) + 1)]) == 2
    assert "holds another run" in capsys.readouterr().err


def test_a_resumed_run_says_what_it_played_and_what_it_read(tmp_path, capsys) -> None:
    out = tmp_path / "run.jsonl"
    args = ["tournament", *NAMES, "--games", "30", "--seed", "5", "--out", str(out)]
    assert main([*args, "--workers", "2"]) == 0
    assert "6 matches in " in capsys.readouterr().out
    assert main([*args, "--workers", "2"]) == 0  # nothing left to play: no pool
    assert "0 matches in 0.0 s in this process (6 more read from the run log)" in (
        capsys.readouterr().out
    )
    one = ["tournament", "rockbot", "random", "--games", "30", "--workers", "8"]
    assert main(one) == 0  # one match: this process, not a pool of eight
    assert " in this process" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (["--games", "31"], "(n 30, not 31)"),  # not also every player's fingerprint
        (["--seed", "6"], "(seed 5, not 6)"),
        (["--reps", "2"], "(reps 1, not 2)"),
    ],
)
def test_a_log_of_another_run_is_refused_naming_what_differs(
    tmp_path, capsys, change: list[str], said: str
) -> None:
    out = tmp_path / "run.jsonl"
    base = {"--games": "30", "--seed": "5", "--reps": "1"}
    argv = lambda settings, names=("rockbot", "random"): [  # noqa: E731
        "tournament",
        *names,
        *(x for pair in settings.items() for x in pair),
        "--out",
        str(out),
    ]
    assert main(argv(base)) == 0
    capsys.readouterr()
    assert main(argv({**base, change[0]: change[1]})) == 2
    assert f"holds another run {said}: rerun the same command" in capsys.readouterr().err
    assert main(argv(base, ("rockbot", "markov"))) == 2
    assert "(random only in the log, markov only in this run)" in capsys.readouterr().err
    assert main(argv(base, ("random", "rockbot"))) == 2
    assert "(the players in another order or role)" in capsys.readouterr().err


def test_a_log_names_the_bot_file_whose_code_changed(tmp_path, capsys) -> None:
    out, bot = tmp_path / "run.jsonl", tmp_path / "rock.py"
    bot.write_text("output = 'R'\n")
    argv = ["tournament", "rockbot", str(bot), "--games", "20", "--seed", "1", "--out", str(out)]
    assert main(argv) == 0
    bot.write_text("output = 'P'\n")
    assert main(argv) == 2
    assert "(other code or settings of rock.py)" in capsys.readouterr().err


def test_a_run_killed_mid_way_resumes_to_the_same_table(tmp_path, capsys) -> None:
    command = [
        "tournament",
        "ai",
        *NAMES,
        "--games",
        "300",
        "--reps",
        "3",
        "--seed",
        "21",
        "--workers",
        "1",
    ]
    killed = tmp_path / "killed.jsonl"
    child = subprocess.Popen(
        [sys.executable, "-m", "roshambo", *command, "--out", str(killed)],
        cwd=REPO,
        env=python_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if killed.exists() and killed.read_bytes().count(b"\n") >= 4:
                break
            time.sleep(0.02)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait()
    done = killed.read_bytes().count(b"\n") - 1
    assert 3 <= done < 30, "the run should have been killed part-way"
    assert main([*command, "--out", str(killed)]) == 0
    resumed = capsys.readouterr().out
    assert main([*command, "--out", str(tmp_path / "whole.jsonl")]) == 0
    assert table_of(resumed) == table_of(capsys.readouterr().out)
