"""Path converters: a URL part that no row could have is not found before any view runs.

Django's `int` takes 0, leading zeros and numbers of any length; beyond the database's
integer range such an id is an error in the query (PostgreSQL's "bigint out of range",
SQLite's OverflowError), shown as a 500. `str` takes NUL and other control characters,
which PostgreSQL refuses in any string. Every id in our URLs is a `dbid`, the revisor's
link a `revisorkey`: anything else is a 404 at the resolver, for every view and for
`LivePollMiddleware`, which resolves a poll's path before the views.
"""

from django.urls import register_converter

from tournament.lib.ids import DB_ID_MAX


class DatabaseIdConverter:
    """A positive integer a bigint column holds, written without leading zeros: every id,
    and the level and hand numbers (a number beyond their column matches no row)."""

    regex = "[1-9][0-9]{0,18}"  # 19 digits at most: DB_ID_MAX has 19

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > DB_ID_MAX:
            raise ValueError("beyond the database's integer range")  # the resolver: no match
        return number

    def to_url(self, value: int | str) -> str:
        number = int(value)
        if not 1 <= number <= DB_ID_MAX:
            raise ValueError("not a database id")  # reverse(): no such URL
        return str(number)


class RevisorKeyConverter:
    """The revisor's private link: `secrets.token_urlsafe()` letters (43 of them today).
    A shorter or mistyped key of these letters still reaches the view, which explains that
    the link is not valid; control characters, other letters and long junk are a 404."""

    regex = "[A-Za-z0-9_-]{1,64}"  # 64: Table.revisor_key's max_length

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


# Once, when this module is first imported (by tournament/urls/__init__.py, before any of our
# URL modules): Django refuses to register a converter name twice.
register_converter(DatabaseIdConverter, "dbid")
register_converter(RevisorKeyConverter, "revisorkey")
