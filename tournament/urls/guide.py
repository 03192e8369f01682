"""The guide's URL space: /guide/<lang>/<page>/ (docs/guide/, served by the app itself)."""

from django.urls import path

from tournament.views import guide

app_name = "guide"
urlpatterns = [
    path("", guide.index, name="index"),
    path("<slug:language>/<slug:name>/", guide.page, name="page"),
]
