from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from tournament import events


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # What follows a change of state, once it commits (tournament/events.py): imported
        # here, where the models are ready, and nowhere in the services.
        from tournament.backups import automatic

        events.changed.connect(automatic.after_change, wanted=automatic.change_wanted)
        events.renamed.connect(automatic.after_rename, wanted=automatic.enabled_for)
        events.level_closed.connect(automatic.after_level_closed, wanted=automatic.enabled_for)
