from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournament", "0005_revisor_code_attempts")]

    operations = []
