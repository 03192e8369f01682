"""The tournament's states that change what its pages show, built through the services (no
clicks), for the axe-core walk over every page (test_axe_every_page_browser.py): before the
first draw, a held draw, play in progress (a penalty, a rescinded one, a call, a tie to
settle, an announcement, the stations), the final in play, and finished. Each state gives
the pages to check, by URL name, with the path that shows it.

A new scene: a function here that takes the TD user, builds its tournament through the
services and returns a State (`add_td`, `add_public`, `add_refusal` for each page it shows),
put in STATES before `every_tournament` (whose pages list every tournament made). Each
language's walk (tests/browser/axe_walk.py, one test file per language) visits it; a page
no other scene shows goes into CHECKED in test_axe_every_page_browser.py."""

from dataclasses import dataclass, field

from django.urls import reverse

from tests.browser import public_scenes
from tests.tournament.conftest import play
from tournament.models import Penalty, Table, Tournament
from tournament.services import (
    announcements,
    calls,
    checkin,
    draws,
    penalties,
    register,
    registration,
)
from tournament.services.revisor_stations import create_stations

TWELVE = [
    "Karl-Erik Lindqvist-Söderström",
    "Björk Ek",
    "Åsa-Märta Östergren",
    "Dan Berg",
    "Eva Holm",
    "Filip Nyström",
    "Gun Åkesson",
    "Hugo Lind",
    "Ida Persson-Karlsson",
    "Jon Öberg",
    "Kim Sjöholm",
    "Lo Wallenberg",
]
ANNOUNCEMENT = "Dinner at 19:00 in the hall upstairs."


@dataclass
class State:
    """A state of one tournament and the pages to check in it: (URL name, path) pairs."""

    name: str
    td: list = field(default_factory=list)
    public: list = field(default_factory=list)
    # Forms sent empty, to check the pages that refuse them: (URL name, path, the form).
    refusals: list = field(default_factory=list)

    def add_td(self, name, *args, query=""):
        self.td.append((name, reverse(name, args=args) + query))

    def add_public(self, name, *args, query=""):
        self.public.append((name, reverse(name, args=args) + query))

    def add_refusal(self, name, *args, form):
        """A form of `name`'s page sent empty: the page that refuses it is checked."""
        self.refusals.append((name, reverse(name, args=args), form))


def _public_pages(state, tournament, table=None, player=None, *, find="str"):
    pk = tournament.pk
    state.add_public("public:tournament", pk)
    state.add_public("public:find", pk, query=f"?q={find}")
    state.add_public("public:standings", pk)
    if table is not None:
        state.add_public("public:table", pk, table.pk)
    if player is not None:
        state.add_public("public:player", pk, player.pk)
    state.add_public("public:poster", pk)
    state.add_public("public:tables_projector", pk)
    state.add_public("public:standings_projector", pk)


def before_the_first_draw(td_user):
    """Twelve players registered, one of them withdrawn, two checked in; nothing drawn."""
    tournament = registration.create_tournament(actor=td_user, name="Lund Open", min_hands=3)
    players = [
        registration.register_player(tournament=tournament, actor=td_user, name=name)
        for name in TWELVE
    ]
    registration.withdraw_player(player=players[-1], actor=td_user)
    # Two at the door: the players page shows its check-in column and "checked in 2 of 11".
    for player in players[:2]:
        checkin.check_in(player=player, actor=td_user)
    # Self check-in open, one player checked in on his phone ("by the player" in the list).
    checkin.set_self_check_in(tournament=tournament, actor=td_user, open=True)
    tournament.refresh_from_db()
    code = tournament.check_in_code
    checkin.self_check_in(player=players[2], code=code, client="10.0.0.1")
    state = State("before the first draw")
    pk = tournament.pk
    state.add_td("td:check_in_sign", pk)
    state.add_public("public:check_in", pk, query=f"?code={code}")  # from the sign's QR
    state.add_public("public:check_in", pk, query=f"?code={code}&q=lind")  # names found
    state.add_public("public:check_in", pk, query="?q=zzzz")  # nobody found
    state.add_public("public:check_in", pk, query=f"?done={players[2].pk}")  # checked in
    state.add_td("td:tournament", pk)
    state.add_td("td:settings", pk)
    state.add_td("td:prizes", pk)
    state.add_td("td:players", pk)
    state.add_td("td:player_rename", pk, players[0].pk)
    state.add_td("td:player_withdraw", pk, players[0].pk)
    state.add_td("td:player_reinstate", pk, players[-1].pk)
    state.add_td("td:draw", pk)
    state.add_td("td:announcement", pk)
    state.add_td("td:station_cards", pk)
    state.add_td("td:standings", pk)
    state.add_td("td:audit", pk)
    _public_pages(state, tournament, player=players[0], find="lind")
    state.add_public("public:find", pk)  # nothing asked yet
    state.add_public("public:find", pk, query="?q=zzzz")  # nobody found
    state.add_refusal("td:players", pk, form="#add-player")
    state.add_refusal("td:players", pk, form="#paste-players")
    state.add_refusal("td:player_rename", pk, players[0].pk, form="main form")
    state.add_refusal("td:settings", pk, form=".settings-form")
    return state


