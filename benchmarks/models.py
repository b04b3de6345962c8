"""pricebench's domain: what ran where, what it cost, and what it measured."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Region(models.Model):
    """An AWS region, with the location name the Price List API uses for it."""

    code = models.CharField(max_length=32, unique=True)
    name = models.CharField(max_length=100)
    pricing_location = models.CharField(
        max_length=100, blank=True, help_text="The Price List API's `location` attribute."
    )
    # Bumped by every write of this region's prices, rates or of instance specifications:
    # answers priced here are fresh while it is older than their Last-Modified.
    prices_updated_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.code


class Architecture(models.TextChoices):
    X86_64 = "x86_64", "x86_64"
    ARM64 = "arm64", "arm64"


class InstanceType(models.Model):
    """Something one can rent by the hour: an EC2 instance type or a Fargate task size."""

    class Kind(models.TextChoices):
        EC2 = "ec2", "EC2 instance"
        FARGATE = "fargate", "Fargate task"
        DATABASE = "database", "RDS or Aurora DB instance class"

    name = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.EC2)
    vcpus = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    memory_gib = models.DecimalField(max_digits=10, decimal_places=3, null=True, blank=True)
    architecture = models.CharField(max_length=16, choices=Architecture.choices, blank=True)
    physical_cores = models.PositiveIntegerField(null=True, blank=True)
    threads_per_core = models.PositiveSmallIntegerField(null=True, blank=True)
    cpu_family = models.CharField(
        max_length=100, blank=True, help_text="e.g. 'AWS Graviton3', 'Intel Xeon Sapphire Rapids'"
    )
    burstable = models.BooleanField(default=False)
    baseline_share = models.DecimalField(
        max_digits=5,
        decimal_places=4,
        null=True,
        blank=True,
        help_text="Sustained share of each vCPU a burstable type may use (t2.nano: 0.05).",
    )
    # AWS's own words for the bandwidth ("Up to 25 Gigabit", "100 Gigabit"): the price
    # list's `networkPerformance`, or describe_instance_types' NetworkPerformance.
    network_performance = models.CharField(max_length=64, blank=True, default="")
    source = models.TextField(blank=True, help_text="Where the specifications come from.")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def family(self) -> str:
        """'c7g' for c7g.xlarge, 'fargate' for a Fargate task size."""
        return family_of(self.kind, self.name)


class PeriodQuerySet(models.QuerySet):
    """Dated periods (prices, rates), each in force from `effective_from` to `effective_to`."""

    def in_force_on(self, day: datetime.date) -> PeriodQuerySet:
        """The periods in force on `day`."""
        return self.filter(in_force_on(day))


class DatedPeriod(models.Model):
    """What every price or rate period has: the days it is in force and where it was read."""

    effective_from = models.DateField()
    effective_to = models.DateField(
        null=True, blank=True, help_text="Last day in force; empty while still in force."
    )
    source = models.TextField()
    recorded_at = models.DateTimeField(auto_now_add=True)

    objects = PeriodQuerySet.as_manager()

    class Meta:
        abstract = True


def starts_once(name: str, *key: str) -> list[models.UniqueConstraint]:
    """The constraint that a period of one key (in a region) starts on a given day once."""
    return [models.UniqueConstraint(fields=[*key, "effective_from"], name=name)]


class PurchaseOption(models.TextChoices):
    ON_DEMAND = "on_demand", "On-demand"
    SPOT = "spot", "Spot"
    RESERVED_1YR_NO_UPFRONT = "reserved_1yr_no_upfront", "Reserved, 1 year, no upfront"


class Price(DatedPeriod):
    """An hourly price of an EC2 instance type for one period; periods never overlap."""

    instance_type = models.ForeignKey(InstanceType, on_delete=models.CASCADE, related_name="prices")
    region = models.ForeignKey(Region, on_delete=models.CASCADE, related_name="prices")
    purchase_option = models.CharField(max_length=32, choices=PurchaseOption.choices)
    # Empty for prices that are the same in every zone (everything but spot).
    availability_zone = models.CharField(max_length=32, blank=True, default="")
    usd_per_hour = models.DecimalField(max_digits=14, decimal_places=8)

    class Meta:
        ordering = ["instance_type__name", "region__code", "purchase_option", "effective_from"]
        constraints = starts_once(
            "price_period_starts_once",
            "instance_type",
            "region",
            "purchase_option",
            "availability_zone",
        )
        indexes = [
            models.Index(fields=["region", "purchase_option", "effective_from"]),
        ]

    def __str__(self) -> str:
        zone = f" {self.availability_zone}" if self.availability_zone else ""
        return (
            f"{self.instance_type} {self.region}{zone} {self.purchase_option} "
            f"${self.usd_per_hour}/h from {self.effective_from}"
        )


class FargateRate(DatedPeriod):
    """A Fargate rate per vCPU-hour or GB-hour for one period, from which task prices follow."""

    class Component(models.TextChoices):
        VCPU = "vcpu", "vCPU-hour"
        MEMORY_GB = "memory_gb", "GB-hour"
        EPHEMERAL_STORAGE_GB = "ephemeral_storage_gb", "ephemeral storage GB-hour"

    region = models.ForeignKey(Region, on_delete=models.CASCADE, related_name="fargate_rates")
    # "any" for rates that do not depend on the architecture (ephemeral storage).
    architecture = models.CharField(max_length=16)
    operating_system = models.CharField(max_length=16, default="linux")
    component = models.CharField(max_length=32, choices=Component.choices)
    usd_per_unit_hour = models.DecimalField(max_digits=14, decimal_places=8)
    # Made without the help text the other periods have; changing it would be a migration.
    effective_to = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["region__code", "architecture", "component", "effective_from"]
        constraints = starts_once(
            "fargate_rate_period_starts_once",
            "region",
            "architecture",
            "operating_system",
            "component",
        )

    def __str__(self) -> str:
        return (
            f"Fargate {self.region} {self.architecture} {self.component} "
            f"${self.usd_per_unit_hour} from {self.effective_from}"
        )


class VolumePrice(DatedPeriod):
    """A monthly EBS volume rate for one period: per GB, per provisioned IOPS or per MiB/s."""

    class VolumeType(models.TextChoices):
        GP2 = "gp2", "General Purpose SSD (gp2)"
        GP3 = "gp3", "General Purpose SSD (gp3)"
        IO1 = "io1", "Provisioned IOPS SSD (io1)"
        IO2 = "io2", "Provisioned IOPS SSD (io2)"
        ST1 = "st1", "Throughput Optimized HDD (st1)"
        SC1 = "sc1", "Cold HDD (sc1)"

    class Component(models.TextChoices):
        STORAGE = "storage", "GB-month of storage"
        IOPS = "iops", "provisioned IOPS-month"
        THROUGHPUT = "throughput", "provisioned MiB/s-month"

    region = models.ForeignKey(Region, on_delete=models.CASCADE, related_name="volume_prices")
    volume_type = models.CharField(max_length=8, choices=VolumeType.choices)
    component = models.CharField(max_length=16, choices=Component.choices)
    # io2's IOPS are priced in tiers (1: up to 32,000, 2: to 64,000, 3: above); all else is 1.
    tier = models.PositiveSmallIntegerField(default=1)
    usd_per_unit_month = models.DecimalField(max_digits=14, decimal_places=8)

    class Meta:
        ordering = ["region__code", "volume_type", "component", "tier", "effective_from"]
        constraints = starts_once(
            "volume_price_period_starts_once", "region", "volume_type", "component", "tier"
        )

    def __str__(self) -> str:
        tier = f" tier {self.tier}" if self.tier != 1 else ""
        return (
            f"{self.volume_type} {self.component}{tier} {self.region} "
            f"${self.usd_per_unit_month}/month from {self.effective_from}"
        )


class DatabasePrice(DatedPeriod):
    """An hourly on-demand price of an RDS or Aurora DB instance class for one period.

    Engine, deployment option, licence model and edition keep AWS's words ("Aurora MySQL",
    "Single-AZ", "No license required"); `io_optimized` is Aurora I/O-Optimized's dearer
    instance, whose storage I/O is not billed.
    """

    instance_type = models.ForeignKey(
        InstanceType, on_delete=models.CASCADE, related_name="database_prices"
    )
    region = models.ForeignKey(Region, on_delete=models.CASCADE, related_name="database_prices")
    engine = models.CharField(max_length=64)
    deployment_option = models.CharField(max_length=16)
    license_model = models.CharField(max_length=64, blank=True, default="")
    edition = models.CharField(max_length=64, blank=True, default="")
    io_optimized = models.BooleanField(default=False)
    usd_per_hour = models.DecimalField(max_digits=14, decimal_places=8)

    class Meta:
        ordering = ["instance_type__name", "region__code", "engine", "effective_from"]
        constraints = starts_once(
            "database_price_period_starts_once",
            "instance_type",
            "region",
            "engine",
            "deployment_option",
            "license_model",
            "edition",
            "io_optimized",
        )

    def __str__(self) -> str:
        return (
            f"{self.instance_type} {self.engine} {self.deployment_option} {self.region} "
            f"${self.usd_per_hour}/h from {self.effective_from}"
        )


class AuroraRate(DatedPeriod):
    """Aurora's storage (per GB-month) or I/O (per million requests) rate for one period."""

    class Component(models.TextChoices):
        STORAGE = "storage", "GB-month of storage"
        IO_OPTIMIZED_STORAGE = "io_optimized_storage", "GB-month of I/O-Optimized storage"
        IO = "io", "million I/O requests"

    region = models.ForeignKey(Region, on_delete=models.CASCADE, related_name="aurora_rates")
    # "Aurora MySQL", "Aurora PostgreSQL", or AWS's "Any" for a rate both share.
    engine = models.CharField(max_length=64)
    component = models.CharField(max_length=32, choices=Component.choices)
    usd_per_unit = models.DecimalField(max_digits=14, decimal_places=8)
    # Made without the help text the other periods have; changing it would be a migration.
    effective_to = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["region__code", "engine", "component", "effective_from"]
        constraints = starts_once("aurora_rate_period_starts_once", "region", "engine", "component")

    def __str__(self) -> str:
        return f"Aurora {self.engine} {self.component} {self.region} ${self.usd_per_unit}"


