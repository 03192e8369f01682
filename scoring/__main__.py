"""Command line: score one hand.

    python -m scoring "Qs Qh 7d / Qd Qc 9s 8h 2c / As Ad Ac 3s 3d" "..." ["..."]
        [--royalties us|russian] [--method 1-6|2-4]
        [--fantasyland 1,3] [--fantasyland-repeat unlimited|once|never]

Each positional argument is one player's board, "front / middle / back", in seat
order. ``--fantasyland`` lists the players (1-based) who played this hand in
Fantasyland; ``2:3`` means player 2 played his 3rd Fantasyland hand in a row.
Exit code 0 when scored, 2 on bad input (one-line error on stderr).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .boards import ROWS, parse_boards
from .cards import format_cards
from .errors import InvalidHand
from .result import PlayerResult
from .rules import Rules
from .settle import score_hand


def _split_board(text: str, player: int) -> dict[str, object]:
    parts = text.split("/")
    if len(parts) != 3:
        raise InvalidHand(
            f'player {player} board must be three rows "front / middle / back" separated '
            f'by "/", got {len(parts)} part{"" if len(parts) == 1 else "s"}',
            code="command_line",
            player=player,
            params={"parts": len(parts)},
        )
    return dict(zip(ROWS, (p.strip() for p in parts), strict=True))


def _fantasyland_players(text: str | None, n: int) -> dict[int, int]:
    """``"1,3"`` or ``"1:2,3"`` -> {player: streak}."""
    out: dict[int, int] = {}
    if not text:
        return out
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        player_text, _, streak_text = item.partition(":")
        try:
            player = int(player_text)
            streak = int(streak_text) if streak_text else 1
        except ValueError:
            raise InvalidHand(
                f"--fantasyland takes player numbers like 1,3 (or 2:3 for a 3rd "
                f"Fantasyland hand in a row), got {item!r}",
                code="command_line",
                params={"fantasyland": item},
            ) from None
        if not 1 <= player <= n:
            raise InvalidHand(
                f"--fantasyland: there is no player {player} (players 1-{n})",
                code="command_line",
                params={"fantasyland": item},
            )
        out[player] = streak
    return out


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description="Score one hand of Pineapple Open Face Chinese poker (2 or 3 players).",
    )
    parser.add_argument(
        "boards",
        nargs="+",
        metavar="BOARD",
        help='one player\'s board, "front / middle / back", e.g. '
        '"Qs Qh 7d / Qd Qc 9s 8h 2c / As Ad Ac 3s 3d"',
    )
    parser.add_argument("--royalties", default="us", help="us (default, SM) or russian")
    parser.add_argument("--method", default="1-6", help="1-6 (default, SM) or 2-4")
    parser.add_argument(
        "--fantasyland",
        metavar="PLAYERS",
        help="players who played this hand in Fantasyland, e.g. 1,3 (2:3 = player 2's "
        "3rd Fantasyland hand in a row)",
    )
    parser.add_argument(
        "--fantasyland-repeat",
        default="unlimited",
        help="unlimited (default, SM), once or never",
    )
    return parser


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def render(boards: list[dict[str, object]], results: Sequence[PlayerResult], rules: Rules) -> str:
    parsed = parse_boards(boards)
    lines = [
        f"Rules: royalties {rules.royalties}, method {rules.method}, "
        f"Fantasyland repeat {rules.fantasyland_repeat}"
    ]
    for number, (board, result) in enumerate(zip(parsed, results, strict=True), start=1):
        status = []
        if boards[number - 1].get("fantasyland"):
            status.append("played this hand in Fantasyland")
        if result.fouled:
            status.append("FOULED")
        lines.append("")
        lines.append(f"Player {number}" + (f" ({', '.join(status)})" if status else ""))
        for row in ROWS:
            cards = format_cards(getattr(board, row))
            royalty = result.row_royalties[row]
            lines.append(f"  {row:<7} {cards:<20} {result.descriptions[row]:<36} royalty {royalty}")
        lines.append(f"  royalties: {result.royalties}")
        lines.append(f"  fouled: {'yes' if result.fouled else 'no'}")
        lines.append(f"  Fantasyland next hand: {'yes' if result.fantasyland else 'no'}")
        lines.append(f"  points: {_signed(result.points)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = _build_parser().parse_args(argv)
    try:
        rules = Rules(
            royalties=args.royalties,
            method=args.method,
            fantasyland_repeat=args.fantasyland_repeat,
        )
        boards = [_split_board(text, i) for i, text in enumerate(args.boards, start=1)]
        for player, streak in _fantasyland_players(args.fantasyland, len(boards)).items():
            boards[player - 1]["fantasyland"] = True
            boards[player - 1]["fantasyland_streak"] = streak
        results = score_hand(boards, rules=rules)
    except InvalidHand as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(render(boards, results, rules))
    return 0


__all__ = ["main", "render"]

if __name__ == "__main__":
    sys.exit(main())
