"""The guide (docs/guide/<lang>/<page>.md) as the app serves it: the markdown made HTML, its
pictures pointed at the static files (docs/guide/img/, collected as static/guide/), its links
between pages at the guide's own addresses. Served by the app so that the TD at a venue
without internet has it; each TD page links to the guide's page about it (TD_PAGES)."""

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import markdown
from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse

GUIDE = Path(settings.BASE_DIR) / "docs" / "guide"
LANGUAGES = ("en", "sv")
# The guide's pages in reading order: the TD's day, then the revisor's and the players'.
PAGES = (
    "index",
    "setup",
    "check-in",
    "draw",
    "release",
    "room",
    "penalties",
    "corrections",
    "ties",
    "closing",
    "final",
    "backups",
    "card",
    "players",
)
# Each TD page (URL name) and the guide's page about it: its header's "Help" link.
TD_PAGES = {
    "td:dashboard": "setup",
    "td:tournament_create": "setup",
    "td:settings": "setup",
    "td:tournament_rename": "setup",
    "td:prizes": "setup",
    "td:players": "check-in",
    "td:players_paste": "check-in",
    "td:player_rename": "check-in",
    "td:player_withdraw": "check-in",
    "td:player_reinstate": "check-in",
    "td:player_check_in": "check-in",
    "td:player_undo_check_in": "check-in",
    "td:self_check_in": "check-in",
    "td:check_in_sign": "check-in",
    "td:player": "check-in",
    "td:earlier_players": "check-in",
    "td:register": "check-in",
    "td:register_merge_pick": "check-in",
    "td:register_merge": "check-in",
    "td:earlier_results_setting": "setup",
    "td:draw": "draw",
    "td:level": "release",
    "td:redraw": "release",
    "td:release": "release",
    "td:level_print": "release",
    "td:level_projector": "release",
    "td:table_cards": "release",
    "td:table_cards_links": "release",
    "td:table_access": "release",
    "td:table_access_regenerate": "release",
    "td:station_cards": "release",
    "td:stations_create": "release",
    "td:station_regenerate": "release",
    "td:tournament": "room",
    "td:live": "room",
    "td:alerts": "room",
    "td:announcement": "room",
    "td:announcement_withdraw": "room",
    "td:call_clear": "room",
    "td:held_record": "room",
    "td:held_discard": "room",
    "td:audit": "room",
    "td:table": "penalties",
    "td:hand_new": "penalties",
    "td:penalty_new": "penalties",
    "td:penalty_rescind": "penalties",
    "td:hand_correct": "corrections",
    "td:tie": "ties",
    "td:advance": "closing",
    "td:standings": "final",
    "td:standings_projector": "final",
    "td:standings_csv": "final",
    "td:hands_csv": "backups",
    "td:backup": "backups",
    "td:import": "backups",
}

PICTURE = re.compile(r'src="\.\./img/(en|sv)/([\w-]+\.png)"')
LINK = re.compile(r'href="([\w-]+)\.md(#[\w-]+)?"')


@dataclass(frozen=True)
class GuidePage:
    language: str
    name: str
    title: str
    html: str
    previous: str | None
    next: str | None


def help_page(url_name: str) -> str:
    """The guide's page about the TD page named `url_name` (the contents when none is)."""
    return TD_PAGES.get(url_name, "index")


def guide_page(language: str, name: str) -> GuidePage | None:
    """The guide's page `name` in `language`, as HTML; None when there is no such page."""
    if language not in LANGUAGES or name not in PAGES:
        return None
    path = GUIDE / language / f"{name}.md"
    return _rendered(language, name, path.stat().st_mtime_ns)


@cache
def _rendered(language: str, name: str, changed: int) -> GuidePage:
    """Made once per version of the file (`changed`, its time): a page read at every Help."""
    text = (GUIDE / language / f"{name}.md").read_text(encoding="utf-8")
    title = text.splitlines()[0].lstrip("# ").strip()
    html = markdown.markdown(text, extensions=["fenced_code"])
    html = PICTURE.sub(lambda m: f'src="{static(f"guide/{m[1]}/{m[2]}")}"', html)

    def linked(match: re.Match[str]) -> str:
        if match[1] not in PAGES:
            return match[0]
        return f'href="{reverse("guide:page", args=[language, match[1]])}{match[2] or ""}"'

    html = LINK.sub(linked, html)
    at = PAGES.index(name)
    previous = PAGES[at - 1] if at > 0 else None
    following = PAGES[at + 1] if at + 1 < len(PAGES) else None
    return GuidePage(language, name, title, html, previous, following)
