"""The TD's exports: every hand result of a tournament."""

from tournament.models import (
    HandResult,
    Tournament,
)


def tournament_hand_results(tournament: Tournament) -> list[HandResult]:
    """Every player's line of every current hand version of the tournament, for the hands
    CSV: 1 query at any size.

    In the order played (level, table, hand, seat), each with its version (and who
    entered it), hand, table, level, seat and player, and `dealer_name`: the player
    who dealt the hand (the dealer always plays the hand, so is among its lines).
    """
    results = list(
        HandResult.objects.filter(
            version__hand__table__level__tournament=tournament,
            version__hand__table__draw__superseded_at__isnull=True,
            version__superseded_at__isnull=True,
        )
        .select_related("version__hand__table__level", "version__created_by", "seat__player")
        .order_by(
            "version__hand__table__level__number",
            "version__hand__table__number",
            "version__hand__number",
            "seat__position",
        )
    )
    names: dict[tuple[int, int | None], str] = {
        (r.version_id, r.seat.position): r.seat.player.name for r in results
    }

    for result in results:
        hand = result.version.hand
        # Read by the hands CSV beside the columns: not a field of the model.
        result.dealer_name = names.get(  # type: ignore[attr-defined]
            (result.version_id, hand.dealer_position), ""
        )

    return results
