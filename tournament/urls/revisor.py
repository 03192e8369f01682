"""Revisor URL space (/r/): a device bound to one table, or to one station (a table number
for the whole event), by its private link or short code."""

from django.urls import path

from tournament.views.revisor import card, cards, entry, fix, queued, worker

app_name = "revisor"
urlpatterns = [
    path("", entry.code, name="code"),
    path("sw.js", worker.service_worker, name="service_worker"),
    path("card/", card.card, name="card"),
    path("card/summary/", card.summary, name="summary"),
    path("card/hand/", card.record, name="hand"),
    path("card/call/", card.call, name="call"),
    path("card/queued/", queued.queued, name="queued"),
    path("card/cards/", cards.cards, name="cards"),
    path("card/cards/check/", cards.preview, name="cards_preview"),
    path("card/cards/confirm/", cards.confirm, name="cards_confirm"),
    path("card/fix/", fix.fix, name="fix"),
    path("card/fix/check/", fix.fix_check, name="fix_check"),
    path("card/fix/confirm/", fix.fix_confirm, name="fix_confirm"),
    path("station/", entry.station_waiting, name="station_waiting"),
    path("s/<revisorkey:key>/", entry.station_link, name="station_link"),
    path("<revisorkey:key>/", entry.link, name="link"),
]
