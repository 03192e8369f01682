"""TD URL space (/td/): every page needs a staff login (tournament.views.access)."""

from django.urls import path

from tournament.views.td import (
    access,
    announcements,
    audit,
    check_in,
    dashboard,
    draws,
    exports,
    held,
    players,
    prizes,
    register,
    stations,
    tables,
    tournaments,
)

app_name = "td"
T = "<dbid:tournament_id>/"
TABLE = T + "tables/<dbid:table_id>/"
urlpatterns = [
    # tournaments.py: the list (running first), create, settings
    path("", tournaments.dashboard, name="dashboard"),
    path("new/", tournaments.create, name="tournament_create"),
    path(T + "settings/", tournaments.settings, name="settings"),
    path(T + "settings/name/", tournaments.rename, name="tournament_rename"),
    # prizes.py: buy-in, fee, added money, payout structure (also a section of settings)
    path(T + "settings/prizes/", prizes.prize_settings, name="prizes"),
    # players.py: add one, paste a list, rename, withdraw and undo it
    path(T + "players/", players.players, name="players"),
    path(T + "players/paste/", players.paste, name="players_paste"),
    path(T + "players/<dbid:player_id>/rename/", players.rename, name="player_rename"),
    path(T + "players/<dbid:player_id>/withdraw/", players.withdraw, name="player_withdraw"),
    path(T + "players/<dbid:player_id>/reinstate/", players.reinstate, name="player_reinstate"),
    path(T + "players/<dbid:player_id>/check-in/", players.check_in, name="player_check_in"),
    path(
        T + "players/<dbid:player_id>/check-in/undo/",
        players.undo_check_in,
        name="player_undo_check_in",
    ),
    # check_in.py: self check-in opened, closed or its code renewed; the door sign
    path(T + "players/self-check-in/", check_in.self_check_in, name="self_check_in"),
    path(T + "players/check-in-sign/", check_in.door_sign, name="check_in_sign"),
    # register.py: the register of players across tournaments (docs/register.md)
    path(T + "players/earlier/", register.earlier_players, name="earlier_players"),
    path(T + "players/<dbid:player_id>/", register.player, name="player"),
    path(
        T + "settings/earlier-results/",
        register.earlier_results_setting,
        name="earlier_results_setting",
    ),
    path("register/", register.register_page, name="register"),
    path("register/<dbid:entry_id>/merge/", register.merge_pick, name="register_merge_pick"),
    path(
        "register/<dbid:entry_id>/merge/<dbid:into_id>/",
        register.merge,
        name="register_merge",
    ),
    # draws.py: draw, level tables, redraw, projector, print, advance, standings
    path(T + "draw/", draws.draw, name="draw"),
    path(T + "levels/<dbid:level>/", draws.level, name="level"),
    path(T + "levels/<dbid:level>/redraw/", draws.redraw, name="redraw"),
    path(T + "levels/<dbid:level>/release/", draws.release, name="release"),
    path(T + "levels/<dbid:level>/projector/", draws.level_projector, name="level_projector"),
    path(T + "levels/<dbid:level>/print/", draws.level_print, name="level_print"),
    path(T + "advance/", draws.advance, name="advance"),
    path(T + "standings/", draws.standings, name="standings"),
    path(T + "standings/projector/", draws.standings_projector, name="standings_projector"),
    # dashboard.py: the live dashboard of the current level and its polled region
    path(T, dashboard.tournament, name="tournament"),
    path(T + "live/", dashboard.live, name="live"),
    path(T + "alerts/", dashboard.alerts, name="alerts"),
    # held.py: hands a revisor's card sent from offline that the server held
    path(T + "held/<dbid:held_id>/record/", held.held_record, name="held_record"),
    path(T + "held/<dbid:held_id>/discard/", held.held_discard, name="held_discard"),
    # announcements.py: the TD's message to the room, and withdrawing it
    path(T + "announcement/", announcements.announcement, name="announcement"),
    path(
        T + "announcement/withdraw/",
        announcements.announcement_withdraw,
        name="announcement_withdraw",
    ),
    # tables.py: score card, hand entry, corrections, penalties, ties, calls
    path(TABLE, tables.table, name="table"),
    path(TABLE + "hands/new/", tables.hand_new, name="hand_new"),
    path(TABLE + "hands/<dbid:number>/correct/", tables.hand_correct, name="hand_correct"),
    path(TABLE + "penalties/new/", tables.penalty_new, name="penalty_new"),
    path(
        T + "penalties/<dbid:penalty_id>/rescind/", tables.penalty_rescind, name="penalty_rescind"
    ),
    path(TABLE + "tie/", tables.tie, name="tie"),
    path(TABLE + "call/clear/", tables.call_clear, name="call_clear"),
    # access.py: revisor link, QR code, short code, regenerate, printable table cards
    path(TABLE + "access/", access.table_access, name="table_access"),
    path(
        TABLE + "access/regenerate/",
        access.table_access_regenerate,
        name="table_access_regenerate",
    ),
    path(T + "levels/<dbid:level>/cards/", access.table_cards, name="table_cards"),
    path(
        T + "levels/<dbid:level>/cards/links/",
        access.give_missing_links,
        name="table_cards_links",
    ),
    # stations.py: a table number's link and code for the whole event, its printable card
    path(T + "stations/", stations.station_cards, name="station_cards"),
    path(T + "stations/create/", stations.stations_create, name="stations_create"),
    path(
        T + "stations/<dbid:number>/regenerate/",
        stations.station_regenerate,
        name="station_regenerate",
    ),
    # exports.py: JSON backup, import, CSV of standings and of every hand
    path(T + "backup.json", exports.backup, name="backup"),
    path("import/", exports.import_backup, name="import"),
    path(T + "standings.csv", exports.standings_csv, name="standings_csv"),
    path(T + "hands.csv", exports.hands_csv, name="hands_csv"),
    # audit.py: every action, newest first, filterable, paginated
    path(T + "audit/", audit.audit_log, name="audit"),
]
