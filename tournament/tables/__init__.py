"""A table's state in the database: read it (read.py, tables/state.py), store what follows from its
history (store.py), and lock its rows in one order (locking.py)."""
