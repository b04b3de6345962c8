"""PriceRefresh.source -> kind: `source` means where a price or a result comes from."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("benchmarks", "0006_run_queueing"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="pricerefresh", name="benchmarks__source_a14ff8_idx"),
        migrations.RenameField(model_name="pricerefresh", old_name="source", new_name="kind"),
        migrations.AlterField(
            model_name="pricerefresh",
            name="kind",
            field=models.CharField(
                choices=[
                    ("on_demand", "On-demand EC2 prices and Fargate rates"),
                    ("spot", "Spot prices"),
                    ("specs", "Instance specifications"),
                ],
                help_text="What was refreshed.",
                max_length=16,
            ),
        ),
        migrations.AddIndex(
            model_name="pricerefresh",
            index=models.Index(
                fields=["kind", "region", "-started_at"], name="benchmarks__kind_319683_idx"
            ),
        ),
    ]
