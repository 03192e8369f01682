"""{{ entry.before|audit_details:entry.action }}: an audit entry's before or after as
(label, text) lines in the reader's language (`audit_sentences.details`), for the TD's
audit log, instead of its raw JSON keys. {{ label|actor }}: who made a change, as the
reader reads it (`audit_sentences.actor_name`)."""

from django import template

from tournament.audit.sentences import actor_name, details

register = template.Library()


@register.filter
def audit_details(value: object, action: object) -> list[tuple[str, str]]:
    return details(str(action), value)


@register.filter
def actor(label: object) -> str:
    return actor_name(str(label))
