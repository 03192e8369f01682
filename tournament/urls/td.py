from django.urls import path

from tournament.views import td

app_name = "td"
urlpatterns = [
    path("", td.dashboard, name="dashboard"),
]
