"""What things cost: dated price and rate periods (EC2, Fargate, EBS, RDS and Aurora), and the
record of each scheduled price refresh."""

from __future__ import annotations

import datetime

from django.db import models
from django.db.models import Q
from django.utils import timezone

from benchmarks.models.places import InstanceType, Region


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


class HourlyPrice(DatedPeriod):
    """A period of an hourly price of something one rents (an EC2 type, a DB instance class)."""

    usd_per_hour = models.DecimalField(max_digits=14, decimal_places=8)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.describe()} ${self.usd_per_hour}/h from {self.effective_from}"

    def describe(self) -> str:
        """What is priced, for `__str__`."""
        raise NotImplementedError


class PeriodWithoutHelpText(DatedPeriod):
    """A period whose table was made before `effective_to` had its help text (Fargate, Aurora)."""

    # Giving it the help text would only be a migration that changes nothing in the database.
    effective_to = models.DateField(null=True, blank=True)

    class Meta:
        abstract = True


def starts_once(name: str, *key: str) -> list[models.UniqueConstraint]:
    """The constraint that a period of one key (in a region) starts on a given day once."""
    return [models.UniqueConstraint(fields=[*key, "effective_from"], name=name)]


class PurchaseOption(models.TextChoices):
    """How a price or a Fargate rate is paid: the purchase options a stored price may name."""

    ON_DEMAND = "on_demand", "On-demand"
    SPOT = "spot", "Spot"
    RESERVED = "reserved", "Reserved Instance"
    SAVINGS_PLAN = "savings_plan", "Savings Plan"
    FARGATE_SPOT = "fargate_spot", "Fargate Spot"
    # Azure's Low Priority virtual machines (evictable, priced apart from its Spot).
    LOW_PRIORITY = "low_priority", "Low Priority (Azure)"


def purchase_label(value: str) -> str:
    """A purchase option as a page or a chart's legend says it (`on_demand`: "On-demand"); a
    value that names none, as given."""
    return PurchaseOption(value).label if value in PurchaseOption.values else value


# The purchase options that are commitments: priced by term and payment, upfront and hourly.
COMMITMENTS = (PurchaseOption.RESERVED, PurchaseOption.SAVINGS_PLAN)


class Term(models.TextChoices):
    """How long a commitment (a Reserved Instance, a Savings Plan) lasts."""

    ONE_YEAR = "1y", "1 year"
    THREE_YEARS = "3y", "3 years"


class Payment(models.TextChoices):
    """How much of a commitment is paid when it is bought."""

    NO_UPFRONT = "no_upfront", "No upfront"
    PARTIAL_UPFRONT = "partial_upfront", "Partial upfront"
    ALL_UPFRONT = "all_upfront", "All upfront"


class OfferingClass(models.TextChoices):
    """A Reserved Instance's class: a standard one cannot be exchanged, a convertible one can."""

    STANDARD = "standard", "Standard"
    CONVERTIBLE = "convertible", "Convertible"


class Plan(models.TextChoices):
    """A Savings Plan: Compute (any family, region, Fargate) or EC2 Instance (one family)."""

    COMPUTE = "compute", "Compute"
    EC2_INSTANCE = "ec2_instance", "EC2 Instance"


def blank_choice(choices: type[models.TextChoices], max_length: int = 16) -> models.CharField:
    """A commitment's field: one of `choices`, or empty where it does not apply."""
    return models.CharField(max_length=max_length, choices=choices.choices, blank=True, default="")


# The fields that name a commitment, in the order of the unique constraints.
COMMITMENT_FIELDS = ("term", "payment", "offering_class", "plan")


class Price(HourlyPrice):
    """An hourly price of an EC2 instance type for one period; periods never overlap.

    With a commitment (`reserved`, `savings_plan`) `usd_per_hour` is the effective hourly
    price: the upfront fee spread over the term's hours plus the hourly fee, both kept.
    """

    instance_type = models.ForeignKey(InstanceType, on_delete=models.CASCADE, related_name="prices")
    region = models.ForeignKey(Region, on_delete=models.CASCADE, related_name="prices")
    purchase_option = models.CharField(max_length=32, choices=PurchaseOption.choices)
    # Empty for prices that are the same in every zone (everything but spot).
    availability_zone = models.CharField(max_length=32, blank=True, default="")
    os = models.CharField(max_length=16, default="linux")
    term = blank_choice(Term, 4)
    payment = blank_choice(Payment)
    offering_class = blank_choice(OfferingClass)
    plan = blank_choice(Plan)
    upfront_usd = models.DecimalField(max_digits=18, decimal_places=8, null=True, blank=True)
    hourly_usd = models.DecimalField(max_digits=14, decimal_places=8, null=True, blank=True)
    # The price as the vendor quotes it, in `currency` (Hetzner: EUR, net); `usd_per_hour` is
    # then it at the ECB's reference rate of `effective_from` (benchmarks.currency).
    # `quoted_per_hour` is null for AWS's prices, which are quoted in US dollars.
    currency = models.CharField(max_length=3, default="USD")
    quoted_per_hour = models.DecimalField(max_digits=14, decimal_places=8, null=True, blank=True)

    class Meta:
        ordering = ["instance_type__name", "region__code", "purchase_option", "effective_from"]
        constraints = starts_once(
            "price_period_starts_once",
            "instance_type",
            "region",
            "purchase_option",
            "availability_zone",
            "os",
            *COMMITMENT_FIELDS,
        )
        indexes = [
            models.Index(fields=["region", "purchase_option", "effective_from"]),
        ]

    def describe(self) -> str:
        zone = f" {self.availability_zone}" if self.availability_zone else ""
        commitment = " ".join(value for value in self.commitment() if value)
        commitment = f" {commitment}" if commitment else ""
        return f"{self.instance_type} {self.region}{zone} {self.purchase_option}{commitment}"

    def commitment(self) -> tuple[str, str, str, str]:
        """(term, payment, offering class, plan), empty strings where they do not apply."""
        return (self.term, self.payment, self.offering_class, self.plan)


class FargateRate(PeriodWithoutHelpText):
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
    # on_demand, fargate_spot, or savings_plan (a Compute Savings Plan's rate, no upfront part:
    # AWS publishes Fargate's plan rates per hour only).
    purchase_option = models.CharField(
        max_length=32, choices=PurchaseOption.choices, default=PurchaseOption.ON_DEMAND
    )
    term = blank_choice(Term, 4)
    payment = blank_choice(Payment)
    plan = blank_choice(Plan)

    class Meta:
        ordering = ["region__code", "architecture", "component", "effective_from"]
        constraints = starts_once(
            "fargate_rate_period_starts_once",
            "region",
            "architecture",
            "operating_system",
            "component",
            "purchase_option",
            "term",
            "payment",
            "plan",
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


class DatabasePrice(HourlyPrice):
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

    def describe(self) -> str:
        return f"{self.instance_type} {self.engine} {self.deployment_option} {self.region}"


class AuroraRate(PeriodWithoutHelpText):
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

    class Meta:
        ordering = ["region__code", "engine", "component", "effective_from"]
        constraints = starts_once("aurora_rate_period_starts_once", "region", "engine", "component")

    def __str__(self) -> str:
        return f"Aurora {self.engine} {self.component} {self.region} ${self.usd_per_unit}"


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
