import django.db.models.deletion
from django.db import migrations, models

# The series' instance type and variant copied into its statistics rows, from the series.
COPY = (
    "UPDATE benchmarks_seriesstatistics SET "
    "instance_type_id = (SELECT series.instance_type_id FROM benchmarks_series series "
    "WHERE series.id = benchmarks_seriesstatistics.series_id), "
    "variant = (SELECT series.variant FROM benchmarks_series series "
    "WHERE series.id = benchmarks_seriesstatistics.series_id)"
)


class Migration(migrations.Migration):
    dependencies = [
        ("benchmarks", "0025_low_priority"),
    ]

    operations = [
        # Added with a placeholder every row is given its series' value for at once.
        migrations.AddField(
            model_name="seriesstatistics",
            name="instance_type",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                default=0,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="benchmarks.instancetype",
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="seriesstatistics",
            name="variant",
            field=models.CharField(blank=True, default="", max_length=100),
        ),
        migrations.RunSQL(COPY, reverse_sql=migrations.RunSQL.noop),
        # Statistics of the new columns for the planner at once (every row was rewritten):
        # until the next autovacuum it would otherwise guess how many rows a type has.
        migrations.RunSQL(
            "ANALYZE benchmarks_seriesstatistics", reverse_sql=migrations.RunSQL.noop
        ),
    ]
