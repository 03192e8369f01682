"""What the TD (or a revisor calling him) wrote: the reasons of corrections, redraws, tie
settlements and rescindings, the notes of penalties and calls.

The TD's words are the TD's: the players' pages show that a hand was corrected, a draw redone,
a tie settled or a penalty rescinded, never why. Their selectors do not even read these
columns, so that no template can show them by a slip.
"""

from collections.abc import Iterable

from django.db.models import Model, QuerySet

TD_WORDS: dict[str, tuple[str, ...]] = {
    "HandVersion": ("reason",),
    "Draw": ("reason",),
    "TieSettlement": ("reason",),
    "Penalty": ("note", "rescind_reason"),
    "TableCall": ("note",),
}


def without_td_words[M: Model](queryset: QuerySet[M], *related: tuple[str, str]) -> QuerySet[M]:
    """`queryset` not reading the TD's words of its model, nor those of the models of
    `related`, given as (the path of a select_related, its model's name)."""
    fields = list(TD_WORDS.get(queryset.model.__name__, ()))
    for path, model_name in related:
        fields += [f"{path}__{field}" for field in TD_WORDS[model_name]]
    return queryset.defer(*fields)


def blank_td_words[T: Iterable[Model | None]](objects: T) -> T:
    """The objects of a `without_td_words` query (or None) with those fields set empty: a
    template then shows nothing, where reading a deferred field would load it."""
    for obj in objects:
        if obj is not None:
            for field in TD_WORDS[type(obj).__name__]:
                setattr(obj, field, "")
    return objects
