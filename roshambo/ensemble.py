"""The Iocaine Powder meta-strategy (Egnor 1999), over an ensemble of predictors.

Every predictor P yields six strategies. P predicts the opponent's move p: P.k plays
``p + 1 + k`` (k = 0 beats the prediction, k = 1 and 2 second-guess an opponent who saw it
coming). Its mirrored twin P' runs on the swapped histories and predicts *our* move q, as an
opponent modelling us would; that opponent plays ``q + 1``, so P'.k plays ``q + 2 + k``.
Either way a half (P or P') stands for one expected opponent move e, and its strategy k
plays ``e + 1 + k``.

Each strategy is scored every round as if it had been played (+1 win, -1 loss, 0 tie),
over sliding windows of the last 1000, 100, 50, 20 and 10 rounds: Iocaine's horizons of
10, 100 and 1000, and the 1-2-5 steps between 10 and 100, without its 5, 2 and 1 (against
the fCC bots and the classic field they added noise, or nothing, and each window costs
time every round). The steps between matter when a strategy is right but for one round in
every few dozen (against an opponent counting our last 12 to 50 moves, at its leader
changes; against a long cycle, at a position that a short context gets wrong): a 10-round
window soon loses sight of that round, so the strategy ties an exact model found later and
wins the tie on its longer record, while a 20- or 50-round window still sees it.
Per window, a meta-strategy plays the best-scoring strategy's move; the meta-meta level
scores each meta-strategy and its two rotations (the second-guessing defence once more) and
follows the best. Scores are kept as one packed integer of cumulative counts, one 56-bit
field per strategy, with a ring of past totals: a window's scores are one subtraction away
and its best strategy is found by a knockout of big-integer operations over all fields at
once (each round of it halves the fields), so a round costs the same however long the match;
since the best strategy mostly stays the best, last round's is first checked against all
fields at once, and the knockout runs only when another has overtaken it.
Ties within a window go to the strategy with the better record over the longest window,
then to one that has something to say this round (a silent best would mean random play,
while an equal record that offers a move is no worse a bet), then to the one on the longer
winning streak (packed too: a streak field is kept by one addition and one mask per round).
A silent best strictly ahead also gives way to the best strategy that speaks if that one
clearly beats a coin: by more than 2 sqrt(n) over the window's n rounds, any naive credit
aside. A coin's record has a standard deviation of sqrt(2n / 3), so the bar is about 2.45 of
them, near where the best of a couple of hundred chance records lies: against random moves
about one silent best in eight gives way (27 of 218 in two matches), which costs nothing in
expectation there, while a record that has found the opponent out clears it by far. A
model that abstains now and then (a calibrated chain contradicted by a noisy counter's
random move) would otherwise leave a window that has found the opponent out to random play
in those rounds, though the next best record wins nearly as often. Naive strategies (k = 0)
start with a small credit that the sliding windows soon forget, and at the meta-meta level
the rotations must beat the plain choice by a handicap (Occam: second-guessing must earn its
place); that level also keeps following its current choice until another one beats it by a
margin.

Random play is the hedge, taken in two cases. When even the best meta-strategy's record is
clearly losing (below ``hedge_threshold``), nothing is worth following; an unproven record
early in a match is followed, since a guess is no worse than a coin there. And when what we
*actually* won with our deterministic choices falls short: an opponent that simulates us
(holding our code, not our random seed) beats exactly those choices, while the scores
computed as if they had been played look fine. The record of our deterministic choice is
kept as wins (early on, ties too: see below) and losses: in a round we followed it, what it
won, the record decaying by ``trust_decay``; in a hedged round, what it would have won,
since that still shows whether the opponent answered it (a simulator keeps beating it while
we hedge; an honest opponent we have found out keeps losing to it, which brings us back).
Hedged rounds add without ageing, so a simulator is found out sooner, until the record holds
as much as a decayed one can (1 / (1 - trust_decay) rounds' worth); from there they age it
too, so that a long losing spell is forgotten in a few dozen rounds once the opponent can be
beaten again. Each round we follow the meta-meta choice only if a draw from Beta(wins + a,
losses + b) exceeds a bar (Thompson 1933), and play at random otherwise. The bar starts at
1/2 and rises to ``trust_bar`` as the prior fades (see below); by default it stays at 1/2:
a choice that wins a few rounds in ten more than it loses is worth following (the classic
field's narrow wins), and an opponent that learns what we play, for which a higher bar
once stood, meets the exposure rule below instead. The prior (a, b)
starts optimistic, (5, 1): the first rounds of a match are guesses whoever the opponent, and
one or two unlucky ones must not send the engine to random play after it has found an honest
opponent out; but a simulator beats every round we follow, so the prior must give way after
three or four straight losses. It fades to (1, 1) as the match goes on, so an opponent that
simulates us meets evidence, not optimism. Against anything we really beat, the probability
of following goes to 1 within a few rounds; once a Hoeffding bound puts the chance of a draw
below the bar under one in a billion, the draw is skipped. At the other end, a draw that
would clear the bar less often than ``trust_floor`` (one time in ten, by the normal
approximation to the posterior) is not taken: the record learns from hedged rounds too, so
following a choice that is almost surely beaten teaches nothing, and a simulator's copy of
us, keeping the same record, follows in the same rare rounds and wins them. A choice kept
needs a record whose mean clears the bar, not just a lucky draw from it: once the same
strategy and rotation have been chosen ``tenure_rounds`` rounds running (whatever the
window, followed or not), a record whose posterior mean is below the bar is not drawn from,
and the choice is not followed until the mean clears the bar or another choice is taken;
the draw's chance is left to a choice just taken. An opponent that learns what we play (a
bandit over its own models of us, a history matcher) beats a choice we keep a little more
often than it loses to it: a record near even, which a draw still follows one time in four,
and more after a few lucky wins, which is when the opponent has caught up (against the
Kaggle-style bandit, followed choices kept 1 to 4 rounds lost 0.006 to 0.021 a round, kept
15 or more 0.05). An honest opponent we have found out keeps the mean above the bar, so
there the rule seldom acts. In the opening a tie counts with the wins, as a round the
choice was not beaten, with a weight of ``tie_fading`` to the power of the round (half by
round 11, under 5% by round 50): an exact simulator answers what it predicts and never ties
it, while a third of an honest opponent's early guesses tie us (and caution plays for
ties), so a spell of unlucky losses among them no longer sends the engine to random play.
Later the ties fade out: against bots that predict us part of the time (the modern history
matchers), their ties would keep us following.
Exposure: an opponent that learns what we play (the modern history matchers) beats a choice
soon after we start following it, most of all once we have followed it a few rounds
running. So the record of our deterministic choice in the rounds that came after
``exposure_run`` rounds followed running is kept apart too (kept as the record above, in
every such round, hedged or not, decaying by ``trust_decay``), and in such a round we follow
only if that record is not losing, or else if a draw from Beta(wins + a, losses + b), with
the prior above, exceeds 1/2: random play then breaks the run the opponent was learning.
The prior's benefit of the doubt matters here too: a record of a few rounds in the opening
holds the early guesses' losses (docs/experiments.md, "Exposure"). Against an opponent we
have found out, that record keeps winning and the rule never acts; a simulator of our code
beats the choice whether the run is long or short, which the record above sees.

Beaten choices running: once the opponent has beaten our deterministic choice
``beaten_run`` rounds running (hedged rounds counting the move we would have played), we
play at random until the choice is not beaten. A simulator beats it in every round we have
one; the record above needs three or four of those rounds to outweigh its optimistic
prior, and a few more to stop a draw now and then from following. An opponent we have
found out seldom beats the choice three times running, and while it does, a coin loses no
more often than the choice. Such a run also ends the benefit of the doubt for the rest of
the match: the record's prior no longer favours following (its wins are cut to its losses,
so the default (5, 1) drops to (1, 1) at once instead of fading; a cautious prior, more
losses than wins, stays as it was). A simulator whose own copy of us hedged in a round
beats a random move there, so our choice escapes it two times in three and the run ends;
the optimistic prior then kept us following in a third of rounds 5-8 and a sixth of rounds
13-20, which the simulator wins whenever its copy follows too. An honest opponent we have
found out keeps losing to our choice, and that record soon outweighs any prior.

Caution in the opening. The fCC bar counts decisive games only: a tie costs nothing there,
a loss as much as ninety-nine wins. Our move m beats the opponent move we expect, b = m - 1;
it ties m and loses to m + 1. While the strategies are still being found out (the first
``caution_rounds`` rounds), when the best record among the strategies that expect m + 1 is
close to the best behind b (within ``caution_reach``) and beats the best behind m by
``caution_margin``, we play b instead: it ties b, beats m + 1, and loses only to m, the
least supported of the three. The record used is accuracy, not score: +1 each round a
strategy's expected opponent move was played, -1/2 when it was not (zero in expectation for
a guess), because a strategy's score counts the ties it earns as the twin of a right one.
Caution on doubt, all match long (``caution_on_doubt``): a predictor may say that its own
evidence leaves open that the opponent plays m + 1 (``doubt()``, see
:class:`roshambo.predictors.base.Predictor`); when the followed strategy's predictor does,
we play b as above. A calibrated chain facing a counter that carries counts we never saw is
in that case in a few rounds out of a hundred, and right in about four of five of them: a
loss one time in five becomes a win, a win a tie (and a tie, should the third move come, a
loss).

Exact models. A predictor may name the move that a model of the opponent forces, where the
model has fitted every one of the opponent's moves since it started (``exact()``, see
:class:`roshambo.predictors.base.Predictor`; the period predictor's shortest period exact
since the start of the match, or, carried over, since ``reset``, the unseen last round of
each match counting as the move our choice expected; the counting windows' windows of our
moves whose leader, or trailer, every move has beaten since the last round none was, where
those that name a move all name one, a tie read per pair of tied moves by the rules (a
fixed preference, the first to enter the window, the last seen) that fitted every earlier
tie of the pair, its tests one fewer for each ninefold of such rounds, each one
another search where a window may fit by luck). Once ``exact_tests`` of the
opponent's moves or more have tested it (0: never), and more than the rounds the choice we
would otherwise follow has been winning running (a counter whose reply stays the same
while its count does fits a period of one until the count turns, and the choice that
models it is the one to keep), we play the move that beats it outright, the model tested
most first: no meta level, no draw, no caution, only the hedge after beaten choices
running (below), which an opponent answering what we intend would start. The choice is
reported as that predictor's P.0, unrotated, with ``Choice.exact`` set. A random side keeps
one period through five tests one time in 243; with sixteen periods open at the start of a
match, about one match in sixteen against random moves has such a round, at no cost in
expectation. The scores would follow a cycle too, a few rounds later: the short windows
need half a dozen rounds to put a strategy right since the repeat began ahead of the best
of two hundred chance records, and the record of our deterministic choices still holds the
first period's guesses, which keeps sending rounds to random play. Little can exploit it:
the first move off the model breaks that period for good, and the levels above decide
again; a longer period may still fit, at the same odds; and an opponent that keeps to a
cycle to be followed loses every round it does so.

A new match (:meth:`Ensemble.new_match`, which ``RPS.player`` calls at every ``""``) starts
every score and every predictor afresh but the carried-over ones
(:mod:`roshambo.predictors.carried`): an opponent that keeps its state between matches, as
the fCC bots do, starts the match where the last one left it, with counts we would
otherwise never see; a fresh model of a counter of our last three moves meets 27 rows of
them. ``reset`` forgets everything, carried models included.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Any

from .hedging import BeatenRun, Exposure, Hedge, LosingRecord, ThompsonTrust
from .kernel import PackedFields
from .moves import Move
from .predictors import PREDICTORS, Factory, Predictor
from .predictors.base import check_capabilities, check_decay, real_side, works_as

NO_MOVE = 3  # a half whose predictor has nothing to say this round (as hedging.NO_MOVE)


FIELD_BITS = 56  # a strategy's packed field (the keys need 50 bits, see Ensemble)
# a run of fields, for the tables below: each half's part is three fields, looked up by what
# it expected and concatenated into the packed scores in one pass (see _gather)
SEGMENTS = PackedFields(FIELD_BITS, 3)
GUARD = SEGMENTS.guard_bit  # packed fields stay below their top bit


def _packed(*fields: int) -> bytes:
    return SEGMENTS.segment(fields)


Parts = tuple[Callable[[Move | None], bytes], Callable[[Move | None], bytes]]


def _sides(table: tuple[bytes, ...]) -> Parts:
    """Look-ups of ``table`` (indexed by the opponent move a half expects, a silent half's
    part last) by what the halves' predictors said: a direct half expects the move its
    predictor names, a mirrored one the move that beats our predicted move."""
    direct: dict[Move | None, bytes] = {e: table[e] for e in range(3)}
    mirrored: dict[Move | None, bytes] = {q: table[(q + 1) % 3] for q in range(3)}
    direct[None] = mirrored[None] = table[NO_MOVE]
    return direct.__getitem__, mirrored.__getitem__


def _gather(parts: Parts, direct: list[Move | None], mirrored: list[Move | None], idle: int) -> int:
    """One packed integer of every half's part: the working direct halves', the working
    mirrored ones', then ``idle`` silent halves' parts."""
    of_direct, of_mirrored = parts
    return SEGMENTS.joined(
        chain(map(of_direct, direct), map(of_mirrored, mirrored), repeat(of_direct(None), idle))
    )


# PATTERN[d]: (reward + 1) of strategies k = 0, 1, 2 when the opponent played e + d, with e
# the half's expected move: k = d wins (+1), k = d + 1 loses (-1), k = d + 2 ties (0).
PATTERN = tuple(_packed(*((2, 0, 1)[(k - d) % 3] for k in range(3))) for d in range(3))
SILENT = _packed(1, 1, 1)  # a half without a prediction earns 0 with all three
FIELD_ONES = SEGMENTS.mask  # a field of all ones
STREAK_BITS = 20  # winning streaks are kept below 2 ** 20 rounds
# ACCURACY[d]: per strategy k = 0, 1, 2 of a half, 3 when the opponent played e + d (the move
# strategy k expects when k = d), else 0; a silent half adds 1 to all three. A field then
# holds 3 * (rounds its expectation was right) + (rounds it was silent), which is twice the
# accuracy record plus the number of rounds: the same offset for every strategy.
ACCURACY = tuple(_packed(*(3 if k == d else 0 for k in range(3))) for d in range(3))
# BELIEVERS[b]: a field of all ones where strategy k of a half expecting e expects b
BELIEVERS = tuple(
    _sides(
        tuple(_packed(*(FIELD_ONES if (e + k) % 3 == b else 0 for k in range(3))) for e in range(3))
        + (_packed(0, 0, 0),)
    )
    for b in range(3)
)
# SPEAKING: all ones in the three fields of a half that expects a move, zeros if it is silent
SPEAKING = _sides((_packed(FIELD_ONES, FIELD_ONES, FIELD_ONES),) * 3 + (_packed(0, 0, 0),))
# ROTATED[theirs][move]: rewards of the meta rotations r = 0, 1, 2, which play move + r
ROTATED = tuple(
    tuple(tuple((1, -1, 0)[(move + r - theirs - 1) % 3] for r in range(3)) for move in range(3))
    + ((0, 0, 0),)
    for theirs in range(3)
)


@dataclass(frozen=True)
class EnsembleConfig:
    """Tunable constants of the meta levels."""

    windows: tuple[int, ...] = (1000, 100, 50, 20, 10)
    meta_decay: float = 0.99
    hedge_threshold: float = -3.0
    trust_decay: float = 0.98
    trust_prior: tuple[float, float] = (5.0, 1.0)
    naive_prior: int = 4
    switch_margin: float = 0.5
    prior_fading: float = 0.99
    rotation_penalty: float = 5.0
    window_penalty: float = 0.0
    caution_rounds: int = 100
    caution_margin: float = 1.0
    caution_reach: float = 2.0
    tie_fading: float = 0.94
    caution_on_doubt: bool = True
    beaten_run: int = 3
    trust_bar: float = 0.5
    trust_floor: float = 0.1
    tenure_rounds: int = 5
    exact_tests: int = 5
    exposure_run: int = 4

    def __post_init__(self) -> None:
        windows = self.windows
        if (
            not isinstance(windows, tuple)
            or not windows
            or not all(type(w) is int and w >= 1 for w in windows)
        ):
            raise ValueError(
                f"invalid windows {windows!r}: expected a tuple of positive round counts"
            )
        for name in ("meta_decay", "trust_decay", "prior_fading", "tie_fading"):
            check_decay(getattr(self, name), name)
        bar = self.trust_bar
        if isinstance(bar, bool) or not isinstance(bar, (int, float)) or not 0.5 <= bar < 1.0:
            raise ValueError(
                f"invalid trust_bar {bar!r}: expected a share from 0.5 up to (not including) 1"
            )
        floor = self.trust_floor
        if isinstance(floor, bool) or not isinstance(floor, (int, float)) or not 0.0 <= floor < 0.5:
            raise ValueError(
                f"invalid trust_floor {floor!r}: expected a chance from 0 up to (not including) 1/2"
            )
        prior = self.trust_prior
        if (
            not isinstance(prior, tuple)
            or len(prior) != 2
            or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and x > 0 for x in prior
            )
        ):
            raise ValueError(f"invalid trust_prior {prior!r}: expected two positive numbers")
        if not isinstance(self.caution_on_doubt, bool):
            raise ValueError(
                f"invalid caution_on_doubt {self.caution_on_doubt!r}: expected True or False"
            )
        for name in (
            "naive_prior",
            "caution_rounds",
            "beaten_run",
            "tenure_rounds",
            "exact_tests",
            "exposure_run",
        ):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"invalid {name} {value!r}: expected a non-negative integer")
        for name in (
            "hedge_threshold",
            "switch_margin",
            "rotation_penalty",
            "window_penalty",
            "caution_margin",
            "caution_reach",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
                raise ValueError(f"invalid {name} {value!r}: expected a number")


@dataclass(frozen=True)
class Choice:
    """One round's decision, with what led to it."""

    move: Move
    strategy: str
    window: int
    rotation: int
    score: float
    hedging: bool
    cautious: bool = False
    exact: bool = False  # the move beats what an exact model forces (see the module docstring)
    hedge: str = ""  # the hedging rule that sent the move to random play ("": followed)


