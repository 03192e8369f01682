"""The public URL space: /t/... (read-only, no login)."""

from django.urls import path

from tournament.views import public

app_name = "public"
urlpatterns = [
    path("", public.home, name="home"),
    path("t/language/", public.language, name="language"),
    path("t/<int:tournament_id>/", public.tournament, name="tournament"),
    path("t/<int:tournament_id>/find/", public.find, name="find"),
    path("t/<int:tournament_id>/standings/", public.standings, name="standings"),
    path("t/<int:tournament_id>/table/<int:table_id>/", public.table, name="table"),
    path("t/<int:tournament_id>/player/<int:player_id>/", public.player, name="player"),
    path("t/<int:tournament_id>/poster/", public.poster, name="poster"),
    path(
        "t/<int:tournament_id>/projector/tables/",
        public.tables_projector,
        name="tables_projector",
    ),
    path(
        "t/<int:tournament_id>/projector/standings/",
        public.standings_projector,
        name="standings_projector",
    ),
]
