"""An index of each vendor's instance types by name with their ids (`instance_type_vendor_ids`;
the id as a non-key column on PostgreSQL, where a question's statistics are joined to its
vendor's types from this index alone; SQLite keeps a row's id in every index)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("benchmarks", "0041_statistics_series_unchecked"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="instancetype",
            index=models.Index(
                fields=["vendor", "name"], include=("id",), name="instance_type_vendor_ids"
            ),
        ),
    ]
