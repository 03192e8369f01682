"""The command line: python -m scoring "front / middle / back" ..."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.__main__ import main

ROOT = Path(__file__).resolve().parents[2]

A = "Qs Qh 7d / Qd Qc 9s 8c 2c / As Ad Ac 3s 3d"  # QQ (7) / QQ / aces full (6)
B = "6s 6h 2h / Ks Kh 9d 8d 7s / Js Jh Jd 3c 4s"  # 66 (1) / KK / trips
C = "Th Td Tc / 5s 5h 5d 5c 2d / 9h 8h 7h 4h 3h"  # TTT / quads / flush: fouled


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_three_players(capsys):
    code, out, err = run(capsys, A, B, C, "--fantasyland", "3")
    assert code == 0 and err == ""
    # A vs B: +1 -1 +1 = +1, royalties 13 - 1: +13.  A vs C (fouled): 6 + 13 = 19.  A = 32
    # B vs C: 6 + 1 = 7.  B = -13 + 7 = -6.  C = -19 - 7 = -26
    blocks = out.split("\n\n")
    assert blocks[0] == "Rules: royalties us, method 1-6, Fantasyland repeat unlimited"
    p1, p2, p3 = (block.rstrip() for block in blocks[1:])
    assert p1.splitlines()[0] == "Player 1"
    assert "Q♠ Q♥ 7♦" in p1 and "pair of queens" in p1 and "royalty 7" in p1
    assert "full house, aces full of threes" in p1
    assert "royalties: 13" in p1
    assert "Fantasyland next hand: yes" in p1
    assert p1.endswith("points: +32")
    assert p2.endswith("points: -6")
    assert "fouled: no" in p2
    assert p3.splitlines()[0] == "Player 3 (played this hand in Fantasyland, FOULED)"
    assert "10♥ 10♦ 10♣" in p3 and "three tens" in p3
    assert "fouled: yes" in p3 and "Fantasyland next hand: no" in p3
    assert p3.endswith("points: -26")


def test_options(capsys):
    # Two players, 2-4 and Russian: A vs B: A wins front and back, B the middle:
    # A 2 + 1 = 3, B 1: +2, royalties 13 - 1 = 12: A +14
    code, out, _ = run(capsys, A, B, "--method", "2-4", "--royalties", "russian")
    assert code == 0
    assert out.startswith("Rules: royalties russian, method 2-4, Fantasyland repeat unlimited")
    assert out.rstrip().endswith("points: -14")
    assert "points: +14" in out


def test_fantasyland_repeat_and_streak(capsys):
    # B played his 2nd Fantasyland hand; with "once" he cannot stay (he would not anyway).
    # A played in Fantasyland: QQ does not keep him there.
    code, out, _ = run(capsys, A, B, "--fantasyland", "1,2:2", "--fantasyland-repeat", "once")
    assert code == 0
    assert out.count("played this hand in Fantasyland") == 2
    assert "Fantasyland next hand: yes" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([A, A], "error: Card Q♠ appears twice: player 1 front and player 2 front"),
        ([A, "Qs Qh"], 'error: player 2 board must be three rows "front / middle / back"'),
        ([A, B, "--method", "3-3"], "error: Rules method must be one of '1-6', '2-4', got '3-3'"),
        ([A, B, "--fantasyland", "4"], "error: --fantasyland: there is no player 4"),
        ([A, B, "--fantasyland", "x"], "error: --fantasyland takes player numbers like 1,3"),
        ([A], "error: A hand needs 2 or 3 players, got 1"),
        ([A, B.replace("Ks", "Zz")], "error: Unknown card 'Zz' in player 2 middle"),
        ([A, B.replace("4s", "")], "error: player 2 back has 4 cards, needs 5"),
    ],
)
def test_errors(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith(message)
    assert err.count("\n") == 1  # one line


def test_as_a_real_command():
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    ok = subprocess.run(
        [sys.executable, "-m", "scoring", A, B],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        env=env,
    )
    assert ok.returncode == 0, ok.stderr
    assert "points: +13" in ok.stdout and "points: -13" in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "scoring", A, A],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        env=env,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: Card Q♠ appears twice")
