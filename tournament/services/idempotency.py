"""A change made once, however often its form is sent (double click, resend, retry).

The one mechanism for every form that changes state. The form carries a one-time key
(`OnceForm`'s hidden field); the service that makes the change takes it (`key=`) and keeps
it, in the same transaction as the change, in a row unique on the key (`FormSubmission`),
with what the change was asked to do (its fingerprint) and what it made (`result_id`):

- a new key: the change is made and the key kept with it; a change refused (ServiceError)
  keeps no key, so the corrected form can be sent again;
- the same key with the same content (the same submission sent again): nothing is made
  again, `AlreadyDone` is raised with the first change's result;
- the same key with other content (a page brought back and changed, a key copied, another
  form): `KeyInUse`, nothing is changed. "Already done" would say a change was made that
  was not.

The key is claimed before the change is worked out: a second request with the key waits on
the unique row until the first commits, then is answered as a repeat, before the checks
that would now refuse it (the player disqualified, the tie settled).

A hand keeps its key on its own row (`HandVersion.idempotency_key`, unique, services/hands.py):
a hand is recorded without a lock and this keeps its path to one insert. It answers by the
same rule: the same hand sent again is the hand recorded, another change is KeyInUse.
A call without a key (an admin action, a command, a test) makes its change every time.
"""

import functools
import hashlib
import json
import uuid
from collections.abc import Callable
from typing import Any, NoReturn

from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _

from tournament import audit
from tournament.errors import HandConflict, InvalidEntry, KeyInUse
from tournament.models import FormSubmission, HandVersion

# The `action` of the rows kept before 0018, by the views' forms (the fingerprint of the
# request): they answer as they did, by that fingerprint or, empty, as the same submission.
LEGACY_ACTION = "form"


class AlreadyDone(Exception):  # noqa: N818 - not an error: the change was made, once
    """The same submission sent again: its change was made before, nothing is made twice.
    `first` is what the first one made (None when it made no row, or kept none)."""

    def __init__(self, first: models.Model | None = None) -> None:
        super().__init__("already done")
        self.first = first


def key_in_use() -> KeyInUse:
    return KeyInUse(
        _(
            "This form's key was already used for another change, which was made: "
            "nothing was changed now. Reload the page and send it again."
        )
    )


def _plain(value: Any) -> Any:
    """What a service argument stands for in a fingerprint: a row by its model and id."""
    if isinstance(value, models.Model):
        return [value._meta.label_lower, value.pk]
    if isinstance(value, (set, frozenset)):
        return sorted(map(str, value))
    return str(value)


def fingerprint(action: str, content: Any) -> str:
    """A digest of what a change is asked to do: the same arguments give the same."""
    text = json.dumps([action, content], sort_keys=True, default=_plain)
    return hashlib.sha256(text.encode()).hexdigest()


def clean_key(key: Any) -> uuid.UUID | None:
    if key is None or isinstance(key, uuid.UUID):
        return key
    try:
        return uuid.UUID(str(key))
    except ValueError:
        raise InvalidEntry(
            _("This form is out of date: reload the page and send it again.")
        ) from None


def _answer(key: uuid.UUID, action: str, digest: str, load: type[models.Model] | None) -> NoReturn:
    """The key is kept already: the first change's result for the same submission, or
    KeyInUse for another."""
    kept = FormSubmission.objects.filter(key=key).first()
    if kept is None:  # kept by a transaction that has rolled back since: send it again
        raise key_in_use()
    same = kept.fingerprint in ("", digest) and kept.action in (action, LEGACY_ACTION, "")
    if not same:
        raise key_in_use()
    first = None
    if load is not None and kept.result_id is not None:
        first = load._default_manager.filter(pk=kept.result_id).first()
    raise AlreadyDone(first)


def run_once(
    change: Callable[[], Any],
    *,
    key: Any,
    action: str,
    content: Any,
    actor: Any = None,
    load: type[models.Model] | None = None,
) -> Any:
    """Make `change()` once for `key`; return its result.

    `content` is what the change is asked to do (its fingerprint is kept with the key);
    `load` the model of the result, to give the first one back on a repeat. Raises
    AlreadyDone for the same submission sent again, KeyInUse for a key of another change.
    With no key, `change()` is simply made.
    """
    key = clean_key(key)
    if key is None:
        return change()
    digest = fingerprint(action, content)
    if HandVersion.objects.filter(idempotency_key=key).exists():
        raise key_in_use()  # a hand's key: never a form's
    with transaction.atomic():
        try:
            with transaction.atomic():
                kept = FormSubmission.objects.create(
                    key=key, action=action, fingerprint=digest, user=audit.actor_or_none(actor)
                )
        except IntegrityError:
            _answer(key, action, digest, load)
        result = change()
        if load is not None and isinstance(result, load) and isinstance(result.pk, int):
            kept.result_id = result.pk
            kept.save(update_fields=["result_id"])
        return result


def idempotent[R](
    action: str, load: type[models.Model] | None = None
) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A service that takes `key=`: kept by `run_once`, its keyword arguments (the actor
    aside) the content. `load` is the model the service returns.

    Typed `Callable[..., R]`: the service's return is kept, its parameters are not (a
    ParamSpec cannot add the keyword `key`)."""

    def wrap(service: Callable[..., R]) -> Callable[..., R]:
        @functools.wraps(service)
        def once(*args: Any, key: object = None, **kwargs: Any) -> R:
            if key is None:
                return service(*args, **kwargs)
            content = {name: value for name, value in kwargs.items() if name != "actor"}
            result: R = run_once(
                lambda: service(*args, **kwargs),
                key=key,
                action=action,
                content=[list(args), content],
                actor=kwargs.get("actor"),
                load=load,
            )
            return result

        return once

    return wrap


def kept_for(key: Any, action: str) -> bool:
    """Whether `key` made an `action` change: 1 query. Asked by a page whose form is refused
    by its own checks before any service runs (the player disqualified since by the
    penalty): a key that made such a change is that submission sent again."""
    try:
        key = clean_key(key) if key else None
    except InvalidEntry:
        return False
    if key is None:
        return False
    kept = FormSubmission.objects.filter(key=key).values_list("action", flat=True).first()
    return kept is not None and kept in (action, LEGACY_ACTION, "")


def hand_sent_again(
    key: uuid.UUID, table: models.Model, same: Callable[[HandVersion], bool]
) -> HandVersion | None:
    """A hand's key, by the same rule as a form's: the version `key` made at `table` when
    this submission is that one sent again (`same(version)`: the same hand, recorded or
    corrected from the same version); None for a new key. A key that made a change at
    another table, or another change here, is refused: nothing is written, and no
    "already recorded" answers for another hand."""
    version = (
        HandVersion.objects.filter(idempotency_key=key).select_related("hand").order_by().first()
    )
    if version is None:
        return None
    if version.hand.table_id != table.pk:
        raise HandConflict(_("This submission was already used at another table; reload the page."))
    if not same(version):
        if version.version == 1:
            change = _("hand %(hand)d as recorded") % {"hand": version.hand.number}
        else:
            change = _("hand %(hand)d as corrected (version %(version)d)") % {
                "hand": version.hand.number,
                "version": version.version,
            }
        raise KeyInUse(
            _(
                "This entry's key was already used for %(change)s: nothing was changed now. "
                "Reload the page and send it again."
            )
            % {"change": change}
        )
    return version
