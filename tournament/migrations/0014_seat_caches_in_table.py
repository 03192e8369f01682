"""The seats' standings move into their table's row (`Table.seat_caches`).

A hand wrote its table's row and then each seat's (four UPDATEs); it now writes the
table's row only. The values are carried over as they stand, both ways.
"""

from django.db import migrations, models

CACHES = (
    "hand_points",
    "penalty_points",
    "total",
    "place",
    "in_fantasyland",
    "fantasyland_streak",
)


def into_tables(apps, schema_editor):
    Table = apps.get_model("tournament", "Table")
    Seat = apps.get_model("tournament", "Seat")
    caches = {}
    for seat in Seat.objects.order_by("table_id", "position").iterator():
        caches.setdefault(seat.table_id, {})[str(seat.position)] = {
            name: getattr(seat, name) for name in CACHES
        }
    tables = []
    for table in Table.objects.filter(pk__in=caches).iterator():
        table.seat_caches = caches[table.pk]
        tables.append(table)
    Table.objects.bulk_update(tables, ["seat_caches"], batch_size=500)


def into_seats(apps, schema_editor):
    Table = apps.get_model("tournament", "Table")
    Seat = apps.get_model("tournament", "Seat")
    caches = dict(Table.objects.values_list("pk", "seat_caches"))
    seats = []
    for seat in Seat.objects.iterator():
        for name, value in (caches.get(seat.table_id) or {}).get(str(seat.position), {}).items():
            setattr(seat, name, value)
        seats.append(seat)
    Seat.objects.bulk_update(seats, list(CACHES), batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0013_player_alike_confirmed"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="seat_caches",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(into_tables, into_seats),
        migrations.RemoveConstraint(
            model_name="seat",
            name="total_is_points_less_penalties",
        ),
        *(migrations.RemoveField(model_name="seat", name=name) for name in CACHES),
    ]
