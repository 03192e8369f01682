"""QR codes as inline SVG, for the TD's access page and the printable table cards.

The Content-Security-Policy allows no inline styles and no `data:` images are
needed: segno writes a bare `<svg>` with a viewBox (no width/height, so CSS sizes
it), a `<title>` for screen readers, one `<path>` of dark modules and no `style`
attribute. Its colours are presentation attributes, which the policy allows.
"""

import segno
from django.utils.safestring import SafeString, mark_safe

# M (15 % recovery) is ample for a printed card; segno raises it where the size allows.
ERROR_LEVEL = "m"
# The quiet zone the QR standard asks for, in modules.
BORDER = 4


def qr_code(text: str) -> segno.QRCode:
    """The segno QR code of `text` (the same one `qr_svg` draws)."""
    return segno.make(text, error=ERROR_LEVEL, micro=False)


def qr_svg(text: str, *, title: str | None = None, css_class: str = "qr") -> SafeString:
    """`text` as a QR code: SVG markup safe to embed in a page.

    `title` is read by screen readers (segno escapes it); it defaults to the text.
    """
    markup = qr_code(text).svg_inline(
        border=BORDER,
        omitsize=True,
        svgclass=css_class,
        lineclass=f"{css_class}-modules",
        title=text if title is None else title,
        dark="#000",
    )
    return mark_safe(markup.replace("<svg ", '<svg role="img" ', 1))
