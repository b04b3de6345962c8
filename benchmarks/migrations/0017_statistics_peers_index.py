"""The statistics rows' peer group, filled by 0016, is required and indexed with the median."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("benchmarks", "0016_statistics_peer_group")]

    operations = [
        migrations.AlterField(
            model_name="seriesstatistics",
            name="benchmark",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="benchmarks.benchmark",
            ),
        ),
        migrations.AddIndex(
            model_name="seriesstatistics",
            index=models.Index(
                fields=["benchmark", "params_key", "measured_in", "median"],
                name="statistics_peers",
            ),
        ),
    ]
