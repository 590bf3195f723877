"""The README stays a page for users: short, its two set-up commands true, its links alive."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
MAIN_COMMAND = "python main.py"
TEST_COMMAND = 'python -m pip install -e ".[test]" && python -m pytest -n auto'


def section(text: str, heading: str) -> str:
    """The body of a ``## heading`` section, up to the next one."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"no section {heading!r}"
    return match.group(1)


def test_the_readme_is_at_most_10000_characters() -> None:
    assert len(README) <= 10_000, len(README)


def test_set_up_has_exactly_the_two_commands() -> None:
    blocks = re.findall(r"```sh\n(.*?)```", section(README, "Set up"), re.S)
    assert [block.strip() for block in blocks] == [MAIN_COMMAND, TEST_COMMAND]


def test_ci_runs_the_readmes_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in ci.splitlines() if not line.lstrip().startswith("#")]
    assert any(line.startswith(TEST_COMMAND) for line in commands), (
        "CI does not run the README's command"
    )


def test_every_local_link_and_picture_exists() -> None:
    for document in (REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))):
        text = document.read_text(encoding="utf-8")
        targets = re.findall(r"\]\(([^)#\s]+)\)", text)
        local = [t for t in targets if not re.match(r"[a-z]+:", t)]
        assert local or document.name != "README.md", "the README links nothing"
        for target in local:
            assert (document.parent / target).exists(), (
                f"{document.name} links {target}, which is missing"
            )


def test_every_committed_picture_says_how_to_regenerate_it() -> None:
    """Some paragraph of the docs names the picture beside a ``python ...`` command."""
    docs = "\n\n".join(
        p.read_text(encoding="utf-8") for p in (REPO / "README.md", *(REPO / "docs").glob("*.md"))
    )
    paragraphs = re.split(r"\n\s*\n", docs)
    for picture in sorted((REPO / "docs").glob("*.png")):
        assert any(
            picture.name in paragraph and re.search(r"`python [^`]+`", paragraph)
            for paragraph in paragraphs
        ), f"no command in the docs regenerates docs/{picture.name}"