def held_draw(td_user):
    """Twelve players, level 1 (released) played out, level 2 drawn and held by the TD; a
    warning given to a winner during the hold."""
    tournament = registration.create_tournament(
        actor=td_user, name="Uppsala Open", min_hands=1, release_draws_at_once=False
    )
    for name in TWELVE:
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="axe held")
    draws.release_draw(level=level, actor=td_user)
    tables = list(Table.objects.current().filter(level=level).order_by("number"))
    for table in tables:
        play(table, 6, -3, -3)
    winner = tables[1].seats.get(position=0).player
    draws.advance(tournament=tournament, actor=td_user)
    penalties.give_penalty(tournament=tournament, player=winner, kind="slow", actor=td_user)
    held = Table.objects.current().filter(level__tournament=tournament, level__number=2).first()
    state = State("a held draw")
    pk = tournament.pk
    state.add_td("td:tournament", pk)
    state.add_td("td:level", pk, 2)
    state.add_td("td:level", pk, 1)
    state.add_td("td:level_print", pk, 2)
    state.add_td("td:table_cards", pk, 2)
    state.add_td("td:level_projector", pk, 2)
    state.add_td("td:table", pk, held.pk)
    state.add_td("td:standings", pk)
    state.add_td("td:players", pk)
    _public_pages(state, tournament, tables[1], winner, find="lind")
    return state


def in_play(td_user):
    """public_scenes.in_play (long names, hands by points and by cards, a correction, a
    timeout and a rescinded warning), plus: table 3 tied for first after its 3 hands, a
    dispute called at table 1, an announcement, and the stations' cards made."""
    scene = public_scenes.in_play(td_user)
    tournament, first = scene.tournament, scene.table
    third = Table.objects.current().get(level=first.level, number=3)
    play(third, 5, -5, 0)
    play(third, -5, 5, 0)
    play(third, 1, 1, -2)  # seats 0 and 1 tied at 1
    calls.call_td(table=first, kind="dispute", note="Who won the back?")
    announcements.announce(tournament=tournament, actor=td_user, text=ANNOUNCEMENT)
    create_stations(tournament=tournament, actor=td_user)
    standing = Penalty.objects.filter(tournament=tournament, rescinded_at__isnull=True).first()
    state = State("play in progress")
    pk = tournament.pk
    state.add_td("td:tournament", pk)
    state.add_td("td:settings", pk)
    state.add_td("td:players", pk)
    state.add_td("td:player_rename", pk, scene.player.pk)
    state.add_td("td:player_withdraw", pk, scene.player.pk)
    state.add_td("td:level", pk, 1)
    state.add_td("td:level_print", pk, 1)
    state.add_td("td:level_projector", pk, 1)
    state.add_td("td:table", pk, first.pk)
    state.add_td("td:table", pk, first.pk, query="?mode=cards")
    state.add_td("td:table", pk, third.pk)
    state.add_td("td:hand_correct", pk, first.pk, 1)
    state.add_td("td:hand_correct", pk, first.pk, 2)
    state.add_td("td:penalty_rescind", pk, standing.pk)
    state.add_td("td:table_access", pk, first.pk)
    state.add_td("td:table_cards", pk, 1)
    state.add_td("td:station_cards", pk)
    state.add_td("td:advance", pk)
    state.add_td("td:standings", pk)
    state.add_td("td:standings_projector", pk)
    state.add_td("td:announcement", pk)
    state.add_td("td:audit", pk)
    state.add_td("td:audit", pk, query="?page=2")
    state.add_refusal("td:announcement", pk, form="form.card")
    _public_pages(state, tournament, first, scene.player)
    state.add_public("public:table", pk, third.pk)
    state.add_public("public:check_in", pk)  # closed: the first draw is made
    state.first_table, state.tied_table = first, third
    return state


