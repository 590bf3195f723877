"""The code stays clean: ruff's lint and format, and mypy, as configured in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from conftest import REPO


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is a test extra: pip install ruff")
@pytest.mark.parametrize(
    "check", [("check", "."), ("format", "--check", ".")], ids=["lint", "format"]
)
def test_ruff_is_clean(check: tuple[str, ...]) -> None:
    done = run("ruff", *check)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_is_clean() -> None:
    pytest.importorskip("mypy", reason="mypy is a test extra: pip install mypy")
    done = run(sys.executable, "-m", "mypy")
    assert done.returncode == 0, done.stdout + done.stderr