class Benchmark(models.Model):
    """A measured quantity, `<tool>:<test>`, with its unit and which direction is better."""

    key = models.CharField(max_length=120, unique=True)
    unit = models.CharField(max_length=40)
    higher_is_better = models.BooleanField(default=True)
    # The kind of work it measures ("Key-value store", "Compression"): the menu's group.
    # Set with the description from benchmarks/catalog.py when an ingest creates it.
    group = models.CharField(max_length=60, blank=True, default="")
    description = models.TextField(blank=True)
    # Kept at ingest from the series' statistics (services/statistics.py), so that menus and
    # parameter checks never scan results: every parameter with its values in order, and the
    # instance type families with results.
    params = models.JSONField(default=dict, blank=True, editable=False)
    families = models.JSONField(default=list, blank=True, editable=False)
    stats_updated_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return self.key

    @property
    def tool(self) -> str:
        return self.key.split(":", 1)[0]


class Run(models.Model):
    """One ingested output: a tool's raw output from one machine, or a table of results.

    A table (CSV/JSON) names its machines per row: its rows are stored as child runs, one per
    machine, variant and date, so that every result's machine is its run's.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="children"
    )
    instance_type = models.ForeignKey(
        InstanceType, on_delete=models.PROTECT, null=True, blank=True, related_name="runs"
    )
    region = models.ForeignKey(
        Region, on_delete=models.PROTECT, null=True, blank=True, related_name="runs"
    )
    variant = models.CharField(max_length=100, blank=True, default="")
    cpu_model = models.CharField(max_length=200, blank=True, default="")
    measured_at = models.DateField(null=True, blank=True)
    format = models.CharField(max_length=32, blank=True)
    # Long enough for Spare Cores' redis version line (95 characters).
    tool_version = models.CharField(max_length=200, blank=True, default="")
    filename = models.CharField(max_length=255, blank=True, default="")
    raw_output = models.TextField(blank=True, default="")
    content_hash = models.CharField(max_length=64, blank=True, default="")
    # sha256 of the content plus the machine it was uploaded for: one run per key.
    upload_key = models.CharField(max_length=300, unique=True, null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    error = models.TextField(blank=True, default="")
    warnings = models.JSONField(default=list, blank=True)
    source = models.TextField(blank=True, default="")
    licence = models.CharField(max_length=100, blank=True, default="")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the run was last handed to the broker, and how many times: the sweep hands a run
    # left pending again (services/runs.py `requeue_stale_runs`), and gives up after a few.
    queued_at = models.DateTimeField(null=True, blank=True)
    queue_attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["instance_type", "region", "variant"]),
            models.Index(
                fields=["queued_at"], condition=Q(status="pending"), name="run_pending_queued"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "done", "failed"]), name="run_status_known"
            ),
        ]

    def __str__(self) -> str:
        machine = self.instance_type.name if self.instance_type_id else "table"
        return f"run {self.pk} ({machine}, {self.status})"


class Series(models.Model):
    """Results of one benchmark on one instance type and variant with one set of parameters.

    What a row of the price-performance table aggregates; results measured with other
    parameters belong to another series and are never mixed with these.
    """

    benchmark = models.ForeignKey(Benchmark, on_delete=models.CASCADE, related_name="series")
    instance_type = models.ForeignKey(InstanceType, on_delete=models.CASCADE, related_name="series")
    variant = models.CharField(max_length=100, blank=True, default="")
    params = models.JSONField(default=dict, blank=True)
    # `params` as canonical JSON (sorted keys), the part of the natural key a JSON field
    # cannot be.
    params_key = models.CharField(max_length=1000)

    class Meta:
        ordering = ["benchmark_id", "instance_type_id", "variant", "params_key"]
        constraints = [
            models.UniqueConstraint(
                fields=["benchmark", "instance_type", "variant", "params_key"],
                name="series_natural_key",
            ),
        ]

    def __str__(self) -> str:
        variant = f" ({self.variant})" if self.variant else ""
        return f"{self.benchmark_id} {self.instance_type_id}{variant} {self.params_key}"


class SeriesStatistics(models.Model):
    """A series' statistics, kept at ingest: over every region, or over one measuring region.

    `measured_in` is "" for the statistics of every run wherever it was measured (runs whose
    region is not recorded count only there), else the code of the region the runs were
    measured in. When every run was measured in one region, the all-regions row names it in
    `sole_region` and answers for that region too: per-region rows exist only for series
    measured in several. Written only by services/statistics.py; `rebuild_stats` recomputes
    them.
    """

    ALL_REGIONS = ""
    SAMPLES_KEPT = 100

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="statistics")
    measured_in = models.CharField(max_length=32, blank=True, default="")
    sole_region = models.CharField(max_length=32, blank=True, default="")
    runs = models.PositiveIntegerField()
    results = models.PositiveIntegerField()
    median = models.FloatField()
    minimum = models.FloatField()
    maximum = models.FloatField()
    first_quartile = models.FloatField()
    third_quartile = models.FloatField()
    # {cpu model: runs}, most runs first, by normalised name (benchmarks.cpu_models);
    # "unknown" for runs that did not say.
    cpu_models = models.JSONField(default=dict)
    # Region codes the runs were measured in, in order; null for runs with no region.
    regions = models.JSONField(default=list)
    # [[source, licence, runs], ...], most runs first.
    sources = models.JSONField(default=list)
    # [[value, cpu model], ...] in order of value: every result when there are at most
    # SAMPLES_KEPT, else that many evenly spaced in rank from the minimum to the maximum.
    samples = models.JSONField(default=list)
    first_measured_at = models.DateField(null=True, blank=True)
    last_measured_at = models.DateField(null=True, blank=True)
    # Runs whose results were left out of the figures above (benchmarks.flags); null for
    # rows kept before flags were: `rebuild_stats` (and `loaddemo`) recompute those.
    flagged_runs = models.PositiveIntegerField(null=True, blank=True)
    # [[flag, runs, [first run ids]], ...], most runs first.
    flags = models.JSONField(default=list, blank=True)
    # Every result was flagged: the figures come from them rather than from nothing.
    only_flagged = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "series statistics"
        constraints = [
            models.UniqueConstraint(
                fields=["series", "measured_in"], name="series_statistics_once_per_scope"
            ),
        ]

    def __str__(self) -> str:
        return f"series {self.series_id} [{self.measured_in or 'all regions'}]"


class Result(models.Model):
    """One figure a run measured: a benchmark, its parameters and the value."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="results")
    benchmark = models.ForeignKey(Benchmark, on_delete=models.PROTECT, related_name="results")
    params = models.JSONField(default=dict, blank=True)
    value = models.FloatField()
    notes = models.TextField(blank=True, default="")
    # Set at ingest (services/statistics.py); the statistics read results through it.
    series = models.ForeignKey(
        Series, on_delete=models.PROTECT, null=True, blank=True, related_name="results"
    )

    class Meta:
        ordering = ["run_id", "id"]
        indexes = [models.Index(fields=["benchmark", "run"])]

    def __str__(self) -> str:
        return f"{self.benchmark} {self.params} = {self.value}"


