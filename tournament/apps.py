from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self):
        # What follows a change of state, once it commits (tournament/events.py): imported
        # here, where the models are ready, and nowhere in the services.
        from tournament import events
        from tournament.services import autobackup

        events.changed.connect(autobackup.after_change, wanted=autobackup.change_wanted)
        events.renamed.connect(autobackup.after_rename, wanted=autobackup.enabled_for)
        events.level_closed.connect(autobackup.after_level_closed, wanted=autobackup.enabled_for)
