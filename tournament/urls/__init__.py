"""The three URL spaces (public, td, revisor), each in its module."""

# Registers the `dbid` and `revisorkey` path converters that every module here uses.
from tournament.web import converters  # noqa: F401
