"""A covering index of what a question reads of each kept row (`statistics_peer_rows`,
PostgreSQL), so that its rows are read from the index alone. Built in about 3 s on a
database of ten million results (docs/performance.md)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("benchmarks", "0026_statistics_name_their_type"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="seriesstatistics",
            index=models.Index(
                fields=["benchmark", "params_key", "measured_in"],
                include=(
                    "sole_region",
                    "instance_type",
                    "variant",
                    "series",
                    "id",
                    "runs",
                    "results",
                    "median",
                    "minimum",
                    "maximum",
                    "first_quartile",
                    "third_quartile",
                    "flagged_runs",
                    "only_flagged",
                    "cpu_models",
                    "regions",
                ),
                name="statistics_peer_rows",
            ),
        ),
    ]
