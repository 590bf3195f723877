"""The engine as an agent for Kaggle's ``rps`` environment (kaggle-environments).

Kaggle calls ``agent(observation, configuration)`` once per step and plays the returned sign:
0 rock, 1 paper, 2 scissors -- the same numbering as :mod:`roshambo.engine.moves`. ``observation.step``
is 0 on an episode's first step, ``observation.lastOpponentAction`` is the opponent's previous
sign from step 1 on, and ``configuration.signs`` must be 3 (rock-paper-scissors-lizard-Spock
is rejected with a ``ValueError``). Both arguments may be kaggle's attribute-style ``Struct``
or plain dicts, their numbers any integral type (``int``, ``numpy.int64``: whatever has
``__index__``, never ``bool``); anything else is a ``ValueError`` naming the field.

:class:`KaggleAgent` is one callable agent: it builds a fresh engine whenever an episode
starts, so nothing leaks from one episode into the next: at step 0, or at a step that goes
back (an episode whose start it missed). The same step again, with the same
``lastOpponentAction``, is answered with the same sign and changes nothing (a retried call);
with another one it is a ``ValueError`` naming the step. Use one instance per seat::

    from kaggle_environments import make
    from roshambo.apps.kaggle_agent import KaggleAgent

    env = make("rps", configuration={"episodeSteps": 1000})
    env.run([KaggleAgent(), "statistical"])

The module-level ``agent`` is the one shim Kaggle's loader needs (like the mutable default
in ``RPS.py``): a single ``KaggleAgent`` and nothing else. It must stay the last callable
defined in this file, because kaggle-environments runs a submitted file and calls the last
callable it defined.

Submitting. A submission is ``main.py``, or a ``.tar.gz`` with ``main.py`` at its root
plus the files it imports (the format kaggle-environments documents for multi-file agents).
``python -m roshambo.apps.kaggle_agent submission.tar.gz`` writes that archive: this file as
``main.py`` next to the ``roshambo`` package (Python sources only, standard library only).
Check it locally with kaggle-environments' own file loader, as the tests do::

    mkdir sub && tar -xzf submission.tar.gz -C sub
    python -c "from kaggle_environments import make; \\
        print(make('rps').run(['sub/main.py', 'statistical'])[-1])"

then ``kaggle competitions submit <competition> -f submission.tar.gz``. The 2020-21
"Rock, Paper, Scissors" competition itself has closed; the archive follows the format
kaggle-environments documents, and what is verified here is that its loader runs it.
"""

from __future__ import annotations

import argparse
import gzip
import operator
import random
import sys
import tarfile
from collections.abc import Mapping
from pathlib import Path

# Absolute imports on purpose: in a submission this file runs as a bare main.py, outside
# the package, where relative imports cannot work.
import roshambo
from roshambo.apps.options import output_file
from roshambo.engine.agent import Agent
from roshambo.engine.moves import MOVES, Move

SIGNS = 3


def _field(source: object, name: str, default: object = None) -> object:
    """``source.name`` or ``source[name]``: kaggle passes Structs, callers may pass dicts."""
    if isinstance(source, Mapping):
        return source.get(name, default)
    return getattr(source, name, default)


