"""Help texts speak to the TD about the rules, not about "the product", in both languages."""

import re

import pytest
from django import forms as django_forms
from django.apps import apps
from django.urls import reverse
from django.utils import translation

from tournament import forms
from tournament.rules.decisions import DECISIONS
from tournament.views.td.tournaments import VARIANT_HELP

pytestmark = pytest.mark.django_db

# The software, as the old help named it: "the product", "produkten", "programmet".
SOFTWARE = re.compile(r"\bproduct|\bprodukt|\bprogram", re.IGNORECASE)


def help_texts():
    """Every help the TD reads: model fields, form fields, rules decisions, variants."""
    for model in apps.get_app_config("tournament").get_models():
        for field in model._meta.get_fields():
            if getattr(field, "help_text", ""):
                yield f"{model.__name__}.{field.name}", field.help_text
    for name, form in vars(forms).items():
        if isinstance(form, type) and issubclass(form, django_forms.BaseForm):
            for field_name, field in form.base_fields.items():
                if field.help_text:
                    yield f"{name}.{field_name}", field.help_text
    for title, text in DECISIONS:
        yield f"decision {title}", text
    for setting, helps in VARIANT_HELP.items():
        for value, text in helps.items():
            yield f"{setting}={value}", text


@pytest.mark.parametrize("language", ["en", "sv"])
def test_no_help_speaks_of_the_software(language):
    with translation.override(language):
        speaking = [where for where, text in help_texts() if SOFTWARE.search(str(text))]
    assert speaking == []


def test_the_hand_entry_help_speaks_of_the_rules():
    from tournament.models import Tournament

    text = Tournament._meta.get_field("entry_mode").help_text
    with translation.override("sv"):
        assert str(text) == (
            "Hur revisorn registrerar en hand: varje spelares poäng (summan är noll), eller "
            "spelarnas kort, som handen räknas ut från enligt turneringens royaltytabell och "
            "poängräkning, bust och Fantasyland inräknade."
        )


@pytest.mark.parametrize(
    ("language", "intro", "cards"),
    [
        (
            "en",
            "Where the SM rulebook is silent, these rulings apply.",
            "The revisor enters every player&#x27;s three rows; the hand is scored from the "
            "cards: rows, royalties, fouls and Fantasyland.",
        ),
        (
            "sv",
            "Där SM-regelboken är tyst gäller följande avgöranden.",
            "Revisorn matar in varje spelares tre rader; handen räknas ut från korten: rader, "
            "royalties, bust och Fantasyland.",
        ),
    ],
)
def test_the_settings_page_explains_the_rules(td_client, language, intro, cards):
    td_client.cookies["django_language"] = language
    html = td_client.get(reverse("td:tournament_create")).content.decode()
    assert intro in html
    assert cards in html
    assert not SOFTWARE.search(html)
