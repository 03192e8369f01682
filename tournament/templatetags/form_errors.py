"""{{ error|after_label:field.label }}: what an error summary writes after the field's
linked label, so that the label is said once.

A summary lists each field's errors as "<a>label</a>: error". Most of our messages name
their field already ("Points for Åsa must be a whole number.", "Player: choose one of the
options."): then only the rest of the message follows the label ("<a>Points for Åsa</a>
must be a whole number."); any other message ("This field is required.") follows it after
a colon, as before.
"""

from django import template

register = template.Library()


@register.filter
def after_label(error: object, label: object) -> str:
    message, name = str(error), str(label or "")
    rest = message[len(name) :]
    # The label whole, not the start of a longer word ("Note" in "Notes ...").
    if name and message.startswith(name) and rest and not rest[0].isalnum():
        return rest
    return f": {message}"
