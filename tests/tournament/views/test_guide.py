"""The guide served by the app (/guide/<lang>/<page>/, tournament/web/guide.py): its pages in
both languages with their pictures as static files, and the "Help" link of every TD page to
the guide's page about it."""

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import URLResolver, get_resolver, reverse

from tournament.services import registration
from tournament.web.guide import PAGES, TD_PAGES

ROOT = Path(__file__).resolve().parents[3]
GUIDE = ROOT / "docs" / "guide"


def td_url_names():
    (td,) = [
        p for p in get_resolver().url_patterns if isinstance(p, URLResolver) and p.namespace == "td"
    ]
    return {f"td:{p.name}" for p in td.url_patterns if p.name}


def test_every_td_page_has_its_guide_page():
    assert td_url_names() - set(TD_PAGES) == set()
    assert set(TD_PAGES.values()) <= set(PAGES)


def test_both_languages_have_the_same_pages_and_pictures():
    pictures = re.compile(r"\(\.\./img/(\w+)/([\w-]+)\.png\)")
    for name in PAGES:
        english = pictures.findall((GUIDE / "en" / f"{name}.md").read_text(encoding="utf-8"))
        swedish = pictures.findall((GUIDE / "sv" / f"{name}.md").read_text(encoding="utf-8"))
        assert {lang for lang, _ in english} <= {"en"}, name
        assert {lang for lang, _ in swedish} <= {"sv"}, f"{name}: Swedish pictures in Swedish"
        assert [p for _, p in english] == [p for _, p in swedish], name
    assert sorted(p.stem for p in (GUIDE / "en").glob("*.md")) == sorted(PAGES)
    assert sorted(p.stem for p in (GUIDE / "sv").glob("*.md")) == sorted(PAGES)


@pytest.mark.parametrize("language", ["en", "sv"])
def test_a_guide_page_with_its_pictures_and_links(client, language):
    response = client.get(reverse("guide:page", args=[language, "index"]))
    assert response.status_code == 200
    body = response.content.decode()
    assert f'href="/guide/{language}/setup/"' in body  # setup.md, at the guide's address
    response = client.get(reverse("guide:page", args=[language, "draw"]))
    sources = re.findall(r'<img alt="[^"]*" src="/static/(guide/[^"]+)"', response.content.decode())
    assert sources == [f"guide/{language}/td-draw.png"]
    assert finders.find(sources[0])  # served as a static file, collected with the others


def test_no_such_page_or_language_is_a_404(client):
    assert client.get("/guide/en/nothing/").status_code == 404
    assert client.get("/guide/fi/index/").status_code == 404


def test_the_guide_opens_in_the_readers_language(client):
    client.cookies["django_language"] = "sv"
    assert client.get("/guide/")["Location"] == "/guide/sv/index/"


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "word"), [("en", "Help"), ("sv", "Hjälp")])
def test_each_td_page_links_to_its_guide_page(td_client, td_user, language, word):
    tournament = registration.create_tournament(actor=td_user, name="Lund Open")
    td_client.cookies["django_language"] = language
    pages = {
        reverse("td:dashboard"): "setup",
        reverse("td:players", args=[tournament.pk]): "check-in",
        reverse("td:draw", args=[tournament.pk]): "draw",
        reverse("td:tournament", args=[tournament.pk]): "room",
    }
    for path, name in pages.items():
        body = td_client.get(path).content.decode()
        link = f'<a href="/guide/{language}/{name}/" class="help-link">{word}</a>'
        assert link in body, path


@pytest.mark.django_db
def test_the_players_pages_have_no_help_link(client):
    assert b"help-link" not in client.get(reverse("public:home")).content


def test_the_language_switch_opens_the_same_page_in_the_other_language(client):
    body = client.get(reverse("guide:page", args=["en", "ties"])).content.decode()
    assert '<input type="hidden" name="next" value="/guide/sv/ties/">' in body
