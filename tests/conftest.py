"""Shared fixtures: the repository root and a runner for fresh Python subprocesses.

The fCC bots keep their state in mutable default arguments, so tests that must start from
a known state run in a new interpreter rather than in pytest's process.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent

RunPython = Callable[..., subprocess.CompletedProcess]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests (marked slow) first, so that pytest-xdist's workers start them at
    once and share out the short ones around them, instead of one of them finishing last."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def python_env(hashseed: str | None = None) -> dict[str, str]:
    """The current environment with the repository importable (and a fixed hash seed if given)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["PYTHONIOENCODING"] = "utf-8"
    if hashseed is not None:
        env["PYTHONHASHSEED"] = hashseed
    return env


def load_benchmark(script: str, module_name: str) -> ModuleType:
    """``benchmarks/<script>``, loaded by path as ``module_name`` (the benchmarks are scripts,
    not a package); registered in ``sys.modules`` first, since dataclasses look their module
    up while being built."""
    spec = importlib.util.spec_from_file_location(module_name, REPO / "benchmarks" / script)
    assert spec is not None and spec.loader is not None, script
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def repo() -> Path:
    return REPO


@pytest.fixture
def run_python() -> RunPython:
    """``run_python(*args, stdin="", hashseed=None)``: run ``python *args`` in the repository."""

    def run(
        *args: str, stdin: str = "", hashseed: str | None = None, timeout: float = 120
    ) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=REPO,
            env=python_env(hashseed),
            timeout=timeout,
        )

    return run


def executed_lines(action: Callable[[], object], only: str | None = None) -> int:
    """Python line events executed while ``action()`` runs (a deterministic cost measure);
    with ``only``, just those in files whose path contains it."""
    count = 0

    def local(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal count
        if event == "line":
            count += 1
        return local

    def on_call(frame, event, arg):  # type: ignore[no-untyped-def]
        return local if only is None or only in frame.f_code.co_filename else None

    sys.settrace(on_call)
    try:
        action()
    finally:
        sys.settrace(None)
    return count
