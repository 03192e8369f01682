from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournament", "0008_audit_entry_as_data")]

    operations = []