def family_of(kind: str, name: str) -> str:
    """The family an instance type is compared by: `c7g` for c7g.xlarge, `fargate` for tasks,
    `db.r3` for the DB instance class db.r3.large."""
    if kind == InstanceType.Kind.DATABASE:
        return ".".join(name.split(".", 2)[:2])
    return "fargate" if kind == InstanceType.Kind.FARGATE else name.split(".", 1)[0]


def in_family(family: str) -> Q:
    """Instance types of a family, as a query (the inverse of `family_of`)."""
    if family == "fargate":
        return Q(kind=InstanceType.Kind.FARGATE)
    if family.startswith("db."):
        return Q(kind=InstanceType.Kind.DATABASE, name__startswith=f"{family}.")
    return Q(kind=InstanceType.Kind.EC2, name__startswith=f"{family}.")


def fargate_name(vcpus: Decimal, memory_gib: Decimal, architecture: str) -> str:
    """`fargate-0.25vcpu-0.5gb`, with `-arm64` for Graviton tasks (docs/formats.md)."""

    def plain(number: Decimal) -> str:
        text = format(Decimal(number).normalize(), "f")
        return text

    suffix = "-arm64" if architecture == Architecture.ARM64 else ""
    return f"fargate-{plain(vcpus)}vcpu-{plain(memory_gib)}gb{suffix}"


