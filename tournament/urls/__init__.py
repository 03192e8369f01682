"""The three URL spaces (public, td, revisor), each in its module."""

# Registers the `dbid` and `revisorkey` path converters that every module here uses.
from tournament import converters  # noqa: F401