def _integral(value: object) -> int | None:
    """``value`` as an int if it is an integral number (``operator.index``: int, numpy's
    integers) and not a bool; else ``None``."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


class KaggleAgent:
    """One Kaggle rps player: a fresh engine per episode, a new episode at step 0.

    ``rng`` seeds every episode alike: each one starts from the state ``rng`` had when the
    agent was created, so a seeded agent replays an episode exactly (reset equals fresh).
    ``None`` gives every episode its own OS-seeded engine.
    """

    name = "kaggle"

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng_state = rng.getstate() if rng is not None else None
        self.reset()

    def reset(self) -> None:
        """Forget the episode: a new engine, no step seen."""
        rng = None
        if self._rng_state is not None:
            rng = random.Random()
            rng.setstate(self._rng_state)
        self.engine = Agent(rng)
        self._step: int | None = None
        self._seen: Move | None = None  # the last step's lastOpponentAction (None at step 0)
        self._answer: Move | None = None  # and the sign played there

    def __call__(self, observation: object, configuration: object) -> Move:
        signs = _field(configuration, "signs", SIGNS)
        if _integral(signs) != SIGNS:
            raise ValueError(
                f"configuration.signs is {signs!r}: this agent plays only 3 signs "
                "(rock, paper, scissors)"
            )
        raw_step = _field(observation, "step")
        step = _integral(raw_step)
        if step is None or step < 0:
            raise ValueError(f"observation.step is {raw_step!r}: expected an integer >= 0")
        their_last: Move | None = None
        if step > 0:  # checked before anything changes: a bad call leaves the episode as it was
            last = _field(observation, "lastOpponentAction")
            if last is None:
                raise ValueError(f"observation.lastOpponentAction is missing at step {step}")
            sign = _integral(last)
            if sign not in MOVES:
                raise ValueError(
                    f"observation.lastOpponentAction is {last!r} at step {step}: expected 0 "
                    "(rock), 1 (paper) or 2 (scissors)"
                )
            their_last = sign
        if step == self._step:  # the same call again: the same answer, or a contradiction
            if their_last != self._seen:
                raise ValueError(
                    f"observation.step {step} again, with lastOpponentAction {their_last!r} "
                    f"where it was {self._seen!r}: each step is played once"
                )
            assert self._answer is not None
            return self._answer
        # A step that goes back can only be another episode whose step 0 we missed; then the
        # engine starts a fresh match there.
        if step == 0 or (self._step is not None and step < self._step):
            self.reset()
        joined = self._step is None and step > 0  # mid-episode: that move answered none of ours
        answer = self.engine.move(None if joined else their_last)
        self._step, self._seen, self._answer = step, their_last, answer
        return answer


def write_submission(target: str | Path) -> Path:
    """Write a Kaggle submission archive: this file as main.py plus the roshambo package.

    Entries are sorted and timestamps zeroed, so the same sources give the same bytes.
    """
    package = Path(roshambo.__file__).resolve().parent
    sources = [(Path(__file__).resolve(), "main.py")]
    sources += [
        (path, f"roshambo/{path.relative_to(package).as_posix()}")
        for path in sorted(package.rglob("*.py"))
        if "__pycache__" not in path.parts
    ]
    target = Path(target)
    with (
        open(target, "wb") as raw,
        gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as zipped,
        tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as archive,
    ):
        for path, name in sources:
            info = archive.gettarinfo(str(path), arcname=name)
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            info.mode = 0o644
            with open(path, "rb") as handle:
                archive.addfile(info, handle)
    return target


def main(argv: list[str] | None = None) -> int:
    """``python -m roshambo.apps.kaggle_agent [submission.tar.gz]``: write the submission archive."""
    parser = argparse.ArgumentParser(
        prog="python -m roshambo.apps.kaggle_agent",
        description="Write a Kaggle submission archive: this agent as main.py plus roshambo/.",
    )
    parser.add_argument(
        "target",
        nargs="?",
        type=output_file,
        default="submission.tar.gz",
        metavar="FILE.tar.gz",
        help="where to write it (default submission.tar.gz)",
    )
    args = parser.parse_args(argv)
    try:
        target = write_submission(args.target)
    except OSError as exc:
        print(f"error: could not write {args.target}: {exc}", file=sys.stderr)
        return 2
    print(
        f"wrote {target} (main.py + roshambo/); submit it with: "
        f"kaggle competitions submit <competition> -f {target}"
    )
    return 0


# The shim Kaggle's loader calls; it must remain the last callable in this file.
agent = KaggleAgent()

if __name__ == "__main__":
    raise SystemExit(main())