def the_final(td_user):
    """Six players: level 1 played out, the final (heads-up) one hand in."""
    tournament = registration.create_tournament(actor=td_user, name="Lund Final", min_hands=2)
    for name in TWELVE[:6]:
        registration.register_player(tournament=tournament, actor=td_user, name=name)
    level = draws.draw_first_level(tournament=tournament, actor=td_user, seed="axe final")
    for table in Table.objects.current().filter(level=level):
        play(table, 6, -3, -3)
        play(table, 2, -1, -1)
    level = draws.advance(tournament=tournament, actor=td_user, seed="axe final 2")
    (final,) = Table.objects.current().filter(level=level)
    play(final, 4, -4)
    player = final.seats.get(position=0).player
    state = State("the final")
    pk = tournament.pk
    state.add_td("td:tournament", pk)
    state.add_td("td:level", pk, 2)
    state.add_td("td:level_projector", pk, 2)
    state.add_td("td:table", pk, final.pk)
    state.add_td("td:table_cards", pk, 2)
    state.add_td("td:advance", pk)
    state.add_td("td:standings", pk)
    state.add_td("td:standings_projector", pk)
    _public_pages(state, tournament, final, player, find="e")
    return state


def finished(td_user):
    """public_scenes.finished: a tie settled by the TD, a correction at the final, a champion."""
    scene = public_scenes.finished(td_user)
    tournament = scene.tournament
    final = Table.objects.current().get(level__tournament=tournament, level__number=2)
    state = State("finished")
    pk = tournament.pk
    state.add_td("td:tournament", pk)
    state.add_td("td:settings", pk)
    state.add_td("td:players", pk)
    state.add_td("td:level", pk, 2)
    state.add_td("td:level", pk, 1)
    state.add_td("td:level_print", pk, 2)
    state.add_td("td:table", pk, final.pk)
    state.add_td("td:table", pk, scene.table.pk)
    state.add_td("td:standings", pk)
    state.add_td("td:standings_projector", pk)
    state.add_td("td:audit", pk)
    _public_pages(state, tournament, final, scene.player)
    state.add_public("public:tournament", pk, query="?level=1")
    state.add_public("public:table", pk, scene.table.pk)
    return state


def returning_players(td_user):
    """A tournament of regulars (docs/register.md): players picked from the register of
    "Malmö Final" (finished), their earlier results shown on their public pages; a second
    entry of one of them, the register, and a merge's search and confirmation."""
    earlier = Tournament.objects.get(name="Malmö Final")
    tournament = registration.create_tournament(actor=td_user, name="Lund Cup", min_hands=3)
    regulars = [
        registration.register_player(
            tournament=tournament, actor=td_user, register_entry=player.register_entry
        )
        for player in earlier.players.order_by("number")[:4]
    ]
    register.set_earlier_results_public(tournament=tournament, actor=td_user, public=True)
    # The same person typed as new in another tournament: a second entry, to be merged.
    other = registration.create_tournament(actor=td_user, name="Ystad Open", min_hands=3)
    twin = registration.register_player(tournament=other, actor=td_user, name=regulars[0].name)
    state = State("returning players")
    pk = tournament.pk
    state.add_td("td:players", pk)
    state.add_td("td:player", pk, regulars[0].pk)
    state.add_td("td:register")
    state.add_td("td:register", query="?q=" + regulars[0].name.split()[0])
    state.add_td(
        "td:register_merge_pick",
        twin.register_entry_id,
        query="?q=" + regulars[0].name.split()[0],
    )
    state.add_td("td:register_merge", twin.register_entry_id, regulars[0].register_entry_id)
    state.add_public("public:player", pk, regulars[0].pk)
    return state


def every_tournament(td_user):
    """The pages that list or make tournaments, once every state's tournament is made."""
    state = State("every tournament")
    state.add_td("td:dashboard")
    state.add_td("td:tournament_create")
    state.add_td("td:import")
    state.add_public("public:home")
    # The guide's contents, and a page with its pictures (docs/guide/), in either language.
    state.add_public("guide:page", "en", "index")
    state.add_public("guide:page", "sv", "room")
    state.add_refusal("td:tournament_create", form=".settings-form")
    state.add_refusal("td:import", form="main form")
    return state


STATES = (
    before_the_first_draw,
    held_draw,
    in_play,
    the_final,
    finished,
    returning_players,
    every_tournament,
)