# "Which period is in force on a day", the one definition: in SQL for the readers, in Python
# for the importer that fits new periods among the ones it has loaded.
def in_force_on(day: datetime.date) -> Q:
    """Periods (prices, rates) in force on `day`."""
    return Q(effective_from__lte=day) & (Q(effective_to__isnull=True) | Q(effective_to__gte=day))


def is_in_force(period, day: datetime.date) -> bool:
    """`in_force_on` for one period already loaded."""
    return period.effective_from <= day and (
        period.effective_to is None or period.effective_to >= day
    )


class PriceRefresh(models.Model):
    """One refresh of AWS prices for one region (scheduled or by hand), and how it ended.

    Written outside the refresh's own transaction, so that a failed refresh, which changes no
    price, still leaves its error here for the admin.
    """

    class Kind(models.TextChoices):
        ON_DEMAND = "on_demand", "On-demand EC2 prices and Fargate rates"
        SPOT = "spot", "Spot prices"
        SPECS = "specs", "Instance specifications"

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        OK = "ok", "OK"
        FAILED = "failed", "Failed"

    kind = models.CharField(max_length=16, choices=Kind.choices, help_text="What was refreshed.")
    # A code rather than a key: a misspelt region in PRICEBENCH_REGIONS is recorded too.
    region = models.CharField(max_length=32)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    attempt = models.PositiveSmallIntegerField(default=1, help_text="1, then 2... on retries.")
    read = models.PositiveIntegerField(default=0, help_text="Items AWS returned.")
    matched = models.PositiveIntegerField(default=0, help_text="Prices among them.")
    stored = models.PositiveIntegerField(default=0, help_text="New price periods.")
    unchanged = models.PositiveIntegerField(default=0, help_text="Prices already known.")
    skipped = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["kind", "region", "-started_at"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.region} {self.started_at:%Y-%m-%d %H:%M} {self.status}"
