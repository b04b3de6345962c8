"""Where things run: each vendor's regions, and the instance types (and Fargate task sizes)
one rents there."""

from __future__ import annotations

import re
from decimal import Decimal

from django.db import models
from django.db.models import Q


class Vendor(models.TextChoices):
    """The clouds whose types and prices are kept, by Spare Cores' ids. AWS is the default
    of every question, command and URL that names none."""

    AWS = "aws", "Amazon Web Services"
    AZURE = "azure", "Microsoft Azure"
    GCP = "gcp", "Google Cloud"
    HCLOUD = "hcloud", "Hetzner Cloud"
    # Measured by Spare Cores, with no price importer yet: their types are listed unpriced.
    UPCLOUD = "upcloud", "UpCloud"
    VULTR = "vultr", "Vultr"
    ALICLOUD = "alicloud", "Alibaba Cloud"
    OVH = "ovh", "OVHcloud"


def qualified_name(vendor: str, name: str) -> str:
    """How an instance type is named where a name could be two vendors': AWS's bare
    (`c7g.large`: a bare name is AWS's when AWS has it), another cloud's `vendor:name`
    (`hcloud:cax11`); selectors/answer/lookups.vendor_and_name reads it back."""
    return name if vendor == Vendor.AWS else f"{vendor}:{name}"


class Region(models.Model):
    """A vendor's region (AWS: with the location name the Price List API uses for it)."""

    vendor = models.CharField(max_length=16, choices=Vendor.choices, default=Vendor.AWS)
    # Unique within its vendor (`region_once_per_vendor`).
    code = models.CharField(max_length=32, db_index=True)
    name = models.CharField(max_length=100)
    pricing_location = models.CharField(
        max_length=100, blank=True, help_text="The Price List API's `location` attribute."
    )
    # Bumped by every write of this region's prices, rates or of instance specifications:
    # answers priced here are fresh while it is older than their Last-Modified.
    prices_updated_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["code"]
        constraints = [
            models.UniqueConstraint(fields=["vendor", "code"], name="region_once_per_vendor"),
        ]

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
    # Another cloud's own pages: Azure's B-series baselines, Google's shared-core fractions.
    VENDOR_DOCUMENTATION = "vendor_documentation", "the vendor's documentation"
    SPARECORES = "sparecores", "Spare Cores (sparecores.com), CC BY-SA 4.0"
    SPARECORES_LSCPU = (
        "sparecores_lscpu",
        "the machine itself (Spare Cores' inspector: lscpu, PassMark's system information)",
    )
    # A size named like a known one by the vendor's naming conventions (Azure's constrained
    # vCPUs, Basic tier, additive features), taking that one's figures.
    VENDOR_NAMING = "vendor_naming", "the vendor's naming conventions for its sizes"
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
        VM = "vm", "Virtual machine of another cloud"

    vendor = models.CharField(max_length=16, choices=Vendor.choices, default=Vendor.AWS)
    # The vendor's own name (c7g.large, Standard_D2ps_v6, n2-standard-2, cax11): unique within
    # its vendor (`instance_type_once_per_vendor`).
    name = models.CharField(max_length=64, db_index=True)
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
    gpu_fraction = models.CharField(
        max_length=8,
        blank=True,
        help_text="The part of one GPU a size gets, as its vendor publishes it ('1/6', with "
        "gpu_count 1); blank for whole GPUs.",
    )
    gpu_model = models.CharField(max_length=120, blank=True, help_text="e.g. 'A100', 'L4'")
    gpu_memory_gib = models.DecimalField(
        max_digits=9,
        decimal_places=3,
        null=True,
        blank=True,
        help_text="The GPUs' memory together, in GiB (Spare Cores' gpu_memory_total).",
    )
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
        constraints = [
            models.UniqueConstraint(
                fields=["vendor", "name"], name="instance_type_once_per_vendor"
            ),
        ]
        indexes = [
            # A question's statistics are joined to its vendor's types from here alone, not
            # from the table's wide rows (kept_series.read_by_key; docs/performance.md).
            # The id is a non-key column on PostgreSQL; SQLite keeps a row's id in every index.
            models.Index(
                fields=["vendor", "name"], include=["id"], name="instance_type_vendor_ids"
            ),
        ]

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


