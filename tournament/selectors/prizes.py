"""The prize pool and the payouts a page shows (docs/prizes.md): the arithmetic is
tournament/rules/payouts.py's; here, who pays and the standings it is applied to."""

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournament.models import Player, Tournament
from tournament.rules.payouts import (
    PlacePrize,
    payout_table,
    prize_pool,
    standard_shares,
    standing_prizes,
)
from tournament.selectors.standings import Standing


@dataclass(frozen=True)
class PrizeFigures:
    """What a tournament pays out, for a field of `paying` players."""

    currency: str
    buy_in: int  # in the smallest unit, as every amount here
    fee: int
    added_money: int
    paying: int  # players registered and not withdrawn (rules/payouts.py)
    pool: int
    shares: tuple[int, ...]  # basis points, 1st first: the TD's, or the standard for the field
    standard: bool  # the shares are the standard structure for the field's size
    unit: int  # each prize rounded down to this
    places: list[PlacePrize]  # 1st first

    @property
    def any(self) -> bool:
        """Whether there is anything to pay out (a buy-in or added money)."""
        return self.pool > 0

    @property
    def fee_total(self) -> int:
        """What the organiser keeps."""
        return self.paying * self.fee

    @property
    def net_buy_in(self) -> int:
        """What each buy-in puts into the pool."""
        return self.buy_in - self.fee

    @property
    def buy_ins_total(self) -> int:
        """What the buy-ins put into the pool, all together."""
        return self.paying * self.net_buy_in


def paying_players(tournament: Tournament) -> int:
    """Players registered and not withdrawn: each has paid his buy-in. 1 query."""
    return Player.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()


def prize_figures(
    tournament: Tournament,
    paying: int | None = None,
    *,
    settings: Mapping[str, Any] | None = None,
) -> PrizeFigures:
    """The pool and each place's prize for `paying` players (by default those of the
    tournament now: 1 query), from the tournament's prize settings or `settings` (a dict
    of Tournament.PRIZE_SETTINGS, e.g. a form's values not saved yet)."""
    if paying is None:
        paying = paying_players(tournament)
    values = settings or {}

    # Any: a setting is a field of the tournament or a form's cleaned value, by name.
    def value(name: str) -> Any:
        return values[name] if name in values else getattr(tournament, name)

    pool = prize_pool(
        paying=paying, buy_in=value("buy_in"), fee=value("fee"), added=value("added_money")
    )
    chosen = tuple(value("payout_shares") or ())
    shares = chosen or standard_shares(paying)
    unit = value("prize_rounding")
    return PrizeFigures(
        currency=value("currency"),
        buy_in=value("buy_in"),
        fee=value("fee"),
        added_money=value("added_money"),
        paying=paying,
        pool=pool,
        shares=shares,
        standard=not chosen,
        unit=unit,
        places=payout_table(pool, shares, unit) if pool > 0 else [],
    )


@dataclass(frozen=True)
class PoolChange:
    """The pool before and after a change of the field (a player added or withdrawn)."""

    before: PrizeFigures
    after: PrizeFigures

    @property
    def any(self) -> bool:
        return self.before.any or self.after.any


def pool_change(tournament: Tournament, paying: int, change: int) -> PoolChange:
    """The figures now (`paying` players) and with `change` players more (or fewer)."""
    return PoolChange(
        prize_figures(tournament, paying), prize_figures(tournament, max(0, paying + change))
    )


def standings_final(tournament: Tournament, rows: Sequence[Standing]) -> bool:
    """Whether the standings are final: the tournament is finished, or its champion is
    known (the final table is over, before the TD closes its level)."""
    return tournament.finished_at is not None or any(row.status == "champion" for row in rows)


def with_prizes(
    tournament: Tournament, rows: Sequence[Standing], figures: PrizeFigures | None = None
) -> list[Standing]:
    """The standings (`selectors.standings`) with each line's `prize` once they are final
    and there is a pool; as they are otherwise. No query: every line of the standings is
    a player registered and not withdrawn, that is, one who paid."""
    if figures is None:
        figures = prize_figures(tournament, len(rows))
    if not figures.any or not standings_final(tournament, rows):
        return list(rows)
    prizes = standing_prizes([row.rank for row in rows], figures.pool, figures.shares, figures.unit)
    return [dataclasses.replace(row, prize=prize) for row, prize in zip(rows, prizes, strict=True)]


@dataclass(frozen=True)
class PrizedStandings:
    """The standings with their prizes, for a page: `rows` (each with its `prize` once
    final), the tournament's `figures`, and whether the standings are `final`."""

    rows: list[Standing]
    figures: PrizeFigures
    final: bool

    @property
    def shown(self) -> bool:
        """Whether the standings show a prize column: final, with a pool."""
        return self.final and self.figures.any


def prized_standings(tournament: Tournament, rows: Sequence[Standing]) -> PrizedStandings:
    """`rows` (selectors.standings) with their prizes: no query."""
    figures = prize_figures(tournament, len(rows))
    return PrizedStandings(
        with_prizes(tournament, rows, figures), figures, standings_final(tournament, rows)
    )


__all__ = [
    "PrizedStandings",
    "prized_standings",
    "PlacePrize",
    "PoolChange",
    "PrizeFigures",
    "paying_players",
    "pool_change",
    "prize_figures",
    "standings_final",
    "with_prizes",
]
