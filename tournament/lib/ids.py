"""Whether a value could be a row's id, before any query is sent with it."""

# The largest value of a BigAutoField id (DEFAULT_AUTO_FIELD) and of PostgreSQL's bigint.
DB_ID_MAX = 2**63 - 1


def is_db_id(value: object) -> bool:
    """Whether a row could have this id: what the ORM checks before it sends a lookup (an id
    beyond the column's range matches nothing there; here it would be the database's error)."""
    return type(value) is int and 1 <= value <= DB_ID_MAX
