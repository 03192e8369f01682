"""The one exception type the scoring package raises for bad input."""


class InvalidHand(ValueError):
    """A hand (or a rules setting) that cannot be scored.

    The message is written for the table's scorekeeper: it names what is wrong
    and where (player number, 1-based, and row).
    """


def show_value(value: object) -> str:
    """A short, safe rendering of a bad value for an error message."""
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails must not change the exception type
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."
