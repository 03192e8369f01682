"""The TD's decisions on a hand held from a revisor's card (services/held_hands.py)."""

from tournament.forms.fields import OnceForm, reason_field
from tournament.models import HeldHand


class HeldHandDiscardForm(OnceForm):
    """Discard a held hand, with the reason kept (the hand is kept too)."""

    reason = reason_field(HeldHand, "decision_reason")