def machine_kind(vendor: str) -> str:
    """The kind of a vendor's virtual machines: AWS's are EC2 instances, another cloud's
    `vm` (Fargate and DB instance classes are AWS's own kinds, never a vendor's default)."""
    return InstanceType.Kind.EC2 if vendor == Vendor.AWS else InstanceType.Kind.VM


def family_of(kind: str, name: str) -> str:
    """The family an instance type is compared by: `c7g` for c7g.xlarge, `fargate` for tasks,
    `db.r3` for the DB instance class db.r3.large; another cloud's as `vm_family` says."""
    if kind == InstanceType.Kind.DATABASE:
        return ".".join(name.split(".", 2)[:2])
    if kind == InstanceType.Kind.VM:
        return vm_family(name)
    return "fargate" if kind == InstanceType.Kind.FARGATE else name.split(".", 1)[0]


def in_family(family: str) -> Q:
    """Instance types of a family, as a query (the inverse of `family_of`)."""
    if family == "fargate":
        return Q(kind=InstanceType.Kind.FARGATE)
    if family.startswith("db."):
        return Q(kind=InstanceType.Kind.DATABASE, name__startswith=f"{family}.")
    ec2 = Q(kind=InstanceType.Kind.EC2, name__startswith=f"{family}.")
    pattern = vm_family_pattern(family)
    return ec2 | Q(kind=InstanceType.Kind.VM, name__regex=pattern) if pattern else ec2


# Azure's sizes: Standard_<series><vCPUs>[-<constrained vCPUs>]<features>[_<accelerator>][_v<N>]
# (Standard_D2ps_v6: series D, 2 vCPUs, features ps, version 6).
_AZURE = re.compile(r"^Standard_([A-Z]+)\d+(?:-\d+)?([a-z]*)((?:_[A-Za-z]\w*?)*?)(?:_v(\d+))?$")
_AZURE_FAMILY = re.compile(r"^([A-Z]+)([a-z]*)(?:v(\d+))?$")
_GCP_FAMILY = re.compile(r"^[a-z]\d[a-z]?$")
_HCLOUD = re.compile(r"^([a-z]+)\d+$")


def vm_family(name: str) -> str:
    """Another cloud's family, from the name as the vendor writes it: Azure's series, features
    and version (Dpsv6 for Standard_D2ps_v6, Bsv2 for Standard_B2s_v2, F for Standard_F2),
    Google Cloud's machine series (n2 for n2-standard-2, e2 for e2-micro), Hetzner's letters
    (cax for cax11)."""
    azure = _AZURE.match(name)
    if azure:
        series, features, _accelerator, version = azure.groups()
        return f"{series}{features}{f'v{version}' if version else ''}"
    if name.startswith("Standard_"):
        return name.removeprefix("Standard_")
    if "-" in name:
        return name.split("-", 1)[0]
    hcloud = _HCLOUD.match(name)
    return hcloud.group(1) if hcloud else name


def vm_family_pattern(family: str) -> str | None:
    """A regular expression of the names `vm_family` gives `family`, or None when no other
    cloud's family is written so (every EC2 family: c7g, m5dn, ...)."""
    azure = _AZURE_FAMILY.match(family)
    if azure and family[0].isupper():
        series, features, version = azure.groups()
        end = f"_v{version}" if version else ""
        return rf"^Standard_{series}[0-9]+(-[0-9]+)?{features}(_[A-Za-z][A-Za-z0-9]*)*{end}$"
    if _GCP_FAMILY.match(family):
        return rf"^{family}-"
    if family.isalpha() and family.islower():
        return rf"^{family}[0-9]+$"
    return None


def family_spelling(name: str) -> str:
    """The family `name` asks for, spelt as its vendor writes it: an Azure family as written
    (`Dpsv6`, `F`: a capital, then what `vm_family` gives Azure's sizes), any other in lower
    case (`C7G` is c7g, `Fargate` fargate): AWS's, Google Cloud's and Hetzner's families are."""
    azure = name.lower() != "fargate" and _AZURE_FAMILY.match(name)
    return name if azure else name.lower()


def fargate_name(vcpus: Decimal, memory_gib: Decimal, architecture: str) -> str:
    """`fargate-0.25vcpu-0.5gb`, with `-arm64` for Graviton tasks (docs/formats.md)."""

    def plain(number: Decimal) -> str:
        return format(Decimal(number).normalize(), "f")

    suffix = "-arm64" if architecture == Architecture.ARM64 else ""
    return f"fargate-{plain(vcpus)}vcpu-{plain(memory_gib)}gb{suffix}"
