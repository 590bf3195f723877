"""``python -m roshambo``: every subcommand on tiny sizes, files, plots, errors, missing extras."""

from __future__ import annotations

import argparse
import csv
import json
import signal
import time
from pathlib import Path

import pytest

from roshambo.apps import cli
from roshambo.apps.cli import _load_speed, build_parser, main
from roshambo.arena.tournaments import known_names

REPO = Path(__file__).resolve().parent.parent

MISSING_PYSPIEL = (
    "import sys; sys.modules['pyspiel'] = None\n"  # makes `import pyspiel` raise ImportError
    "from roshambo.apps.cli import main\n"
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
    code = main(
        [
            "tournament",
            "ai",
            "rockbot",
            "random",
            "--games",
            "30",
            "--reps",
            "2",
            "--seed",
            "1",
            "--workers",
            "1",
            "--csv",
            str(csv_path),
            "--json",
            str(json_path),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "round robin" in out and "AGG" in out and "seed 1" in out
    assert len(csv_path.read_text(encoding="utf-8").splitlines()) == 1 + 3 * 2
    assert len(json.loads(json_path.read_text(encoding="utf-8"))["matches"]) == 6


def test_headtohead_reports_mean_and_std(capsys) -> None:
    need("rockbot", "rotatebot")
    code = main(
        [
            "headtohead",
            "rockbot",
            "rotatebot",
            "--games",
            "30",
            "--matches",
            "3",
            "--seed",
            "2",
            "--workers",
            "1",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "mean score ± std" in out and "rotatebot" in out


def test_population_smoke_on_two_bots(capsys) -> None:
    pytest.importorskip(
        "pyspiel", reason="the classic field needs open_spiel: pip install open_spiel"
    )
    code = main(
        [
            "population",
            "--bots",
            "rockbot,rotatebot",
            "--throws",
            "50",
            "--reps",
            "1",
            "--seed",
            "3",
            "--workers",
            "1",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    for text in (
        "PR",
        "PE",
        "AGG",
        "classic:greenberg",
        "classic:iocainebot",
        "rockbot",
        "rotatebot",
        "seed 3",
    ):
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
    players = {"frequency": speed.default_players()["frequency"]}
    result = speed.measure(players, sizes=(10, 40), runs=3, memory_moves=25, seed=1)
    # every size plays as many moves: four 10-move matches a round against one of 40
    assert [(t.player, t.moves, t.runs) for t in result.timings] == [
        ("frequency", 10, 12),
        ("frequency", 40, 3),
    ]
    assert all(t.seconds_per_move > 0 for t in result.timings)
    assert result.growth("frequency") > 0
    (memory,) = result.memory
    assert memory.moves == 25 and memory.peak_bytes > 0
    with pytest.raises(ValueError):
        speed.measure(players, sizes=(), runs=1)


def test_bench_times_bot_files_beside_the_engine_at_the_smallest_size(capsys, tmp_path) -> None:
    # a Kaggle agent that prints on every move, and an rpscontest script
    kaggle = tmp_path / "echo.py"
    kaggle.write_text(
        "import random\n"
        "def agent(observation, configuration):\n"
        "    print('noise from the bot')\n"
        "    return random.randrange(configuration.signs)\n"
    )
    script = tmp_path / "rocky.py"
    script.write_text("output = 'R' if input == '' else input\n")
    code = main(
        [
            "bench",
            "--sizes",
            "20,40",
            "--runs",
            "1",
            "--memory-moves",
            "20",
            "--bots",
            str(kaggle),
            f"rpscontest:{script}",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "noise from the bot" not in out
    timings, ratio = out.split("ai / bot")
    rows = {line.split()[0]: line.split()[1:] for line in timings.splitlines() if line.strip()}
    # timed at 20 moves only, no growth ratio, and as a multiple of the engine's time
    assert rows["echo"][1:] == ["-", "-"] and float(rows["echo"][0]) > 0
    assert rows["rocky"][1:] == ["-", "-"]
    assert float(rows["ai"][0]) > 0 and float(rows["ai"][1]) > 0
    assert "echo" in ratio and "rocky" in ratio
    memory = out.split("memory:")[1]
    assert "echo" not in memory and "rocky" not in memory


def test_bench_measures_bot_files_in_the_same_interleaved_run() -> None:
    speed = _load_speed()
    assert speed is not None
    players = {"frequency": speed.default_players()["frequency"]}
    short = {"rock": lambda rng: speed.default_players()["frequency"](rng)}
    result = speed.measure(players, sizes=(10, 40), runs=2, memory_moves=20, seed=1, short=short)
    assert [(t.player, t.moves, t.runs) for t in result.timings] == [
        ("frequency", 10, 8),
        ("rock", 10, 8),
        ("frequency", 40, 2),
    ]
    assert result.growth("rock") is None and result.growth("frequency") > 0
    assert result.bots == ("rock",) and [m.player for m in result.memory] == ["frequency"]
    with pytest.raises(ValueError, match="players named twice: \\['frequency'\\]"):
        speed.measure(players, sizes=(10,), runs=1, short=players)


def test_bench_names_a_bot_file_it_cannot_time(capsys, tmp_path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def agent(observation, configuration):\n    return 1 / 0\n")
    assert main(["bench", "--sizes", "10", "--runs", "1", "--bots", str(broken)]) == 2
    err = capsys.readouterr().err
    assert f"bot file {str(broken)!r} failed while timed: ZeroDivisionError" in err
    assert main(["bench", "--sizes", "10", "--bots", str(tmp_path / "none.py")]) == 2
    assert "none.py" in capsys.readouterr().err
    assert main(["bench", "--breakdown", "--bots", str(broken)]) == 2
    assert "--breakdown takes none of --bots" in capsys.readouterr().err
    speed = _load_speed()
    assert speed is not None
    same = tmp_path / "other"
    same.mkdir()
    (same / "broken.py").write_text("output = 'P'\n")
    labels = speed.bot_players([str(broken), f"rpscontest:{same / 'broken.py'}"])
    assert list(labels) == [str(broken), f"rpscontest:{same / 'broken.py'}"]
    # a bot file named like a player of the run goes by its spec
    (same / "ai.py").write_text("output = 'P'\n")
    assert list(speed.bot_players([str(same / "ai.py")], taken=["ai"])) == [str(same / "ai.py")]


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="the watchdog needs SIGALRM")
@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        (["--matches", "3"], "--matches is for --breakdown"),
        (["--breakdown", "--runs", "5"], "--breakdown takes none of --runs"),
        (["--breakdown", "--memory-moves", "9"], "--breakdown takes none of --memory-moves"),
        (["--breakdown", "--shim", "numpy1-scalars"], "--breakdown takes none of --shim"),
        (["--shim", "numpy1-scalars"], "--shim is for the bot files of --bots, and none is named"),
        (["--bot-timeout", "3"], "--bot-timeout is for the bot files of --bots"),
    ],
)
def test_bench_refuses_an_option_its_mode_would_ignore(capsys, argv, complaint) -> None:
    assert main(["bench", *argv]) == 2
    assert capsys.readouterr().err.startswith(f"error: {complaint}")


def test_the_speed_script_says_a_bad_option_in_one_line(capsys) -> None:
    speed = _load_speed()
    assert speed is not None
    with pytest.raises(SystemExit) as stop:
        speed.main(["--bot-timeout", "10", "--sizes", "10"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == (
        "error: --bot-timeout is for the bot files of --bots, and none is named\n"
    )


def test_bench_refuses_a_bot_file_named_twice_or_not_as_a_file(capsys, tmp_path) -> None:
    bot = tmp_path / "rock.py"
    bot.write_text("output = 'R'\n")
    text = tmp_path / "rock.txt"
    text.write_text("output = 'R'\n")
    assert main(["bench", "--sizes", "10", "--bots", str(text)]) == 2
    assert f"--bots {str(text)!r} is not a bot file: expected PATH.py" in capsys.readouterr().err
    other = str(tmp_path / ".." / tmp_path.name / "rock.py")
    for second in (str(bot), other, f"rpscontest:{bot}"):
        assert main(["bench", "--sizes", "10", "--bots", str(bot), second]) == 2
        err = capsys.readouterr().err
        assert err == f"error: --bots names one file twice: {str(bot)!r} and {second!r}\n"


@pytest.mark.parametrize(
    "source",
    [
        # an rpscontest script asleep in its second move, a Kaggle agent spinning that
        # swallows every Exception
        "import time\nif input:\n    time.sleep(3600)\noutput = 'R'\n",
        "def agent(observation, configuration):\n    while observation.step:\n"
        "        try:\n            pass\n        except Exception:\n            pass\n"
        "    return 0\n",
    ],
)
def test_bench_stops_a_bot_file_move_that_runs_past_its_timeout(capsys, tmp_path, source) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text(source)
    start = time.monotonic()
    argv = ["bench", "--sizes", "10", "--runs", "1", "--bot-timeout", "0.2", "--bots", str(slow)]
    assert main(argv) == 2
    assert time.monotonic() - start < 30
    err = capsys.readouterr().err
    assert f"bot file {str(slow)!r} took over 0.2 s for a move while timed (--bot-timeout)" in err
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # the timer is disarmed
    for bad in ("0", "1e10"):  # (1e10 s overflowed the timer, at the bot's second move)
        with pytest.raises(SystemExit):
            main(["bench", "--bot-timeout", bad])
        assert (
            f"argument --bot-timeout: expected a positive number of seconds up to 86,400, "
            f"got '{bad}'" in capsys.readouterr().err
        )


def test_bench_breakdown_accounts_for_every_predictor_in_chains(capsys) -> None:
    from roshambo.engine.predictors import PREDICTORS

    speed = _load_speed()
    assert speed is not None
    result = speed.measure_breakdown(moves=40, matches=2, seed=3)
    assert (result.moves, result.matches, result.seed) == (40, 2, 3)
    names = {name for name, _ in result.predictors}
    # every predictor, and every shared feature (named in brackets) that they read
    assert {name for name in names if not name.startswith("[")} == set(PREDICTORS)
    assert "[counts-mine@200>their]" in names and "[index-both@1000]" in names
    costs = [cost for _, cost in result.predictors]
    assert costs == sorted(costs, reverse=True) and min(costs) >= 0.0
    assert result.engine > 0.0 and result.meta > 0.0 and result.chain > 0.0
    assert result.chains(result.chain) == 1.0
    code = main(["bench", "--breakdown", "--sizes", "30", "--matches", "1"])
    out = capsys.readouterr().out
    assert (
        code == 0
        and "its meta levels alone" in out
        and "windows200-mine" in out
        and "chains" in out
    )
    with pytest.raises(SystemExit) as refused:
        main(["bench", "--breakdown", "--sizes", "30", "--matches", "0"])
    assert refused.value.code == 2
    assert "argument --matches: expected a positive integer, got '0'" in capsys.readouterr().err


def test_bench_breakdown_replays_the_engine_or_says_why_not(monkeypatch) -> None:
    speed = _load_speed()
    assert speed is not None
    # a predictor drawing from the engine's generator (the random guess, in a line-up that
    # has it): replayed, it would leave the engine's own draws out of step, and the
    # breakdown must say so rather than time another match; run live, it replays
    from roshambo.engine import ensemble
    from roshambo.engine.predictors import PREDICTORS, RandomGuess

    lineup = {**PREDICTORS, "random": lambda rng: RandomGuess(rng)}
    monkeypatch.setattr(ensemble, "PREDICTORS", lineup)
    monkeypatch.setattr(speed, "LIVE", ())
    with pytest.raises(RuntimeError, match="missing from LIVE"):
        speed.measure_breakdown(moves=300, matches=1, seed=0)
    monkeypatch.setattr(speed, "LIVE", ("random",))
    breakdown = speed.measure_breakdown(moves=300, matches=1, seed=0)
    assert "random" in dict(breakdown.predictors)


# --- --plot -------------------------------------------------------------------------------

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
NEEDS_MATPLOTLIB = "matplotlib is an optional extra: pip install -e '.[plot]'"
WITHOUT_MATPLOTLIB = (
    "import sys; sys.modules['matplotlib'] = None\n"  # makes `import matplotlib` raise ImportError
    "from roshambo.apps.cli import main\n"
    "raise SystemExit(main(sys.argv[1:]))"
)


def test_match_plot_writes_a_png_after_the_result(tmp_path, capsys) -> None:
    pytest.importorskip("matplotlib", reason=NEEDS_MATPLOTLIB)
    target = tmp_path / "match.png"
    assert main(["match", "ai", "kris", "--games", "60", "--seed", "5", "--plot", str(target)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ai vs kris: 60 games, seed 5") and out.endswith(f"wrote {target}\n")
    assert target.read_bytes().startswith(PNG_MAGIC)


def test_headtohead_plot_draws_the_first_match_against_each_opponent(
    tmp_path, capsys, monkeypatch
) -> None:
    pytest.importorskip("matplotlib", reason=NEEDS_MATPLOTLIB)
    need("rockbot", "rotatebot")
    drawn = []
    real_draw = cli.draw

    def spy(traces, path, *, player):
        drawn.append((traces, player))
        return real_draw(traces, path, player=player)

    monkeypatch.setattr(cli, "draw", spy)
    target, csv_path = tmp_path / "h2h.png", tmp_path / "h2h.csv"
    code = main(
        [
            "headtohead",
            "rockbot",
            "rotatebot",
            "--games",
            "40",
            "--matches",
            "3",
            "--seed",
            "2",
            "--workers",
            "1",
            "--csv",
            str(csv_path),
            "--plot",
            str(target),
        ]
    )
    assert code == 0 and capsys.readouterr().out.endswith(f"wrote {target}\n")
    assert target.read_bytes().startswith(PNG_MAGIC)
    ((traces, player),) = drawn
    assert player == "ai (first of 3 matches)"
    assert [trace.opponent for trace in traces] == ["rockbot", "rotatebot"]
    with csv_path.open(encoding="utf-8") as rows:
        first = {row["opponent"]: row for row in csv.DictReader(rows) if row["rep"] == "0"}
    for trace in traces:  # each curve ends at its match's win rate in the CSV
        assert trace.running_win_rate()[-1] == pytest.approx(
            float(first[trace.opponent]["win_rate"]), abs=0.01
        )


@pytest.mark.parametrize(
    "command",
    [
        ["match", "ai", "kris", "--games", "20", "--seed", "1"],
        ["headtohead", "rockbot", "--games", "20", "--matches", "2", "--workers", "1"],
    ],
)
def test_plot_without_matplotlib_says_how_to_install_and_fails(
    run_python, tmp_path, command
) -> None:
    target = tmp_path / "never.png"
    done = run_python("-c", WITHOUT_MATPLOTLIB, *command, "--plot", str(target))
    assert done.returncode != 0
    assert "pip install matplotlib" in done.stderr and 'pip install -e ".[plot]"' in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""  # it fails before playing, not after
    assert not target.exists()


def test_plot_to_an_unwritable_place_is_refused_before_playing(tmp_path, capsys) -> None:
    target = tmp_path / "missing-folder" / "match.png"
    with pytest.raises(SystemExit) as exit_:
        main(["match", "ai", "kris", "--games", "10", "--seed", "1", "--plot", str(target)])
    assert exit_.value.code == 2
    captured = capsys.readouterr()  # one read: a second would find both streams empty
    assert "argument --plot: cannot write" in captured.err and "no directory" in captured.err
    assert captured.out == ""  # refused before the match was played or printed


def test_a_plot_format_matplotlib_cannot_write_is_refused_before_playing(tmp_path, capsys) -> None:
    pytest.importorskip("matplotlib")
    target, table = tmp_path / "match.xyz", tmp_path / "h.csv"
    assert main(["match", "ai", "kris", "--games", "10", "--plot", str(target)]) == 2
    captured = capsys.readouterr()
    assert f"error: cannot draw to {str(target)!r}: the format 'xyz' is not one" in captured.err
    assert "png" in captured.err and captured.out == ""  # the formats it writes; nothing played
    argv = ["headtohead", "rockbot", "--games", "5", "--plot", str(target), "--csv", str(table)]
    assert main(argv) == 2
    assert "the format 'xyz'" in capsys.readouterr().err and not table.exists()
    assert main(["match", "ai", "kris", "--games", "10", "--plot", str(tmp_path / "m.SVG")]) == 0
    assert (tmp_path / "m.SVG").exists()  # an extension in capitals is still the format


def test_a_plot_that_fails_to_write_at_the_end_is_an_error_not_a_traceback(
    tmp_path, capsys, monkeypatch
) -> None:
    def refuse(traces, path, *, player):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cli, "draw", refuse)
    monkeypatch.setattr(cli, "require_matplotlib", lambda path=None: None)
    target = tmp_path / "match.png"
    assert main(["match", "ai", "kris", "--games", "10", "--seed", "1", "--plot", str(target)]) == 2
    assert f"could not write the plot to {target}" in capsys.readouterr().err


# --- play ---------------------------------------------------------------------------------


def test_play_defaults_to_our_engine_and_explains(run_python) -> None:
    done = run_python("-m", "roshambo", "play", "--explain", stdin="r\np\nq\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Rock, paper, scissors against ai.")
    assert done.stdout.count("Mode:") == 2
    assert "Game over (quit) after 2 rounds" in done.stdout


def test_play_takes_a_registry_name_and_a_seed(run_python) -> None:
    need("random")
    moves = "r\np\ns\n" * 4
    first = run_python("-m", "roshambo", "play", "random", "--seed", "3", stdin=moves)
    again = run_python("-m", "roshambo", "play", "random", "--seed", "3", stdin=moves)
    assert first.returncode == 0, first.stderr
    assert "Round 12: you scissors, random " in first.stdout
    assert again.stdout == first.stdout


@pytest.mark.parametrize(
    "args, complaint",
    [
        (["play", "nobody"], "unknown player 'nobody'"),
        (["play", "kris", "--explain"], "kris has none to show"),
    ],
)
def test_play_refuses_bad_requests_before_the_session(capsys, args, complaint) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert complaint in captured.err and captured.out == ""


# --- one dialect: every option of a kind refuses a bad value the same way ------------------


@pytest.mark.parametrize(
    "argv, option, value",
    [
        (["match", "ai", "rockbot", "--games", "abc"], "--games", "abc"),
        (["tournament", "ai", "rockbot", "--games", "0"], "--games", "0"),
        (["headtohead", "rockbot", "--reps", "x"], "--reps", "x"),
        (["population", "--games", "-3"], "--games", "-3"),
        (["tournament", "ai", "rockbot", "--workers", "two"], "--workers", "two"),
        (["match", "ai", "rockbot", "--seed", "1.5"], "--seed", "1.5"),
        (["bench", "--sizes", "abc"], "--sizes", "abc"),
        (["bench", "--sizes", "100,0"], "--sizes", "100,0"),
        (["bench", "--runs", "none"], "--runs", "none"),
        (["serve", "--port", "70000"], "--port", "70000"),
        (["serve", "--max-games", "0"], "--max-games", "0"),
        (["play", "--seed", "x"], "--seed", "x"),
        # int() would read each of these: underscores, spaces, a plus, another script's digit
        (["match", "ai", "rockbot", "--games", "1_0"], "--games", "1_0"),
        (["match", "ai", "rockbot", "--seed", " 7 "], "--seed", " 7 "),
        (["headtohead", "rockbot", "--reps", "+2"], "--reps", "+2"),
        (["tournament", "ai", "rockbot", "--workers", "\u0662"], "--workers", "\u0662"),
        (["bench", "--sizes", "1000,2_000"], "--sizes", "1000,2_000"),
        (["serve", "--port", "8_000"], "--port", "8_000"),
        # and float() these
        (["match", "ai", "rockbot", "--move-timeout", "1_0"], "--move-timeout", "1_0"),
        (["match", "ai", "rockbot", "--move-timeout", " 2"], "--move-timeout", " 2"),
    ],
)
def test_a_bad_value_is_refused_naming_the_option_and_the_value(
    capsys, argv, option, value
) -> None:
    with pytest.raises(SystemExit) as refused:
        main(argv)
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert f"error: argument {option}: expected " in err and f"got {value!r}" in err
    assert "invalid" not in err and "Traceback" not in err


def subcommand(name: str) -> argparse.ArgumentParser:
    [commands] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return commands.choices[name]


def test_one_name_per_idea_with_the_old_names_still_taken(capsys) -> None:
    parser = build_parser()
    for command in ("population", "tournament", "headtohead"):
        help_text = subcommand(command).format_help()
        assert "--games" in help_text and "--reps" in help_text
        assert "--throws" not in help_text and "--matches" not in help_text
    old = parser.parse_args(["headtohead", "rockbot", "--matches", "3", "--throws", "50"])
    new = parser.parse_args(["headtohead", "rockbot", "--reps", "3", "--games", "50"])
    assert (old.reps, old.games) == (new.reps, new.games) == (3, 50)


@pytest.mark.parametrize(
    "command", ["population", "match", "tournament", "headtohead", "play", "serve", "bench"]
)
def test_every_command_has_a_description(command: str) -> None:
    sub = subcommand(command)
    assert sub.description and len(sub.description) > 30


def test_bot_files_are_named_by_file_name_unless_two_collide(tmp_path, capsys) -> None:
    source = (REPO / "tests" / "bots" / "rpscontest_cycle.py").read_text()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for folder in ("a", "b"):
        (tmp_path / folder / "same.py").write_text(source)
    lone = str(tmp_path / "a" / "same.py")
    assert (
        main(["tournament", lone, "rockbot", "--games", "10", "--seed", "1", "--workers", "1"]) == 0
    )
    out = capsys.readouterr().out
    assert "same.py" in out and str(tmp_path) not in out
    twins = [lone, str(tmp_path / "b" / "same.py")]
    assert (
        main(["tournament", *twins, "rockbot", "--games", "10", "--seed", "1", "--workers", "1"])
        == 0
    )
    out = capsys.readouterr().out
    assert all(twin in out for twin in twins)


def test_a_win_rate_without_a_decisive_game_reads_a_dash(capsys) -> None:
    assert main(["match", "rockbot", "rockbot", "--games", "10", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "win rate -" in out and "0.0%" not in out


@pytest.mark.parametrize(
    "option, value, complaint",
    [
        ("--out", "{tmp}/none/run.jsonl", "no directory"),
        ("--out", "{tmp}", "is a directory"),
        ("--out", "", "expected a file name"),
        ("--csv", "{tmp}/none/x.csv", "no directory"),
        ("--json", "{tmp}", "is a directory"),
        ("--cross-table", "{tmp}/none/x.csv", "no directory"),
        ("--seed", "-7", "expected a non-negative integer (a seed), got '-7'"),
        ("--workers", "100000", "expected a number of processes from 1 to 256"),
    ],
)
def test_a_bad_output_or_run_option_is_refused_before_any_match(
    tmp_path, capsys, monkeypatch, option, value, complaint
) -> None:
    import roshambo.arena.tournaments as arena

    monkeypatch.setattr(arena, "play_match", lambda *a, **k: pytest.fail("played"))
    argv = ["tournament", "rockbot", "random", "--games", "20", "--workers", "1"]
    with pytest.raises(SystemExit) as exit_:
        main([*argv, option, value.format(tmp=tmp_path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: " in err and complaint in err


def test_a_file_that_fails_to_write_at_the_end_is_named(tmp_path, capsys, monkeypatch) -> None:
    def refuse(path, *args):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cli.report, "write_csv", refuse)
    target = tmp_path / "x.csv"
    argv = ["tournament", "rockbot", "random", "--games", "20", "--workers", "1"]
    assert main([*argv, "--csv", str(target)]) == 2
    assert f"error: could not write --csv {target}: " in capsys.readouterr().err


def test_workers_beyond_the_matches_start_no_idle_process(monkeypatch) -> None:
    import roshambo.arena.tournaments as arena

    sizes = []

    class Pool(arena.ProcessPoolExecutor):
        def __init__(self, max_workers, **kwargs):
            sizes.append(max_workers)
            super().__init__(max_workers=max_workers, **kwargs)

    monkeypatch.setattr(arena, "ProcessPoolExecutor", Pool)
    entrants = {name: arena.Registered(name, 20) for name in ("rockbot", "random", "copybot")}
    arena.tournament(entrants, n=20, reps=1, seed=1, workers=64)
    assert sizes == [3]  # three pairings


def test_a_plot_named_without_a_suffix_says_where_the_png_went(tmp_path, capsys) -> None:
    pytest.importorskip("matplotlib", reason=NEEDS_MATPLOTLIB)
    target = tmp_path / "trace"
    assert main(["match", "ai", "kris", "--games", "30", "--seed", "5", "--plot", str(target)]) == 0
    assert capsys.readouterr().out.endswith(f"wrote {target}.png\n")
    assert (tmp_path / "trace.png").read_bytes().startswith(PNG_MAGIC)


@pytest.mark.parametrize(
    "value, complaint",
    [
        ("", "expected comma-separated names, got ''"),
        (",,,", "expected comma-separated names, got ',,,'"),
        ("rockbot,rockbot", "rockbot named twice"),
    ],
)
def test_population_bots_must_name_some_bots_once(capsys, value, complaint) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["population", "--bots", value, "--games", "10"])
    assert exit_.value.code == 2
    assert f"argument --bots: {complaint}" in capsys.readouterr().err


def test_a_tournament_refuses_two_spellings_of_one_relative(capsys) -> None:
    # every default spelled out or left out, in any order: one member, so one player
    given = ["counter:", "counter:tie=first,window=10", "rockbot", "counter:window=5"]
    assert main(["tournament", *given, "--games", "10"]) == 2
    assert capsys.readouterr().err == (
        "error: players named twice: counter: and counter:tie=first,window=10 "
        "(one counter:window=10,target=most,tie=first)\n"
    )
    assert main(["tournament", "counter:noise=0.1", "counter:noise=0.10", "--games", "5"]) == 2
    assert "counter:noise=0.1 and counter:noise=0.10 (one " in capsys.readouterr().err
    # other members of the family are other players
    assert main(["tournament", "counter:", "counter:tie=last", "--games", "5"]) == 0


def test_a_tournament_names_each_player_given_twice_once(capsys) -> None:
    assert main(["tournament", "rockbot", "random", "rockbot", "--games", "10"]) == 2
    assert capsys.readouterr().err == "error: players named twice: rockbot\n"
    pytest.importorskip("pyspiel", reason="the classic field needs open_spiel")
    assert main(["tournament", "classic:*", "classic:rockbot", "--games", "10"]) == 2
    assert capsys.readouterr().err == "error: players named twice: classic:rockbot\n"


def test_headtohead_names_the_opponent_given_twice_and_the_player_among_them(capsys) -> None:
    assert main(["headtohead", "rockbot", "random", "rockbot", "--games", "10"]) == 2
    assert capsys.readouterr().err == "error: opponents named twice: rockbot\n"
    assert main(["headtohead", "counter:", "counter:window=10", "--games", "5"]) == 2
    assert capsys.readouterr().err == (
        "error: opponents named twice: counter: and counter:window=10 "
        "(one counter:window=10,target=most,tie=first)\n"
    )
    assert main(["headtohead", "--player", "counter:", "counter:tie=first", "--games", "5"]) == 2
    assert capsys.readouterr().err == (
        "error: 'counter:' cannot also be one of its opponents here (as counter:tie=first)\n"
    )
    assert main(["headtohead", "--player", "rockbot", "rockbot", "--games", "5"]) == 2
    assert capsys.readouterr().err == "error: 'rockbot' cannot also be one of its opponents here\n"
    pytest.importorskip("pyspiel", reason="the classic field needs open_spiel")
    assert main(["headtohead", "classic:*", "classic:rockbot", "--games", "5"]) == 2
    assert capsys.readouterr().err == "error: opponents named twice: classic:rockbot\n"
    # nothing was played: a correct call afterwards works as ever
    assert main(["headtohead", "rockbot", "--games", "5", "--reps", "1", "--seed", "1"]) == 0


def test_two_outputs_naming_one_file_are_refused_before_playing(capsys, tmp_path) -> None:
    log = tmp_path / "run.jsonl"
    argv = ["tournament", "ai", "random", "--games", "5", "--workers", "1", "--out", str(log)]
    assert main([*argv, "--json", str(log)]) == 2
    assert capsys.readouterr().err == f"error: --out and --json name the same file {str(log)!r}\n"
    assert not log.exists()  # refused before the log was opened
    same = tmp_path / "sub" / ".." / "run.jsonl"  # the same file, spelled another way
    (tmp_path / "sub").mkdir()
    assert (
        main(["headtohead", "rockbot", "--games", "5", "--csv", str(log), "--json", str(same)]) == 2
    )
    assert "--json and --csv name the same file" in capsys.readouterr().err
    assert main([*argv, "--json", str(tmp_path / "run.json")]) == 0  # two files: both written
    assert log.exists() and (tmp_path / "run.json").exists()


def test_a_run_log_that_cannot_be_opened_is_named_in_one_line(capsys, tmp_path) -> None:
    if not Path("/proc/self").is_dir():
        pytest.skip("needs /proc, whose folder looks writable to root but takes no new file")
    assert main(["tournament", "ai", "random", "--games", "5", "--out", "/proc/x.jsonl"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot write '/proc/x.jsonl': ") and err.count("\n") == 1


def test_a_pattern_or_a_bot_file_named_twice_is_named_once(capsys, tmp_path) -> None:
    (tmp_path / "bots").mkdir()
    bot = tmp_path / "bots" / "echo.py"
    bot.write_text("output = input or 'R'\n")
    other = str(tmp_path / "bots" / ".." / "bots" / "echo.py")
    assert main(["tournament", str(bot), other, "--games", "5"]) == 2
    assert capsys.readouterr().err == (
        f"error: players named twice: {bot} and {other} (one {bot.resolve()})\n"
    )
    assert main(["tournament", str(bot), f"rpscontest:{bot}", "--games", "5"]) == 2
    assert f"{bot} and rpscontest:{bot} (one " in capsys.readouterr().err
    assert main(["headtohead", "--player", str(bot), other, "--games", "5"]) == 2
    assert capsys.readouterr().err == (
        f"error: {str(bot)!r} cannot also be one of its opponents here (as {other})\n"
    )
    pytest.importorskip("pyspiel", reason="the classic field needs open_spiel")
    assert main(["tournament", "classic:*", "classic:*", "--games", "5"]) == 2
    assert capsys.readouterr().err == "error: players named twice: classic:*\n"  # not 43 names
    assert main(["headtohead", "classic:*", "rockbot", "classic:*", "--games", "5"]) == 2
    assert capsys.readouterr().err == "error: opponents named twice: classic:*\n"


def test_games_beyond_a_million_are_refused_before_playing(capsys) -> None:
    for command in (["match", "ai", "rockbot"], ["tournament", "ai", "rockbot"]):
        with pytest.raises(SystemExit) as exit_:
            main([*command, "--games", "2147483648"])
        assert exit_.value.code == 2
        assert (
            "argument --games: expected a number of games from 1 to 1,000,000, got '2147483648'"
            in capsys.readouterr().err
        )
    from roshambo.apps import options

    assert options.games("1000000") == 1_000_000  # the bound itself is allowed


def test_population_compares_no_player_with_itself(capsys) -> None:
    pytest.importorskip("pyspiel", reason="the classic field needs open_spiel")
    argv = ["population", "--bots", "rockbot", "--games", "5", "--reps", "1", "--seed", "1"]
    # the default --compare (greenberg, iocainebot) leaves out the player itself
    assert main([*argv, "--player", "classic:greenberg"]) == 0
    out = capsys.readouterr().out
    assert "classic:iocainebot" in out and out.count("classic:greenberg") >= 1
    assert main([*argv, "--player", "classic:greenberg", "--compare", "greenberg"]) == 2
    assert capsys.readouterr().err == (
        "error: 'classic:greenberg' is the player; it cannot also be in --compare\n"
    )
    bots = ["--bots", "greenberg,rockbot"]
    assert main([*argv[:1], *bots, "--player", "classic:greenberg", "--games", "5"]) == 2
    assert "cannot also be one of its opponents (--bots)" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*argv, "--compare", "greenberg,greenberg"])
    assert "greenberg named twice in 'greenberg,greenberg'" in capsys.readouterr().err


@pytest.mark.parametrize("sizes, complaint", [("10,10", "10 given twice"), ("10,,20", "positive")])
def test_bench_sizes_are_each_given_once(capsys, sizes: str, complaint: str) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "--sizes", sizes])
    assert complaint in capsys.readouterr().err
