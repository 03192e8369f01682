from django.urls import path

from tournament.views import public

app_name = "public"
urlpatterns = [
    path("", public.home, name="home"),
]
