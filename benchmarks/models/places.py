"""Where things run: AWS regions, and the instance types and Fargate task sizes one rents."""

from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.db.models import Q


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
    """The processor architectures AWS sells: Intel and AMD's, and Graviton's."""

    X86_64 = "x86_64", "x86_64"
    ARM64 = "arm64", "arm64"


class CpuAllocation(models.TextChoices):
    """How a type's vCPUs are sold: whole, shared without a published baseline, or burstable
    (a published baseline per vCPU and CPU credits above it)."""

    DEDICATED = "dedicated", "dedicated"
    SHARED = "shared", "shared"
    BURSTABLE = "burstable", "burstable"


class SpecSource(models.TextChoices):
    """Where a specification came from, best first: a better source replaces a weaker one's
    value, never the reverse (services/prices/spec_sources.py)."""

    DESCRIBE_INSTANCE_TYPES = "describe_instance_types", "AWS describe_instance_types"
    AWS_DOCUMENTATION = "aws_documentation", "AWS documentation"
    SPARECORES = "sparecores", "Spare Cores (sparecores.com), CC BY-SA 4.0"
    SPARECORES_LSCPU = (
        "sparecores_lscpu",
        "the machine itself (Spare Cores' inspector: lscpu, PassMark's system information)",
    )
    PRICE_LIST = "price_list", "AWS price list attributes"

    @classmethod
    def rank(cls, key: str | None) -> int:
        """0 for the best source; a value of no known source ranks below every source."""
        return _SOURCE_RANK.get(key, len(_SOURCE_RANK))


# Each source's rank, 0 the best: `rank` is called for every field of every type an import
# writes, and TextChoices.values builds its list anew each time it is read.
_SOURCE_RANK = {value: index for index, value in enumerate(SpecSource.values)}


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
    cpu_model = models.CharField(
        max_length=200, blank=True, help_text="e.g. 'Intel Xeon Platinum 8488C', 'AWS Graviton3'"
    )
    gpu_count = models.PositiveSmallIntegerField(null=True, blank=True)
    network_gbps = models.DecimalField(
        max_digits=9,
        decimal_places=3,
        null=True,
        blank=True,
        help_text="Network bandwidth in Gbit/s (Spare Cores: the baseline of 'up to' types).",
    )
    # Blank while unknown; kept consistent with `burstable` and `baseline_share` by
    # services/prices/spec_sources.py, the one writer of specifications.
    cpu_allocation = models.CharField(max_length=16, choices=CpuAllocation.choices, blank=True)
    burstable = models.BooleanField(default=False)
    baseline_share = models.DecimalField(
        max_digits=5,
        decimal_places=4,
        null=True,
        blank=True,
        help_text="Sustained share of each vCPU a burstable type may use (t4g.nano: 0.05).",
    )
    cpu_credits_per_hour = models.DecimalField(
        max_digits=7,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="CPU credits a burstable type earns per hour (t2.2xlarge: 81.6).",
    )
    # AWS's own words for the bandwidth ("Up to 25 Gigabit", "100 Gigabit"): the price
    # list's `networkPerformance`, or describe_instance_types' NetworkPerformance.
    network_performance = models.CharField(max_length=64, blank=True, default="")
    source = models.TextField(blank=True, help_text="Where the specifications come from.")
    # For each specification field, the key of the source its value came from
    # (services/prices/spec_sources.py SOURCES): a weaker source never replaces a better one.
    spec_sources = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def family(self) -> str:
        """'c7g' for c7g.xlarge, 'fargate' for a Fargate task size."""
        return family_of(self.kind, self.name)

    @property
    def specs_source(self) -> str:
        """The sources of its specifications, best first ("AWS describe_instance_types; AWS
        documentation"); empty while none is recorded."""
        used = set(self.spec_sources.values()) if self.spec_sources else set()
        return "; ".join(label for key, label in SpecSource.choices if key in used)


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
        return format(Decimal(number).normalize(), "f")

    suffix = "-arm64" if architecture == Architecture.ARM64 else ""
    return f"fargate-{plain(vcpus)}vcpu-{plain(memory_gib)}gb{suffix}"
