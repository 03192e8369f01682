"""Every change of state of a tournament is one function here.

Each runs in a transaction, takes the acting user, validates, writes an audit entry and
announces itself once it commits (tournament/events.py). Views, admin, management commands
and tests all call these. What they refuse with is tournament/errors.py.
"""
