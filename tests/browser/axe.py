"""axe-core, the accessibility engine, run over a page a browser test has open.

    from tests.browser.axe import assert_no_serious_axe_violations

    def test_the_page_is_accessible(phone_page, live_server):
        phone_page.goto(live_server.url + "/some/page/")
        assert_no_serious_axe_violations(phone_page)  # fails on critical and serious

It checks the page as it stands (call it again after a click that changes the page: a
refusal, a check, a dialog opened) against WCAG 2.0 and 2.1, A and AA, plus axe's best
practices. A "critical" or "serious" violation fails the test with each rule, its help, the
elements it found (their CSS selector and HTML) and axe's own explanation; "moderate" and
"minor" ones are returned and printed (shown by pytest with `-rP`, or in a failure's
output), so that a page's smaller faults are seen without failing a test over them.
`include` limits the check to a part of the page (a CSS selector); `disable` turns rules off
by id, each with the reason given as a comment at the call (never to hide a fault).

axe-core is vendored in `tests/browser/vendor/axe-core/` (see its README: the version, where
it comes from, its licence): nothing is fetched when the tests run. The script is given to
the page as a script of the page's own origin (the live server serves the vendored file as
static/axe-core/ under tests, config/settings.py), which its Content-Security-Policy
(`script-src 'self'`) allows: the page is checked with its real policy on, and chromium
compiles the 500 kB script once instead of on every page (70 ms each). A page offline, or
not served by the live server, is given it through Playwright's `evaluate`, which the
policy does not apply to.
"""

from functools import cache
from pathlib import Path

from playwright.sync_api import Error

AXE_JS = Path(__file__).with_name("vendor") / "axe-core" / "axe.min.js"
AXE_STATIC = "/static/axe-core/axe.min.js"
FAILING = ("critical", "serious")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]

_RUN = """async ([include, disable, tags]) => {
  const rules = Object.fromEntries(disable.map((id) => [id, {enabled: false}]));
  const context = include ? {include: [include]} : document;
  const result = await axe.run(context, {runOnly: {type: "tag", values: tags}, rules: rules,
                                         resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, url: v.helpUrl,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), html: n.html,
                                 why: n.failureSummary})),
  }));
}"""


@cache
def _axe_source():
    return AXE_JS.read_text(encoding="utf-8")


def axe_violations(page, *, include=None, disable=()):
    """Every axe-core violation on the page as it is now: a list of dicts (id, impact, help,
    url, nodes: target, html, why), in axe's order."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        _load_axe(page)  # a new document (after a navigation) needs it again
    return page.evaluate(_RUN, [include, list(disable), TAGS])


def _load_axe(page):
    origin = page.evaluate("() => location.origin")
    if origin.startswith("http"):
        try:
            page.add_script_tag(url=origin + AXE_STATIC)
            return
        except Error:
            pass  # offline, or a server without it
    page.evaluate(_axe_source())


def describe(violations):
    """The violations as text a person can act on: rule, impact, help, then each element."""
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({v['url']})")
        for node in v["nodes"]:
            lines.append(f"    {node['target']}: {node['html'][:200]}")
            lines.extend(f"        {line}" for line in (node["why"] or "").splitlines())
    return "\n".join(lines)


def assert_no_serious_axe_violations(page, *, include=None, disable=()):
    """Fail on any critical or serious axe-core violation of the page as it is now; return
    (and print) the moderate and minor ones. `page` is a Playwright page."""
    found = axe_violations(page, include=include, disable=disable)
    failing = [v for v in found if v["impact"] in FAILING]
    others = [v for v in found if v["impact"] not in FAILING]
    if others:
        print(f"axe on {page.url}, not failing:\n{describe(others)}")
    assert not failing, f"axe on {page.url}:\n{describe(failing)}"
    return others
