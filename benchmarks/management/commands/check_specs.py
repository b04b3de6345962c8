"""`python manage.py check_specs`: list every instance type with a result or a price that lacks
vCPUs, memory, architecture or cpu_allocation; exit status 1 if there is any."""

from django.core.management.base import BaseCommand, CommandError

from benchmarks.selectors.pages.instance_types import REQUIRED_SPECS, types_lacking_specs


class Command(BaseCommand):
    help = (
        "List every instance type with a benchmark result or a price that lacks vCPUs, "
        "memory, architecture or cpu_allocation, one line each; exit status 1 if any does."
    )

    def handle(self, *args, **options):
        check = types_lacking_specs()
        for name, missing in check.lacking:
            self.stdout.write(f"{name}: no {', no '.join(missing)}")
        if check.lacking:
            raise CommandError(
                f"{len(check.lacking):,} of {check.checked:,} types with a result or a price "
                "lack specifications (import them: `import_prices --instance-types PATH`, or "
                "`--api --service specs`)",
                returncode=1,
            )
        self.stdout.write(
            f"all {check.checked:,} types with a result or a price have {', '.join(REQUIRED_SPECS)}"
        )
