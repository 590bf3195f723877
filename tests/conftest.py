"""Shared fixtures: the repository root and a runner for fresh Python subprocesses.

The fCC bots keep their state in mutable default arguments, so tests that must start from
a known state run in a new interpreter rather than in pytest's process.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

REPO = Path(__file__).resolve().parent.parent

RunPython = Callable[..., subprocess.CompletedProcess]


def python_env(hashseed: str | None = None) -> dict[str, str]:
    """The current environment with the repository importable (and a fixed hash seed if given)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["PYTHONIOENCODING"] = "utf-8"
    if hashseed is not None:
        env["PYTHONHASHSEED"] = hashseed
    return env


@pytest.fixture
def repo() -> Path:
    return REPO


@pytest.fixture
def run_python() -> RunPython:
    """``run_python(*args, stdin="", hashseed=None)``: run ``python *args`` in the repository."""

    def run(*args: str, stdin: str = "", hashseed: str | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, *args], input=stdin, capture_output=True, text=True,
            cwd=REPO, env=python_env(hashseed), timeout=timeout,
        )

    return run
