"""Amounts and shares in the reader's language (tournament/rules/money.py): `{{ amount|money:
currency }}` ("13,150 SEK", "13 150 SEK"), `{{ share|percent }}` ("6.5%", "6,5 %")."""

from django import template

from tournament.rules import money as words

register = template.Library()


@register.filter
def money(amount: int | None, currency: str) -> str:
    if amount is None or amount == "":
        return ""
    return words.money(amount, currency)


@register.filter
def percent(share: int | None) -> str:
    if share is None or share == "":
        return ""
    return words.percent(share)
