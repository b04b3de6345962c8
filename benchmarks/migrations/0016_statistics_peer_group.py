"""Statistics rows carry their series' benchmark and parameter key, indexed with the median:
a type's rank among its peers becomes a count over one index. Rows kept before are filled
from their series (made NOT NULL and indexed by the next migration, in a
transaction of its own: PostgreSQL cannot alter a table with the fill's deferred checks pending)."""

import django.db.models.deletion
from django.db import migrations, models

FILL = """
UPDATE benchmarks_seriesstatistics SET
    benchmark_id = (SELECT s.benchmark_id FROM benchmarks_series s WHERE s.id = series_id),
    params_key = (SELECT s.params_key FROM benchmarks_series s WHERE s.id = series_id)
"""


class Migration(migrations.Migration):
    dependencies = [("benchmarks", "0015_run_withdrawn")]

    operations = [
        migrations.RemoveIndex(model_name="series", name="series_peers"),
        migrations.AddField(
            model_name="seriesstatistics",
            name="benchmark",
            field=models.ForeignKey(
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="benchmarks.benchmark",
            ),
        ),
        migrations.AddField(
            model_name="seriesstatistics",
            name="params_key",
            field=models.CharField(default="", max_length=1000),
            preserve_default=False,
        ),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
    ]
