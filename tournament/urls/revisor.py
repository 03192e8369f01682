"""Revisor URL space (/r/): a device bound to one table by its private link or short code."""

from django.urls import path

from tournament.views import revisor

app_name = "revisor"
urlpatterns = [
    path("", revisor.placeholder, name="code"),
    path("<str:key>/", revisor.placeholder, name="link"),
]
