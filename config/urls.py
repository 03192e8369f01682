import os

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("", include("tournament.urls.public")),
    path("td/", include("tournament.urls.td")),
    path("r/", include("tournament.urls.revisor")),
    path("guide/", include("tournament.urls.guide")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

# Benchmarks only (bench/bench_public.py): a bare view answering "ok", the yardstick a
# public page and an unchanged poll are compared with, served by the same gunicorn. It
# exists only when DEBUG is off AND BENCH_BARE_VIEW=1, which no deployment sets: in
# production (and in development and tests) /bench/ok/ is a 404 like any unknown URL.
if not settings.DEBUG and os.environ.get("BENCH_BARE_VIEW") == "1":
    from tournament.views import bare

    # First, so that resolving it costs the least: the strictest yardstick.
    urlpatterns.insert(0, path("bench/ok/", bare.ok, name="bench_ok"))
