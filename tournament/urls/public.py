"""The public URL space: /t/... (read-only, no login)."""

from django.urls import path

from tournament.views import public
from tournament.views.public import check_in

app_name = "public"
urlpatterns = [
    path("", public.home, name="home"),
    path("t/language/", public.language, name="language"),
    path("t/<dbid:tournament_id>/", public.tournament, name="tournament"),
    path("t/<dbid:tournament_id>/find/", public.find, name="find"),
    path("t/<dbid:tournament_id>/standings/", public.standings, name="standings"),
    path("t/<dbid:tournament_id>/table/<dbid:table_id>/", public.table, name="table"),
    path("t/<dbid:tournament_id>/player/<dbid:player_id>/", public.player, name="player"),
    path("t/<dbid:tournament_id>/poster/", public.poster, name="poster"),
    # check_in.py: a player checks himself in at the door (the one public page that writes)
    path("t/<dbid:tournament_id>/check-in/", check_in.check_in, name="check_in"),
    path(
        "t/<dbid:tournament_id>/projector/tables/",
        public.tables_projector,
        name="tables_projector",
    ),
    path(
        "t/<dbid:tournament_id>/projector/standings/",
        public.standings_projector,
        name="standings_projector",
    ),
]
