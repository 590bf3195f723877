"""``python -m roshambo``: every subcommand on tiny sizes, files, errors, missing open_spiel."""
from __future__ import annotations

import json

import pytest

from roshambo.arena import known_names
from roshambo.cli import _load_speed, main

MISSING_PYSPIEL = (
    "import sys; sys.modules['pyspiel'] = None\n"  # makes `import pyspiel` raise ImportError
    "from roshambo.cli import main\n"
    "raise SystemExit(main(['population', '--bots', 'rockbot', '--throws', '10',"
    " '--reps', '1', '--workers', '1']))"
)


def need(*names: str) -> None:
    missing = [name for name in names if name not in known_names()]
    if missing:
        pytest.skip(f"opponents not registered yet: {missing}")


def test_match_is_reproducible_and_prints_its_seed(capsys) -> None:
    assert main(["match", "ai", "ai", "--games", "40", "--seed", "5"]) == 0
    first = capsys.readouterr().out
    assert main(["match", "ai", "ai", "--games", "40", "--seed", "5"]) == 0
    assert capsys.readouterr().out == first
    assert "seed 5" in first and "40 games" in first


def test_unknown_name_exits_nonzero_with_a_message(capsys) -> None:
    assert main(["match", "ai", "nobody", "--games", "5"]) == 2
    assert "unknown player 'nobody'" in capsys.readouterr().err


def test_tournament_writes_csv_and_json(tmp_path, capsys) -> None:
    need("rockbot", "random")
    csv_path, json_path = tmp_path / "t.csv", tmp_path / "t.json"
    code = main(["tournament", "ai", "rockbot", "random", "--games", "30", "--reps", "2",
                 "--seed", "1", "--workers", "1", "--csv", str(csv_path), "--json", str(json_path)])
    out = capsys.readouterr().out
    assert code == 0 and "round robin" in out and "AGG" in out and "seed 1" in out
    assert len(csv_path.read_text(encoding="utf-8").splitlines()) == 1 + 3 * 2
    assert len(json.loads(json_path.read_text(encoding="utf-8"))["matches"]) == 6


def test_headtohead_reports_mean_and_std(capsys) -> None:
    need("rockbot", "rotatebot")
    code = main(["headtohead", "rockbot", "rotatebot", "--games", "30", "--matches", "3",
                 "--seed", "2", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "mean score ± std" in out and "rotatebot" in out


def test_population_smoke_on_two_bots(capsys) -> None:
    pytest.importorskip("pyspiel", reason="the classic field needs open_spiel: pip install open_spiel")
    code = main(["population", "--bots", "rockbot,rotatebot", "--throws", "50", "--reps", "1",
                 "--seed", "3", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0
    for text in ("PR", "PE", "AGG", "classic:greenberg", "classic:iocainebot", "rockbot",
                 "rotatebot", "seed 3"):
        assert text in out
    assert out.splitlines()[4].split()[0] == "ai"  # first row under the header rule


def test_population_without_open_spiel_says_how_to_install(run_python) -> None:
    done = run_python("-c", MISSING_PYSPIEL)
    assert done.returncode != 0
    assert "pip install open_spiel" in done.stderr and ".[arena]" in done.stderr
    assert "Traceback" not in done.stderr


def test_module_entry_point_runs(run_python) -> None:
    done = run_python("-m", "roshambo", "match", "ai", "ai", "--games", "10", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert "ai vs ai: 10 games, seed 1" in done.stdout


def test_bench_runs_on_tiny_sizes(capsys) -> None:
    code = main(["bench", "--sizes", "20,50", "--runs", "2", "--memory-moves", "30"])
    out = capsys.readouterr().out
    assert code == 0 and "µs/move @20" in out and "ratio 50/20" in out and "bytes/move" in out


def test_speed_measure_returns_every_figure() -> None:
    speed = _load_speed()
    assert speed is not None
    players = {"frequency": speed.FrequencyBaseline}
    result = speed.measure(players, sizes=(10, 40), runs=3, memory_moves=25, seed=1)
    assert [(t.player, t.moves, t.runs) for t in result.timings] == [
        ("frequency", 10, 3), ("frequency", 40, 3)]
    assert all(t.seconds_per_move > 0 for t in result.timings)
    assert result.growth("frequency") > 0
    (memory,) = result.memory
    assert memory.moves == 25 and memory.peak_bytes >= 0
    with pytest.raises(ValueError):
        speed.measure(players, sizes=(), runs=1)
