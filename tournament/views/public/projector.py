"""The big screen: the current level's tables and the standings, in large type, with no
navigation, paging through long lists by themselves (static/js/pager.js; without
JavaScript the whole list), live by the same polling as the phones."""

from tournament import selectors
from tournament.selectors.public_pace import public_level_end
from tournament.views.public.common import (
    cached_standings,
    get_tournament,
    live_page,
    loader,
    pager_seconds,
    poll_seconds,
    poll_url,
    region,
    respond,
)

TEMPLATES = "tournament/public/"


@live_page(selectors.revision_token)
def tables_projector(request, live, tournament_id):
    load = loader(get_tournament, tournament_id)
    template = TEMPLATES + "projector_tables.html"

    def build():
        tournament = load()
        board = selectors.public_level(tournament)
        return {
            "tournament": tournament,
            "board": board,
            "level_end": public_level_end(board),
            "token": live.token,
            "poll_url": poll_url(request.path),
            "poll_every": poll_seconds(projector=True),
            "pager_every": pager_seconds(),
            "poll_stop": tournament.finished_at is not None,
        }

    shown = region(template, live, build)
    return respond(request, template, shown, lambda: {"tournament": load()})


@live_page(selectors.revision_token)
def standings_projector(request, live, tournament_id):
    load = loader(get_tournament, tournament_id)
    template = TEMPLATES + "projector_standings.html"

    def build():
        tournament = load()
        kept = cached_standings(tournament)
        return {
            "tournament": tournament,
            "rows": kept.rows,
            **kept.context(),
            "poll_url": poll_url(request.path),
            "poll_every": poll_seconds(projector=True),
            "pager_every": pager_seconds(),
            "poll_stop": tournament.finished_at is not None,
        }

    shown = region(template, live, build)
    return respond(request, template, shown, lambda: {"tournament": load()})
