"""The big screen: the current level's tables and the standings, in large type, with no
navigation, paging through long lists by themselves (static/js/public-pager.js; without
JavaScript the whole list), live by the same polling as the phones."""

from tournament import selectors
from tournament.views.public.common import (
    cached_standings,
    get_tournament,
    in_poll_language,
    loader,
    pager_seconds,
    poll,
    poll_seconds,
    poll_url,
    region,
    respond,
)

TEMPLATES = "tournament/public/"


def tables_projector(request, tournament_id):
    polled = poll(request, selectors.revision_token, tournament_id)
    if polled.answer is not None:
        return polled.answer
    return in_poll_language(request, lambda: _tables(request, tournament_id, polled.token))


def _tables(request, tournament_id, token):
    load = loader(get_tournament, tournament_id)
    template = TEMPLATES + "projector_tables.html"

    def build():
        tournament = load()
        return {
            "tournament": tournament,
            "board": selectors.public_level(tournament),
            "token": token,
            "poll_url": poll_url(request.path),
            "poll_every": poll_seconds(projector=True),
            "pager_every": pager_seconds(),
            "poll_stop": tournament.finished_at is not None,
        }

    live = region(template, ("tables-projector", tournament_id), token, build)
    return respond(request, template, live, lambda: {"tournament": load()})


def standings_projector(request, tournament_id):
    polled = poll(request, selectors.revision_token, tournament_id)
    if polled.answer is not None:
        return polled.answer
    return in_poll_language(request, lambda: _standings(request, tournament_id, polled.token))


def _standings(request, tournament_id, token):
    load = loader(get_tournament, tournament_id)
    template = TEMPLATES + "projector_standings.html"

    def build():
        tournament = load()
        return {
            "tournament": tournament,
            "rows": cached_standings(tournament),
            "token": token,
            "poll_url": poll_url(request.path),
            "poll_every": poll_seconds(projector=True),
            "pager_every": pager_seconds(),
            "poll_stop": tournament.finished_at is not None,
        }

    live = region(template, ("standings-projector", tournament_id), token, build)
    return respond(request, template, live, lambda: {"tournament": load()})
