"""Property tests (hypothesis) on random deals from a shuffled deck, and junk input."""

import math
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import SM, InvalidHand, Rules, score_hand

DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]
RANK = {r: i for i, r in enumerate("23456789TJQKA", start=2)}
ROWS = ("front", "middle", "back")
PROPS = settings(max_examples=200, deadline=None)

ALL_RULES = [
    Rules(royalties=r, method=m, fantasyland_repeat=f)
    for r in ("us", "russian")
    for m in ("1-6", "2-4")
    for f in ("unlimited", "once", "never")
]


def boards_from(cards, players):
    out = []
    for p in range(players):
        c = cards[13 * p : 13 * p + 13]
        out.append({"front": " ".join(c[:3]), "middle": " ".join(c[3:8]), "back": " ".join(c[8:])})
    return out


@st.composite
def deals(draw, players=None):
    n = draw(st.sampled_from([2, 3])) if players is None else players
    cards = draw(st.permutations(DECK))
    boards = boards_from(cards, n)
    for board in boards:
        if draw(st.booleans()) and draw(st.booleans()):
            board["fantasyland"] = True
            board["fantasyland_streak"] = draw(st.integers(1, 4))
    return boards


# --- an independent, deliberately naive reference scorer ---------------------------------

CATS = [
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
]


def ref_value(text):
    """(category index, ranks expanded and ordered by count then rank)."""
    cards = [(RANK[t[0]], t[1]) for t in text.split()]
    ranks = [r for r, _ in cards]
    count = Counter(ranks)
    ordered = tuple(sorted(ranks, key=lambda r: (count[r], r), reverse=True))
    shape = sorted(count.values(), reverse=True)
    if len(cards) == 3:
        return ({3: 3, 2: 1, 1: 0}[shape[0]], *ordered)
    flush = len({s for _, s in cards}) == 1
    straight_top = 0
    if len(count) == 5:
        if max(ranks) - min(ranks) == 4:
            straight_top = max(ranks)
        elif set(ranks) == {14, 2, 3, 4, 5}:
            straight_top = 5
    if flush and straight_top == 14:
        return (9, 14)
    if flush and straight_top:
        return (8, straight_top)
    if shape == [4, 1]:
        return (7, *ordered)
    if shape == [3, 2]:
        return (6, *ordered)
    if flush:
        return (5, *ordered)
    if straight_top:
        return (4, straight_top)
    if shape == [3, 1, 1]:
        return (3, *ordered)
    if shape == [2, 2, 1]:
        return (2, *ordered)
    if shape == [2, 1, 1, 1]:
        return (1, *ordered)
    return (0, *ordered)


BACK_US = {"straight": 2, "flush": 4, "full_house": 6, "four_of_a_kind": 10}
BACK_US |= {"straight_flush": 15, "royal_flush": 25}
BACK_RU = BACK_US | {"four_of_a_kind": 8, "straight_flush": 10, "royal_flush": 15}
MID_US = {"three_of_a_kind": 2, "straight": 4, "flush": 8, "full_house": 12}
MID_US |= {"four_of_a_kind": 20, "straight_flush": 30, "royal_flush": 50}
MID_RU = MID_US | {"four_of_a_kind": 16, "straight_flush": 20, "royal_flush": 30}


def ref_score(boards, rules):
    players = []
    for board in boards:
        f, m, b = (ref_value(board[row]) for row in ROWS)
        fouled = f > m or m > b
        if fouled:
            roy = 0
        else:
            front = 0
            if f[0] == 1 and f[1] >= 6:
                front = f[1] - 5
            if f[0] == 3:
                front = f[1] + 8
            mids, backs = (MID_US, BACK_US) if rules.royalties == "us" else (MID_RU, BACK_RU)
            roy = front + mids.get(CATS[m[0]], 0) + backs.get(CATS[b[0]], 0)
        if fouled:
            fl = False
        elif not board.get("fantasyland"):
            fl = f[0] == 3 or (f[0] == 1 and f[1] >= 12)
        else:
            qualifies = f[0] == 3 or m[0] >= 6 or b[0] >= 7
            streak = board.get("fantasyland_streak", 1)
            allowed = {"unlimited": True, "once": streak == 1, "never": False}
            fl = qualifies and allowed[rules.fantasyland_repeat]
        players.append(((f, m, b), fouled, roy, fl))
    pts = [0] * len(players)
    for i, (ri, fi, yi, _) in enumerate(players):
        for j, (rj, fj, yj, _) in enumerate(players):
            if i == j or (fi and fj):
                continue
            if fj:
                won, lost = 3, 0
            elif fi:
                won, lost = 0, 3
            else:
                won = sum(a > b for a, b in zip(ri, rj, strict=True))
                lost = sum(a < b for a, b in zip(ri, rj, strict=True))
            if rules.method == "1-6":
                mine = won + (3 if won == 3 else 0)
                theirs = lost + (3 if lost == 3 else 0)
            else:
                mine = won + (1 if won >= 2 else 0)
                theirs = lost + (1 if lost >= 2 else 0)
            pts[i] += mine - theirs + yi - yj
    return [(p, fo, y, fl) for p, (_, fo, y, fl) in zip(pts, players, strict=True)]


@PROPS
@given(deals(), st.sampled_from(ALL_RULES))
def test_matches_the_reference_scorer(boards, rules):
    got = [(r.points, r.fouled, r.royalties, r.fantasyland) for r in score_hand(boards, rules)]
    assert got == ref_score(boards, rules)
    for r, board in zip(score_hand(boards, rules), boards, strict=True):
        assert [r.categories[row] for row in ROWS] == [CATS[ref_value(board[w])[0]] for w in ROWS]


