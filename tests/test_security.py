"""Security headers: a strict Content-Security-Policy on every response, and templates
that need nothing the policy forbids (inline scripts, inline handlers, eval)."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern

ROOT = Path(__file__).resolve().parent.parent
EXPECTED_CSP = {
    "default-src": {"'self'"},
    "script-src": {"'self'"},
    "style-src": {"'self'"},
    "img-src": {"'self'", "data:"},
    "object-src": {"'none'"},
    "base-uri": {"'self'"},
    "frame-ancestors": {"'none'"},
    "form-action": {"'self'"},
}


def parse_csp(header):
    policy = {}
    for part in header.split(";"):
        name, *values = part.split()
        assert name not in policy, f"{name} twice in {header!r}"
        policy[name] = set(values)
    return policy


def assert_strict_csp(response, url):
    header = response.headers.get("Content-Security-Policy")
    assert header, f"{url} ({response.status_code}) has no Content-Security-Policy"
    assert parse_csp(header) == EXPECTED_CSP, f"{url}: {header}"
    assert "unsafe" not in header, f"{url}: {header}"  # no unsafe-inline/-eval/-hashes
    assert "Content-Security-Policy-Report-Only" not in response.headers


def plain_routes(patterns=None, prefix=""):
    """Every URL of the project that takes no arguments."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if not isinstance(entry.pattern, RoutePattern) or "<" in str(entry.pattern):
            continue
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from plain_routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            yield "/" + route


def test_the_policy_setting_is_exactly_the_documented_one():
    configured = {name: set(values) for name, values in settings.SECURE_CSP.items()}
    assert configured == EXPECTED_CSP
    assert "django.middleware.csp.ContentSecurityPolicyMiddleware" in settings.MIDDLEWARE


@pytest.mark.django_db
def test_every_page_carries_the_strict_policy_for_visitors_and_the_td(client, django_user_model):
    routes = sorted(set(plain_routes()))
    assert {"/", "/td/", "/accounts/login/", "/admin/"} <= set(routes)
    for url in routes:
        assert_strict_csp(client.get(url), url)
    root = django_user_model.objects.create_superuser("root", password="root-pass-1")
    client.force_login(root)
    for url in routes:
        if url.endswith("/logout/"):
            continue  # a GET there is refused (405); it still must carry the header, below
        assert_strict_csp(client.get(url), url)
    assert_strict_csp(client.get("/accounts/logout/"), "/accounts/logout/")
    assert_strict_csp(client.get("/no-such-page/"), "/no-such-page/")
    assert_strict_csp(client.get("/", headers={"HX-Request": "true"}), "/ (htmx)")


@pytest.mark.django_db
def test_the_lockout_page_and_form_errors_carry_the_policy(client, td_user):
    for n in range(settings.AXES_FAILURE_LIMIT):
        response = client.post("/accounts/login/", {"username": "director", "password": f"x{n}"})
        assert_strict_csp(response, f"failed login {n + 1}")
    assert response.status_code == 429


# ---- Templates: nothing the policy would block -------------------------------------------

TEMPLATE_DIRS = [ROOT / "templates", *sorted(ROOT.glob("*/templates"))]
TEMPLATES = sorted({path for folder in TEMPLATE_DIRS for path in folder.rglob("*.html")})
DJANGO_COMMENT = re.compile(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", re.S)
SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
TAG = re.compile(r"<[a-zA-Z][^<>]*>", re.S)
INLINE_HANDLER = re.compile(r"""[\s"'/](on[a-z]+)\s*=""", re.I)


def template_markup(path):
    return DJANGO_COMMENT.sub("", path.read_text())


def forbidden_markup(markup):
    """What in a template the Content-Security-Policy would block."""
    problems = []
    for attrs, body in SCRIPT.findall(markup):
        if body.strip():
            problems.append(f"inline <script> with content: {body.strip()[:60]!r}")
        if "src=" not in attrs:
            problems.append("a <script> without src")
    for tag in TAG.findall(markup):
        if re.search(r"\shx-on", tag, re.I):
            problems.append(f"hx-on handler (needs eval): {tag[:80]!r}")
        if handler := INLINE_HANDLER.search(tag):
            problems.append(f"inline {handler.group(1)}= handler: {tag[:80]!r}")
        if re.search(r"""\sstyle\s*=""", tag, re.I):
            problems.append(f"inline style attribute: {tag[:80]!r}")
        if re.search(r"""\shx-trigger\s*=\s*["'][^"']*\[""", tag, re.I):
            problems.append(f"hx-trigger filter [...] (needs eval): {tag[:80]!r}")
        if "javascript:" in tag.lower():
            problems.append(f"javascript: URL: {tag[:80]!r}")
    if re.search(r"<style\b", markup, re.I):
        problems.append("inline <style> element")
    return problems


def test_the_template_scan_finds_what_it_looks_for():
    assert len(TEMPLATES) >= 4 and ROOT / "templates" / "base.html" in TEMPLATES
    bad = [
        "<script>alert(1)</script>",
        '<button onclick="go()">Go</button>',
        "<body onload='x()'>",
        '<button hx-on:click="go()">Go</button>',
        '<div hx-on::after-request="x()"></div>',
        '<div hx-trigger="keyup[ctrlKey]"></div>',
        '<p style="color:red">x</p>',
        "<style>p{}</style>",
        '<a href="javascript:go()">x</a>',
    ]
    for markup in bad:
        assert forbidden_markup(markup), markup
    good = [
        '<script src="/static/vendor/htmx-2.0.11.min.js" defer></script>',
        '<form hx-post="/x" hx-trigger="submit">',
        '<input name="online" value="on">',
        '<button data-confirm="sure?" class="once">Go</button>',
    ]
    for markup in good:
        assert not forbidden_markup(markup), markup


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_needs_inline_script_handlers_or_eval(path):
    assert forbidden_markup(template_markup(path)) == []


def test_base_turns_off_htmx_eval_and_its_inline_indicator_style():
    base = (ROOT / "templates" / "base.html").read_text()
    assert (
        """<meta name="htmx-config" content='{"allowEval": false, """
        """"includeIndicatorStyles": false}'>"""
    ) in base
    css = (ROOT / "static" / "css" / "app.css").read_text()
    assert ".htmx-indicator" in css and ".htmx-request .htmx-indicator" in css
