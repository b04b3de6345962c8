"""Every AWS region and every valid Fargate task size, so a fresh database knows them."""

from django.db import migrations


def load_reference_data(apps, schema_editor):
    from benchmarks.models import fargate_name
    from benchmarks.reference import AWS_REGIONS, fargate_task_sizes

    Region = apps.get_model("benchmarks", "Region")
    InstanceType = apps.get_model("benchmarks", "InstanceType")
    for region in AWS_REGIONS:
        Region.objects.update_or_create(
            code=region.code,
            defaults={"name": region.name, "pricing_location": region.pricing_location},
        )
    for size in fargate_task_sizes():
        InstanceType.objects.update_or_create(
            name=fargate_name(size.vcpus, size.memory_gib, size.architecture),
            defaults={
                "kind": "fargate",
                "vcpus": size.vcpus,
                "memory_gib": size.memory_gib,
                "architecture": size.architecture,
                "cpu_family": "AWS Graviton" if size.architecture == "arm64" else "",
                "source": "AWS ECS documentation: valid Fargate task CPU and memory sizes",
            },
        )


class Migration(migrations.Migration):
    dependencies = [("benchmarks", "0001_initial")]

    operations = [migrations.RunPython(load_reference_data, migrations.RunPython.noop)]
