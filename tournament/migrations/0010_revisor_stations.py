from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournament", "0009_announcements")]

    operations = []
