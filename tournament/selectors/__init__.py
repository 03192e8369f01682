"""Reads for pages: each fetches what a page shows in a fixed number of queries.

One module per thing read (tables, standings, tokens, the dashboard, draws, penalties...);
callers import the module they read from: this package re-exports nothing.
"""
