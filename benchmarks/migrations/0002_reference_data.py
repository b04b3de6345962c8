"""Every AWS region and every valid Fargate task size, so a fresh database knows them."""

from django.db import migrations


def load_reference_data(apps, schema_editor):
    from benchmarks.reference import load_reference_data

    load_reference_data(
        apps.get_model("benchmarks", "Region"), apps.get_model("benchmarks", "InstanceType")
    )


class Migration(migrations.Migration):
    dependencies = [("benchmarks", "0001_initial")]

    operations = [migrations.RunPython(load_reference_data, migrations.RunPython.noop)]
