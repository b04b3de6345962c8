"""How many of a series' runs are verified (Run.verified), kept with its statistics and in the
covering index a question reads them from (`statistics_peer_rows`, rebuilt with it). Rows kept
before count none: no run had a proof before 0032."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('benchmarks', '0032_run_verified_identity'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='seriesstatistics',
            name='statistics_peer_rows',
        ),
        migrations.AddField(
            model_name='seriesstatistics',
            name='verified_runs',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddIndex(
            model_name='seriesstatistics',
            index=models.Index(fields=['benchmark', 'params_key', 'measured_in'], include=('sole_region', 'instance_type', 'variant', 'series', 'id', 'runs', 'results', 'median', 'minimum', 'maximum', 'first_quartile', 'third_quartile', 'flagged_runs', 'only_flagged', 'cpu_models', 'regions', 'verified_runs'), name='statistics_peer_rows'),
        ),
    ]
