"""The live pages' machinery: what a room of phones and tablets polls, and how it is answered.

What every public page shares: the tournament of the URL, the one polling mechanism, and
the live region rendered at most once per token and once per few seconds.

A room of 300 phones polls these pages. An unchanged poll is answered `204 No Content`
after the one indexed query of its token, touching neither the session nor the user, and
a proxy may keep that answer for a moment (`Cache-Control: public, max-age=2`). A poll
that needs nothing rendered is answered by `tournament.live.middleware.LivePollMiddleware`
through each view's `answer_poll`, before the rest of the middleware.

A page's live region depends on nothing but its token and the language, so it is rendered
without the request (no CSRF token, no user, no session in it) and kept in Django's cache
with the token it shows: every phone asking for it shares that one rendering. With a hand
somewhere in the room every second, the token moves faster than phones poll, so a kept
region is served for `render_seconds()` (5 s) even when the token has moved on: each
process renders a region at most once in that time, and a phone's view trails the room by
at most that much. Tokens are ordered (`token_order`), so a phone is never sent a region
older than the one it shows (two processes keep two renderings), and a whole page for a
visitor without a session is kept with its region's token too (`respond`).

The rooms of it: tokens.py (each page's token, read at most once a second per process),
regions.py (a region rendered at most once per token and few seconds, kept in the cache),
kept.py (the reads a region is built on, kept per process while their tokens stand),
responses.py (204, the kept region or the whole page; `live_page` wraps a view), and
middleware.py (the poll answered before the session). polling.py is the TD's and the
revisor's side of the same mechanism. docs/live.md explains why a phone never goes back.
"""
