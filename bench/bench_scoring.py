"""Benchmark: score random 3-handed hands with scoring.score_hand.

    python bench/bench_scoring.py [--hands N] [--seed S]

Every hand is dealt from its own shuffled deck (seeded, so runs are repeatable):
13 cards per player, front 3 / middle 5 / back 5 as card text, the way the
tournament layer passes them. Only the scoring is timed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import SM, score_hand  # noqa: E402

DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]


def deal(rng: random.Random, players: int = 3) -> list[dict[str, str]]:
    deck = DECK[:]
    rng.shuffle(deck)
    boards = []
    for p in range(players):
        cards = deck[13 * p : 13 * p + 13]
        boards.append(
            {
                "front": " ".join(cards[:3]),
                "middle": " ".join(cards[3:8]),
                "back": " ".join(cards[8:]),
            }
        )
    return boards


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=20190101)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    hands = [deal(rng) for _ in range(args.hands)]

    fouls = fantasyland = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    for boards in hands:
        for result in score_hand(boards, rules=SM):
            fouls += result.fouled
            fantasyland += result.fantasyland
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - start_cpu

    def rate(seconds: float) -> str:
        return f"{args.hands / seconds:,.0f}" if seconds > 0 else "inf"

    print(
        f"scoring: {args.hands} three-handed hands in {elapsed:.2f} s = {rate(elapsed)} hands/s "
        f"({rate(cpu)} hands/s of CPU time; {fouls} fouled boards, "
        f"{fantasyland} Fantasyland entries; seed {args.seed})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