@PROPS
@given(deals(), st.sampled_from(ALL_RULES))
def test_points_sum_to_zero(boards, rules):
    results = score_hand(boards, rules=rules)
    assert sum(r.points for r in results) == 0
    for r in results:
        assert r.royalties == sum(r.row_royalties.values())
        if r.fouled:
            assert r.royalties == 0 and not r.fantasyland


@PROPS
@given(deals(), st.data())
def test_seat_order_does_not_matter(boards, data):
    order = data.draw(st.permutations(range(len(boards))))
    rules = data.draw(st.sampled_from(ALL_RULES))
    before = score_hand(boards, rules=rules)
    after = score_hand([boards[i] for i in order], rules=rules)
    assert [after[k] for k in range(len(order))] == [before[i] for i in order]


SUIT_MAPS = [dict(zip("shdc", p, strict=True)) for p in ["hdcs", "cdhs", "dshc", "shcd"]]


@PROPS
@given(deals(), st.sampled_from(SUIT_MAPS))
def test_relabelling_suits_changes_nothing(boards, suit_map):
    def relabel(text):
        return " ".join(c[0] + suit_map[c[1]] for c in text.split())

    moved = [{k: (relabel(v) if k in ROWS else v) for k, v in b.items()} for b in boards]
    assert score_hand(moved) == score_hand(boards)


@st.composite
def twin_deals(draw):
    """A deal where players 1 and 2 have equal-strength rows in one position."""
    row = draw(st.sampled_from(ROWS))
    size = 3 if row == "front" else 5
    ranks = draw(
        st.lists(st.sampled_from("23456789TJQKA"), min_size=size, max_size=size).filter(
            lambda rs: max(Counter(rs).values()) <= 2
        )
    )

    first = _pair_safe(ranks, "sh")
    second = _pair_safe(ranks, "dc")
    rest = [c for c in DECK if c not in first and c not in second]
    rest = draw(st.permutations(rest))
    n = draw(st.sampled_from([2, 3]))
    need = {"front": 3, "middle": 5, "back": 5}
    boards = []
    for p in range(n):
        board = {}
        for w in ROWS:
            if w == row and p < 2:
                board[w] = " ".join(first if p == 0 else second)
            else:
                board[w] = " ".join(rest[: need[w]])
                rest = rest[need[w] :]
        boards.append(board)
    return row, boards


def _pair_safe(ranks, suits):
    """``ranks`` as cards of the two ``suits``, both used (so never a flush)."""
    out, used = [], Counter()
    turn = 0
    for r in sorted(ranks):
        if used[r] == 1:
            # second card of a pair: the other suit than the first one
            first_suit = next(c[1] for c in out if c[0] == r)
            out.append(r + (suits[1] if first_suit == suits[0] else suits[0]))
        else:
            out.append(r + suits[turn % 2])
            turn += 1
        used[r] += 1
    return out


@PROPS
@given(twin_deals(), st.sampled_from(ALL_RULES))
def test_swapping_equal_strength_rows_changes_nothing(deal, rules):
    row, boards = deal
    first, second = boards[0][row].split(), boards[1][row].split()
    assert sorted(c[0] for c in first) == sorted(c[0] for c in second)
    assert len({c[1] for c in first}) == 2  # never a flush
    swapped = [dict(b) for b in boards]
    swapped[0][row], swapped[1][row] = boards[1][row], boards[0][row]
    assert score_hand(swapped, rules=rules) == score_hand(boards, rules=rules)


# --- junk ----------------------------------------------------------------------------------

KEYS = st.sampled_from(["front", "middle", "back", "fantasyland", "fantasyland_streak", "x"])
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.binary(max_size=4)
    | st.sampled_from(DECK + ["10h", "A♠", "Qs Qh 7d", "", "/"])
    | st.just(math.nan)
)
JUNK = st.recursive(
    LEAVES,
    lambda kids: (
        st.lists(kids, max_size=6)
        | st.tuples(kids, kids)
        | st.dictionaries(KEYS | st.text(max_size=3), kids, max_size=6)
        | st.frozensets(st.integers(), max_size=3)
    ),
    max_leaves=25,
)


def only_invalid_hand(boards, rules=SM):
    try:
        results = score_hand(boards, rules=rules)
    except InvalidHand as exc:
        assert str(exc)
    else:
        assert isinstance(results, tuple)


@PROPS
@given(JUNK, JUNK | st.just(SM))
def test_junk_raises_only_invalid_hand(boards, rules):
    only_invalid_hand(boards, rules)


@PROPS
@given(deals(), st.data())
def test_damaged_boards_raise_only_invalid_hand(boards, data):
    p = data.draw(st.integers(0, len(boards) - 1))
    key = data.draw(KEYS)
    boards[p][key] = data.draw(JUNK)
    only_invalid_hand(boards)


@PROPS
@given(deals(), st.data())
def test_damaged_rows_raise_only_invalid_hand(boards, data):
    p = data.draw(st.integers(0, len(boards) - 1))
    row = data.draw(st.sampled_from(ROWS))
    cards = boards[p][row].split()
    cards[data.draw(st.integers(0, len(cards) - 1))] = data.draw(LEAVES | JUNK)
    boards[p][row] = cards
    only_invalid_hand(boards)


RULE_KEYS = st.sampled_from(["royalties", "method", "fantasyland_repeat"]) | st.text(max_size=5)
RULE_VALUES = st.sampled_from(["us", "russian", "1-6", "2-4", "once", "never", "US "]) | JUNK


@PROPS
@given(deals(), st.dictionaries(RULE_KEYS, RULE_VALUES, max_size=4))
def test_junk_rules_raise_only_invalid_hand(boards, rules):
    only_invalid_hand(boards, rules)
