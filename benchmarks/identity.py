"""The engine's identity: one hash of the moves it plays in seeded matches.

A change that must not change behaviour (a refactor, a faster data structure, a lint fix)
keeps this hash; say so in its commit. The matches: the four fCC bots fresh and then
carried over into a second match (``new_match``, as ``RPS.player`` does), the zoo's
adversaries, and relatives of every family, each at two engine seeds, under
``PYTHONHASHSEED=0`` (the script restarts itself so: mrugesh breaks ties in set order).

    python benchmarks/identity.py              # prints the hash and how long it took
    python benchmarks/identity.py --games 300  # a quicker, different hash
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roshambo.apps import options  # noqa: E402 (the checkout's package, put on the path above)
from roshambo.engine.agent import Agent  # noqa: E402
from roshambo.opponents import make_opponent  # noqa: E402

FCC = ("quincy", "abbey", "kris", "mrugesh")
ADVERSARIES = ("copy-attacker", "hedge-reader", "modern-matcher", "bandit-ensemble", "tree")
RELATIVES = (
    "counter:window=20,target=least",
    "counter:window=all,tie=last",
    "context:k=2,decay=0.8,rotation=1",
    "reaction:lag=3,mode=beat",
    "cycle:pattern=RPPSR,noise=0.1",
    "switcher:period=50,seed=3",
)
ENGINE_SEEDS = (0, 1)
HASH_SEED = "0"


def match_moves(engine: Agent, opponent: str, seed: int, games: int) -> bytes:
    """Both sides' moves of one match against a fresh ``opponent`` seeded with ``seed``."""
    bot = make_opponent(opponent, random.Random(seed))
    ours = theirs = None
    played = bytearray()
    for _ in range(games):
        ours, theirs = engine.move(theirs), bot.move(ours)
        played += bytes((ours, theirs))
    return bytes(played)


def identity(games: int = 1000) -> str:
    """The first 16 hex digits of the SHA-256 of every match's moves, in a fixed order."""
    digest = hashlib.sha256()
    for engine_seed in ENGINE_SEEDS:
        for name in FCC:  # fresh, then carried over into a second match against a fresh bot
            engine = Agent(random.Random(engine_seed))
            digest.update(match_moves(engine, name, 1, games))
            engine.new_match()
            digest.update(match_moves(engine, name, 2, games))
        for name in (*ADVERSARIES, *RELATIVES):
            digest.update(match_moves(Agent(random.Random(engine_seed)), name, 3, games))
    return digest.hexdigest()[:16]


def main(argv: Sequence[str] | None = None) -> int:
    if os.environ.get("PYTHONHASHSEED") != HASH_SEED:  # mrugesh breaks ties in set order
        os.execve(
            sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": HASH_SEED}
        )
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=options.positive_int, default=1000, help="games per match (default 1000)"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    print(
        f"ident {identity(args.games)}  ({len(ENGINE_SEEDS) * (2 * len(FCC) + len(ADVERSARIES) + len(RELATIVES))} "
        f"matches of {args.games} games, {time.perf_counter() - start:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
