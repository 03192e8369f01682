"""What a browser test checks of a page's layout: nothing wider than the screen.

from tests.browser.layout import assert_fits

assert_fits(page)  # nothing sticks out of the screen, nothing cut off in a scroll box
"""

# Whatever sticks out of the screen, or is cut off inside a box that scrolls sideways.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    // Not shown, or shown to screen readers only (clipped to 1 px on purpose).
    if (box.width <= 1 || getComputedStyle(el).visibility === "hidden") continue;
    if (box.right > width + 0.5 || box.left < -0.5) {
      out.push(`${el.tagName}.${el.className} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
    const style = getComputedStyle(el);
    if (/(auto|scroll|hidden)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${el.tagName}.${el.className} scrolls: ${el.scrollWidth} > ${el.clientWidth}`);
    }
  }
  return {scroll: document.documentElement.scrollWidth, out: out};
}"""


def overflow(page):
    """{"scroll": the page's width, "out": what sticks out or is cut off} of the page now."""
    return page.evaluate(OVERFLOW)


def assert_fits(page):
    """Nothing of the page is wider than its screen, or cut off in a box scrolling sideways."""
    width = page.viewport_size["width"]
    found = overflow(page)
    assert found["scroll"] <= width and not found["out"], (page.url, found)