class Ensemble:
    """Predictors x six strategies x windows x rotated meta-meta, with a random hedge."""

    def __init__(
        self,
        rng: random.Random | None = None,
        factories: dict[str, Factory] | None = None,
        config: EnsembleConfig | None = None,
    ) -> None:
        self._rng = rng if rng is not None else random.Random()
        factories = dict(PREDICTORS if factories is None else factories)
        if not factories:
            raise ValueError("an ensemble needs at least one predictor")
        self.config = config if config is not None else EnsembleConfig()
        probe = random.Random(0)
        probes = {name: make(probe) for name, make in factories.items()}
        offers = {name: check_capabilities(probe) for name, probe in probes.items()}
        selectable = {name: offers[name].selectable for name in factories}
        if not any(selectable.values()):
            raise ValueError("an ensemble needs at least one selectable predictor")
        # the order of the strategies breaks ties (the first wins): selectable ones first
        order = sorted(factories, key=lambda name: not selectable[name])
        self._factories = {name: factories[name] for name in order}
        self.strategy_names = tuple(
            f"{name}{mark}.{k}" for name in self._factories for mark in ("", "'") for k in range(3)
        )
        strategies = 6 * sum(selectable.values())
        # Only the halves that work are updated (a one-half predictor idles in its other half,
        # always silent). Strategy s = 6 i + 3 m + k (predictor i, mirrored m, rotation k) is
        # packed in the three fields of its half's slot: the working direct halves first, then
        # the working mirrored ones, so each side's parts are gathered in one pass over what
        # they said, then the idle halves, whose parts are always the same.
        n = len(order)
        working = tuple(
            tuple(i for i, name in enumerate(order) if works_as(probes[name], mirrored))
            for mirrored in (False, True)
        )
        slots = [(i, m) for m in range(2) for i in working[m]]
        slots += [(i, m) for m in range(2) for i in range(n) if i not in working[m]]
        slot = {half: position for position, half in enumerate(slots)}
        fields = [3 * slot[i, m] + k for i in range(n) for m in range(2) for k in range(3)]
        self._working = working
        # a carried-over model's fresh twin in the line-up, by index: until the first new
        # match the twin has seen the same rounds, so the carried model follows it instead
        # of doing the same work (see CarriedOver.follow); not a twin that borrows work from
        # another predictor, which a new match rebuilds (a class whose share may borrow says
        # whether it did: ``borrowing``)
        index = {probes[name].name: i for i, name in enumerate(order)}
        twins = {
            i: index.get(probes[name].name.removeprefix("carried-"), -1)
            for i, name in enumerate(order)
            if offers[name].carried
        }
        self._twin_of = {
            i: j
            for i, j in twins.items()
            if j >= 0 and (not offers[order[j]].shares or offers[order[j]].tells_borrowing)
        }
        self._idle = len(slots) - len(working[0]) - len(working[1])
        # where predictor i's direct (mirrored) half's prediction is in the list of what the
        # working halves said (-1: an idle half)
        self._said_at = tuple(
            tuple(working[m].index(i) if i in working[m] else -1 for i in range(n))
            for m in range(2)
        )
        # Occam at the meta-meta level: second-guessing rotations and shorter windows must
        # beat the plain longest-window choice by a margin before they are followed.
        config = self.config
        self._handicaps = tuple(
            (config.rotation_penalty if r else 0.0) + (config.window_penalty if a else 0.0)
            for a in range(len(config.windows))
            for r in range(3)
        )
        # the fields of selectable strategies: only they are scored (the others' keys stay 0,
        # so they are never compared, and a knockout needs no mask)
        board = self._board = PackedFields(FIELD_BITS, len(fields))
        self._selectable = board.pack(
            board.mask if field in fields[:strategies] else 0 for field in range(board.count)
        )
        # Occam's head start: naive strategies (k = 0) begin with a small credit, so early
        # ties go to them rather than to second-guessing; sliding windows forget it.
        naive = self.config.naive_prior
        credits = [naive if k == 0 else 0 for _ in range(2 * n) for k in range(3)]
        self._hedge = Hedge(
            LosingRecord(config.hedge_threshold),
            BeatenRun(config.beaten_run),
            ThompsonTrust(
                decay=config.trust_decay,
                prior=config.trust_prior,
                fading=config.prior_fading,
                bar=config.trust_bar,
                floor=config.trust_floor,
                tenure=config.tenure_rounds,
            ),
            Exposure(config.exposure_run, config.trust_decay),
            config.tie_fading,
        )
        # a window's field holds at most 2 per round plus the credit: ``shift`` bits
        self._span = max(self.config.windows) + 1
        self._shift = (2 * self._span + naive).bit_length()
        # a window's sort key: its score, the longest window's score, the streak, and the
        # strategy's position reversed (so the largest key is unique and names the first
        # strategy among equals, and one ``max`` finds it); whether the strategy speaks
        # ranks between the longest window's score and the streak, looked at only when the
        # key's winner is silent
        self._index_bits = max(1, (strategies - 1).bit_length())
        if 2 * self._shift + STREAK_BITS + self._index_bits > GUARD:
            raise ValueError(
                f"invalid windows {self.config.windows!r}: the longest is too long to pack"
            )
        positions = [0] * board.count
        for s, f in enumerate(fields[:strategies]):
            positions[f] = strategies - 1 - s
        self._positions = board.pack(positions)
        # scores are kept where a key holds them, shifted up past the key's lower parts, so
        # that a window's keys are one subtraction away (see choose_move)
        self._key_shift = self._shift + STREAK_BITS + self._index_bits
        self._prior = (board.pack(credits) & self._selectable) << self._key_shift
        self._field_of = tuple(fields)  # strategy s's field
        self._strategies = strategies
        # patterns[theirs]: the packed rewards of every half, by what it expected; likewise
        # its accuracy parts
        self._patterns = self._by_their_move(PATTERN)
        self._accuracy_patterns = self._by_their_move(ACCURACY)
        self._streak_step = board.ones << self._index_bits  # one more round of every streak
        self.reset()

    @staticmethod
    def _by_their_move(table: tuple[bytes, ...]) -> tuple[Parts, ...]:
        """``table[d]`` (d: their move minus the expected one), per their move, looked up
        by each half's prediction (a silent half's part is ``SILENT``)."""
        return tuple(
            _sides(tuple(table[(theirs - e) % 3] for e in range(3)) + (SILENT,))
            for theirs in range(3)
        )

    def reset(self) -> None:
        """Start a match afresh: new predictors, and every score at its prior."""
        self._new_predictors(carry=False)
        self._new_scores()
        self._blank = True  # nothing chosen or observed since (see new_match)

    def new_match(self) -> None:
        """Start a match against an opponent that may remember the last one: every score
        starts afresh and so do the predictors, but those carried over (see
        :class:`roshambo.predictors.carried.CarriedOver`) keep everything seen since the
        last ``reset``, so that an opponent carrying its counts from earlier matches (as the
        fCC bots do) is modelled from all it saw. Before any round since ``reset``, the
        match is a fresh one already (as ``RPS.player``'s first is): nothing changes, and
        the carried models keep following their fresh twins."""
        if self._blank:
            return
        for halves in self._halves:
            for half in halves:
                if half.capabilities.carried:
                    half.adopt()  # type: ignore[attr-defined]
        unanswered = self._unanswered
        if unanswered is not None:
            # The last round of a match is never observed (the fCC harness starts the next
            # match with ""): the opponent played a move we never saw, and never saw ours.
            # Carried models that read the opponent's own moves (a cycle's position) take the
            # move our choice expected, right against an opponent we had found out; models of
            # an opponent reading our moves skip the round, which never reached it (the fCC
            # bots take a missing move for rock; ours do not guess).
            mine, theirs = unanswered
            for mirrored, halves in enumerate(self._halves):
                for half in halves:
                    if (
                        half.capabilities.carried
                        and real_side(half.source, bool(mirrored)) == "their"
                    ):
                        half.update(theirs, mine) if mirrored else half.update(mine, theirs)
        self._new_predictors(carry=True)
        self._new_scores()

    def _new_predictors(self, carry: bool) -> None:
        rng = self._rng
        old = self._halves if carry else None
        kept = [
            [
                old is not None and old[m][i].capabilities.carried
                for i in range(len(self._factories))
            ]
            for m in range(2)
        ]
        direct: list[Predictor] = [
            old[0][i] if kept[0][i] else make(rng)  # type: ignore[index]
            for i, make in enumerate(self._factories.values())
        ]
        mirror: list[Predictor] = [
            old[1][i] if kept[1][i] else make(rng)  # type: ignore[index]
            for i, make in enumerate(self._factories.values())
        ]
        self._halves: tuple[list[Predictor], list[Predictor]] = (direct, mirror)
        # halves that would compute what another half already does borrow its work, in the
        # order of the updates (every direct half, then every mirrored one), so that the
        # owner always updates first (a kept half offered already, when it was new)
        shared: dict[object, object] = {}
        for halves, mirrored in ((direct, False), (mirror, True)):
            for i, half in enumerate(halves):
                if not kept[mirrored][i]:
                    half.share(shared, mirrored)
        for m, halves in enumerate((direct, mirror)):
            for i, half in enumerate(halves):
                if kept[m][i]:
                    half.new_match()  # type: ignore[attr-defined]
                elif i in self._twin_of and not self._borrows(halves[self._twin_of[i]]):
                    half.follow(halves[self._twin_of[i]])  # type: ignore[attr-defined]
        # bound methods of the working halves, looked up once per match rather than once per
        # predictor a round
        self._updates = [direct[i].update for i in self._working[0]]
        self._mirror_updates = [mirror[i].update for i in self._working[1]]
        # per half (every predictor's, by its index), how to ask whether it doubts its
        # prediction (None: never)
        self._doubts = [
            [p.doubt if p.capabilities.doubt else None for p in halves]  # type: ignore[attr-defined]
            for halves in (direct, mirror)
        ]
        # the selectable direct halves that can name a move their exact model forces (see
        # choose_move), by predictor index; none if exact models are never followed
        self._exacts = (
            [
                (i, exact)
                for i in self._working[0]
                if 6 * i < self._strategies
                and direct[i].capabilities.exact
                and (exact := direct[i].exact) is not None  # type: ignore[attr-defined]
            ]
            if self.config.exact_tests
            else []
        )
        # what each working half's predictor said last round (None: nothing, as a kept half
        # says until it proves itself again)
        self._direct: list[Move | None] = [None] * len(self._updates)
        self._mirrored: list[Move | None] = [None] * len(self._mirror_updates)

    @staticmethod
    def _borrows(predictor: Predictor) -> bool:
        """Whether ``predictor``, offered to share, borrowed another's work (as far as it
        says: see Capabilities.tells_borrowing)."""
        return predictor.capabilities.tells_borrowing and predictor.borrowing  # type: ignore[attr-defined]

    def instrument(
        self, wrap: Callable[[str, str, Callable[..., Any]], Callable[..., Any]]
    ) -> None:
        """For measurements (``benchmarks/speed.py``): every call a round of this match makes
        into the predictors goes through ``wrap(half, call, function)`` instead, which returns
        what to call in its place; ``half`` names the working half (``P`` or ``P'``), ``call`` is
        "update", "exact" or "doubt". A wrapper may time the call, or record its answers and
        replay them to measure the meta levels alone. ``reset`` and ``new_match`` undo it."""
        names = list(self._factories)
        self._updates = [
            wrap(names[i], "update", update) for i, update in zip(self._working[0], self._updates)
        ]
        self._mirror_updates = [
            wrap(names[i] + "'", "update", update)
            for i, update in zip(self._working[1], self._mirror_updates)
        ]
        self._exacts = [(i, wrap(names[i], "exact", exact)) for i, exact in self._exacts]
        self._doubts = [
            [
                None if doubt is None else wrap(names[i] + mark, "doubt", doubt)
                for i, doubt in enumerate(doubts)
            ]
            for doubts, mark in zip(self._doubts, ("", "'"))
        ]

    def _new_scores(self) -> None:
        self._decision: Choice | None = None  # the last choice
        self._rounds = 0
        # packed cumulative (reward + 1) of every selectable strategy, shifted by key_shift
        self._total = self._prior
        # packed current winning streak of every strategy, where a key holds it (shifted by
        # index_bits)
        self._streaks = 0
        self._ring: list[int] = [self._prior] * self._span  # past totals, by round modulo span
        windows = len(self.config.windows)
        self._meta_moves: list[int] = [NO_MOVE] * windows
        self._meta_best: list[int] = [0] * windows
        # per window, the field where the last knockout's winner lies (-1: none yet)
        self._winners: list[int] = [-1] * windows
        self._meta_scores: list[float] = [0.0] * (3 * windows)
        self._current = 0  # the meta-meta choice being followed
        self._hedge.reset()
        self._accuracy = 0  # packed accuracy records (see ACCURACY), over the caution rounds
        self._intended = (
            NO_MOVE  # the last choice's move had the draw trusted it (see intended_move)
        )
        self._pending = NO_MOVE  # the same, until the round it was chosen for is observed
        self._unanswered: tuple[Move, Move] | None = None  # see choose_move
        self._tenure = 0  # rounds running this strategy and rotation were chosen before this one
        self._chosen = (
            -1,
            0,
        )  # the meta levels' last choice: strategy and rotation, followed or not

    def observe(self, mine: Move, theirs: Move) -> None:
        """Score every strategy and meta-strategy on the round just played, then learn it."""
        self._blank = False
        intended, self._pending = self._pending, NO_MOVE  # a choice is recorded once
        self._unanswered = None
        self._hedge.observe(mine, theirs, intended, self._rounds)
        direct = self._direct
        mirrored = self._mirrored
        if self._rounds < self.config.caution_rounds:
            self._accuracy += _gather(self._accuracy_patterns[theirs], direct, mirrored, self._idle)
        rewards = _gather(self._patterns[theirs], direct, mirrored, self._idle) & self._selectable
        self._rounds += 1
        self._total += rewards << self._key_shift
        if self._rounds % (1 << (STREAK_BITS - 1)) == 0:
            self._streaks = 0  # keep every streak below 2 ** STREAK_BITS
        # a strategy won where its field holds 2 (bit 1): all ones there, zeros elsewhere
        won = self._board.filled(self._board.bit_flags(rewards, 1))
        self._streaks = (self._streaks + self._streak_step) & won
        self._ring[self._rounds % self._span] = self._total
        meta_decay = self.config.meta_decay
        rotated = ROTATED[theirs]
        self._meta_scores = [
            meta_decay * score + reward
            for score, reward in zip(
                self._meta_scores, chain.from_iterable([rotated[m] for m in self._meta_moves])
            )
        ]
        # every predictor, then every mirrored twin on the swapped histories
        self._direct = [update(mine, theirs) for update in self._updates]
        self._mirrored = [update(theirs, mine) for update in self._mirror_updates]

    def _expects(self, strategy: int) -> int:
        """The opponent move a strategy's half expects this round (``NO_MOVE``: silent)."""
        i, r = divmod(strategy, 6)
        mirrored = r >= 3
        at = self._said_at[mirrored][i]
        if at < 0:
            return NO_MOVE  # an idle half
        if not mirrored:
            p = self._direct[at]
            return NO_MOVE if p is None else p
        q = self._mirrored[at]
        return NO_MOVE if q is None else (q + 1) % 3  # the opponent beats our predicted move

    def strategy_moves(self) -> tuple[Move | None, ...]:
        """The move every selectable strategy (``strategy_names``, in order) would play this
        round, None where its predictor is silent: what the meta levels choose among."""
        moves = []
        for s in range(self._strategies):
            e = self._expects(s)
            moves.append(None if e == NO_MOVE else (e + 1 + s % 3) % 3)
        return tuple(moves)

    def choose(self) -> Choice:
        """Pick this round's move (see :meth:`choose_move`) and say what led to it."""
        self.choose_move()
        choice = self.last_choice()
        assert choice is not None
        return choice

    def last_choice(self) -> Choice | None:
        """The last move chosen, with what led to it (None before the first choice)."""
        return self._decision

    def choose_move(self) -> Move:
        """Pick this round's move: best strategy per window, best rotated window, or the hedge."""
        self._blank = False
        rounds = self._rounds
        total = self._total
        expects = self._expects
        ring = self._ring
        span = self._span
        longest = span - 1
        index_bits = self._index_bits
        # ties within a window go to the better record over the longest window: every field
        # holds at most 2 * longest, so it fits between a key's score and its streak
        tiebreak = total if longest >= rounds else total - ring[(rounds - longest) % span]
        tiebreak = tiebreak >> self._shift | self._streaks | self._positions
        # the keys of a window as long as the match: a window's keys lack its older rounds
        whole = total + tiebreak
        selectable = self._selectable
        board = self._board
        last = self._strategies - 1
        index_mask = (1 << index_bits) - 1
        speaking = 0  # fields of all ones where the strategy speaks, gathered if needed
        records = STREAK_BITS + index_bits  # a key shifted by this: the two scores
        winners = self._winners
        for a, window in enumerate(self.config.windows):
            keys = whole if window >= rounds else whole - ring[(rounds - window) % span]
            # the last winner usually still leads: check it against every field at once (the
            # guard bit survives where it is at least the field), before a whole knockout
            winner = winners[a]
            top = board.field(keys, winner) if winner >= 0 else -1
            if top < 0 or not board.leads(top, keys):
                top = board.largest(keys)
            best = last - (top & index_mask)
            winners[a] = self._field_of[best]
            e = expects(best)
            if e == NO_MOVE:  # a silent winner: the best speaking key, if level or clearly winning
                if not speaking:
                    speaking = (
                        _gather(SPEAKING, self._direct, self._mirrored, self._idle) & selectable
                    )
                rival = board.largest(keys & speaking)
                if rival:
                    strategy = last - (rival & index_mask)
                    if rival >> records == top >> records or self._beats_chance(
                        rival, strategy, window
                    ):
                        best = strategy
                        e = expects(best)
            self._meta_best[a] = best
            self._meta_moves[a] = NO_MOVE if e == NO_MOVE else (e + 1 + best % 3) % 3
        meta = self._meta_scores
        ranked = [score - handicap for score, handicap in zip(meta, self._handicaps)]
        top = ranked.index(max(ranked))
        current = self._current
        if ranked[top] <= ranked[current] + self.config.switch_margin:
            top = current  # hysteresis: keep following the current meta-strategy unless beaten
        self._current = top
        a, rotation = divmod(top, 3)
        chosen = (self._meta_best[a], rotation)
        kept, self._chosen = chosen == self._chosen, chosen
        tenure = self._tenure = self._tenure + 1 if kept else 0
        if self._exacts:
            exact = self._exact_move(a, rotation)
            if (
                exact is not None
            ):  # followed outright: no draw, no caution (see the module docstring)
                predictor, expected = exact
                intended = self._intended = self._pending = (expected + 1) % 3
                trusted, why = self._hedge.exact_verdict()
                move = intended if trusted else self._rng.randrange(3)
                # reported as its P.0, unrotated
                self._decision = self._choice(
                    move, 6 * predictor, a, 3 * a, trusted, why, exact=True
                )
                self._unanswered = (move, expected)
                return move
        move = self._meta_moves[a]
        followable, trusted, why = self._hedge.verdict(self._rng, move, meta[top], rounds, tenure)
        planned = (move + rotation) % 3 if move != NO_MOVE else NO_MOVE
        cautious = followable and (
            rounds < self.config.caution_rounds
            and self._cautious(planned)
            or self.config.caution_on_doubt
            and self._in_doubt(self._meta_best[a])
        )
        intended = (
            (planned + 2) % 3 if cautious else planned
        )  # caution ties the expected move, beats the rival
        self._intended = self._pending = intended if followable else NO_MOVE
        move = intended if trusted else self._rng.randrange(3)
        cautious = cautious and trusted
        self._decision = self._choice(move, self._meta_best[a], a, top, trusted, why, cautious)
        # our move, and the opponent move the choice expected, until the round is observed
        # (see new_match); nothing when the choice expected nothing
        self._unanswered = (move, (planned - 1) % 3) if planned != NO_MOVE else None
        return move

    def _choice(
        self,
        move: Move,
        strategy: int,
        window: int,
        top: int,
        trusted: bool,
        why: str,
        cautious: bool = False,
        exact: bool = False,
    ) -> Choice:
        """The decision of the round: ``strategy`` followed through the meta-strategy of
        ``window`` rotated as meta-meta choice ``top`` says, or the hedge's coin and why."""
        return Choice(
            move=move,
            strategy=self.strategy_names[strategy],
            window=self.config.windows[window],
            rotation=top % 3,
            score=self._meta_scores[top],
            hedging=not trusted,
            cautious=cautious,
            exact=exact,
            hedge=why,
        )

    def _beats_chance(self, key: int, strategy: int, window: int) -> bool:
        """Whether ``strategy``'s record over ``window`` (its ``key`` there) beats a coin's by
        more than 2 sqrt(n) over the window's n rounds, its naive credit aside."""
        seen = min(window, self._rounds)
        bar = seen + 2.0 * math.sqrt(seen)  # a key's score is the rounds seen plus the record
        if window >= self._rounds and strategy % 3 == 0:
            bar += self.config.naive_prior  # the window still holds the naive strategies' credit
        return key >> self._key_shift > bar

    def intended_move(self) -> Move | None:
        """The move the last choice would have been had the Thompson draw trusted the
        meta-meta choice (caution included): the engine's deterministic part, which anything
        holding our code can compute. None before the first choice, or when the hedge was
        certain (a silent or clearly losing choice); a coin after beaten choices running
        keeps it, since whether the opponent beats it says when the run ends."""
        return None if self._intended == NO_MOVE else self._intended

    def _exact_move(self, window: int, rotation: int) -> tuple[int, Move] | None:
        """The predictor whose exact model has been tested by the most moves, at least
        ``exact_tests`` and more than the rounds the choice we would follow otherwise (the
        meta-strategy of ``window``, rotated) has been winning running, with the move it
        expects; None if there is none."""
        found = None
        most = self.config.exact_tests - 1
        for predictor, exact in self._exacts:
            said = exact()
            if said is not None and said[1] > most:
                most = said[1]
                found = predictor, said[0]
        if found is not None and self._meta_moves[window] != NO_MOVE:
            best = self._meta_best[window]
            followed = best - best % 3 + (best % 3 + rotation) % 3  # the strategy we would play
            streak = self._board.field(self._streaks, self._field_of[followed]) >> self._index_bits
            if streak >= most:
                return None
        return found

    def _in_doubt(self, strategy: int) -> bool:
        """Whether the predictor behind ``strategy`` doubts its prediction (see
        ``Predictor``): whatever the strategy's turn and the meta-meta rotation, the move it
        leaves open is the one that beats the planned move."""
        i, r = divmod(strategy, 6)
        doubt = self._doubts[r >= 3][i]
        return doubt is not None and doubt()

    def _cautious(self, move: Move) -> bool:
        """Whether a rival expectation that would beat ``move`` is close enough to the one
        it answers, and clearly ahead of the third, to play the tie-or-win move instead."""
        accuracy = self._accuracy & self._selectable
        board = self._board
        direct = self._direct
        mirrored = self._mirrored
        # best record among the strategies expecting each move (twice the accuracy, plus
        # the same offset for all; 0 if no strategy expects it)
        best = [
            board.largest(accuracy & _gather(BELIEVERS[b], direct, mirrored, self._idle))
            for b in range(3)
        ]
        config = self.config
        answered, rival, tied = (move + 2) % 3, (move + 1) % 3, move
        return (
            best[rival] >= best[tied] + 2 * config.caution_margin
            and best[rival] >= best[answered] - 2 * config.caution_reach
        )
