"""Where a tournament's matches run: the local process pool, or a Dask cluster.

The arena hands its matches to anything with the ``concurrent.futures.Executor`` interface.
:func:`open_executor` turns the command line's ``--scheduler`` into one:

- ``process`` (the default): ``arena.tournament``'s own process pool of ``--workers``;
- ``local:N``: a Dask ``LocalCluster`` of N single-threaded worker processes on 127.0.0.1,
  closed when the run ends;
- ``tcp://HOST:PORT``: a running Dask scheduler (``dask scheduler`` on one machine,
  ``dask worker tcp://HOST:PORT --nthreads 1`` on each of the others). Workers must run one
  thread each: the classic bots draw from the C library's ``random()``, one state per
  process, so two matches in threads of one worker would make a seeded run irreproducible;
  a cluster whose workers run more threads is refused.

Dask (``distributed``) is optional and imported only here, only when asked for; without it
:class:`DaskMissing` says how to install it. Every worker needs this project installed
(``pip install -e ".[cluster]"``); the bots from files travel with the matches.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType

PROCESS = "process"
LOCAL_PREFIX = "local:"
TCP_PREFIX = "tcp://"
MAX_LOCAL = 256  # workers a local cluster may start: more is a typo, or a fork bomb
INSTALL_HINT = (
    "running on Dask needs the distributed package; install it with\n"
    '    pip install "dask[distributed]"\n'
    "or, from a checkout of this project,\n"
    '    pip install -e ".[cluster]"'
)


class DaskMissing(ImportError):
    """``distributed`` is not installed."""


@dataclass(frozen=True)
class ExecutorChoice:
    """A parsed ``--scheduler`` value: ``kind`` is "process", "local" or "tcp"."""

    kind: str
    workers: int = 0
    address: str = ""

    @classmethod
    def parse(cls, text: str) -> ExecutorChoice:
        """``process``, ``local:N`` (N >= 1) or ``tcp://HOST:PORT``; ``ValueError`` otherwise."""
        if text == PROCESS:
            return cls(PROCESS)
        if text.startswith(LOCAL_PREFIX):
            count = _count(text[len(LOCAL_PREFIX) :])
            if not 1 <= count <= MAX_LOCAL:
                raise ValueError(
                    f"bad scheduler {text!r}: local:N needs a worker count N from 1 to {MAX_LOCAL}"
                )
            return cls("local", workers=count)
        if text.startswith(TCP_PREFIX) and ":" in text[len(TCP_PREFIX) :]:
            host, _, port = text[len(TCP_PREFIX) :].rpartition(":")
            if not host or not 1 <= _count(port) <= 65535:
                raise ValueError(
                    f"bad scheduler {text!r}: tcp://HOST:PORT needs a host and a port "
                    "from 1 to 65535"
                )
            return cls("tcp", address=text)
        raise ValueError(f"bad scheduler {text!r}: expected {PROCESS}, local:N or tcp://HOST:PORT")

    def describe(self, processes: int) -> str:
        """Where matches ran, after "12 matches in 3.0 s": ``processes`` is the local
        processes used (1: this process alone)."""
        if self.kind == PROCESS:
            return f"on {processes} local processes" if processes > 1 else "in this process"
        if self.kind == "local":
            plural = "" if self.workers == 1 else "s"
            return f"on a local Dask cluster of {self.workers} worker{plural}"
        return f"on the Dask scheduler at {self.address}"


def _count(text: str) -> int:
    """``text`` as a count written in ASCII digits, or -1 if it is not one."""
    return int(text) if text.isascii() and text.isdigit() else -1


def load_distributed() -> ModuleType:
    """Import ``distributed`` or raise :class:`DaskMissing` with the install command."""
    try:
        import distributed
    except ImportError as exc:
        raise DaskMissing(INSTALL_HINT) from exc
    return distributed


@contextmanager
def open_executor(choice: ExecutorChoice) -> Iterator[tuple[Executor | None, int]]:
    """(executor, workers) for ``choice``: (None, 0) for the process pool, else a Dask
    client's executor and its worker count; the client (and a local cluster) close on exit."""
    if choice.kind == PROCESS:
        yield None, 0
        return
    distributed = load_distributed()
    if choice.kind == "local":
        cluster = distributed.LocalCluster(
            n_workers=choice.workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
        try:
            with distributed.Client(cluster) as client:
                yield client.get_executor(), choice.workers
        finally:
            cluster.close()
        return
    try:
        client = distributed.Client(choice.address, timeout=10)
    except OSError as exc:
        raise ValueError(f"cannot reach the Dask scheduler at {choice.address}: {exc}") from None
    with client:
        workers = client.scheduler_info().get("workers", {})
        threaded = sorted({info.get("nthreads", 1) for info in workers.values()} - {1})
        if threaded:
            raise ValueError(
                f"the workers of {choice.address} run {threaded[0]} threads each: start them "
                f"with --nthreads 1 (the classic bots share the C library's random state "
                f"within a process, so threads would make a seeded run irreproducible)"
            )
        yield client.get_executor(), max(len(workers), 1)
