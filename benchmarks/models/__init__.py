"""pricebench's domain: what ran where, what it cost, and what it measured.

One module a subject: `places` (regions, instance types and their families), `prices` (dated
price and rate periods, price refreshes), `results` (benchmarks, runs, results, series and
their statistics), `holds` (results held for review), `nonces` (nonces issued for identity
proofs), `workload` (the workload model's matrix, kept from the statistics). Import from here:
`from benchmarks.models import Price`.
"""

from benchmarks.models.holds import HeldResult, counted_results
from benchmarks.models.nonces import IdentityNonce
from benchmarks.models.places import (
    Architecture,
    CpuAllocation,
    InstanceType,
    Region,
    SpecSource,
    Vendor,
    family_of,
    family_spelling,
    fargate_name,
    in_family,
    machine_kind,
    qualified_name,
    vm_family,
)
from benchmarks.models.prices import (
    COMMITMENT_FIELDS,
    COMMITMENTS,
    AuroraRate,
    DatabasePrice,
    DatedPeriod,
    FargateRate,
    HourlyPrice,
    OfferingClass,
    Payment,
    PeriodQuerySet,
    PeriodWithoutHelpText,
    Plan,
    Price,
    PriceRefresh,
    PurchaseOption,
    Term,
    VolumePrice,
    in_force_on,
    is_in_force,
    starts_once,
)
from benchmarks.models.results import (
    Benchmark,
    BenchmarkCoverage,
    FargateBasis,
    PeerGroup,
    Result,
    Run,
    Series,
    SeriesStatistics,
)
from benchmarks.models.workload import WorkloadMatrix

__all__ = [
    "COMMITMENT_FIELDS",
    "COMMITMENTS",
    "OfferingClass",
    "Payment",
    "Plan",
    "Term",
    "Architecture",
    "CpuAllocation",
    "AuroraRate",
    "Benchmark",
    "BenchmarkCoverage",
    "DatabasePrice",
    "DatedPeriod",
    "FargateBasis",
    "FargateRate",
    "HeldResult",
    "HourlyPrice",
    "IdentityNonce",
    "InstanceType",
    "PeerGroup",
    "PeriodQuerySet",
    "PeriodWithoutHelpText",
    "Price",
    "PriceRefresh",
    "PurchaseOption",
    "Region",
    "Result",
    "Run",
    "Series",
    "SeriesStatistics",
    "SpecSource",
    "Vendor",
    "VolumePrice",
    "WorkloadMatrix",
    "counted_results",
    "family_of",
    "family_spelling",
    "fargate_name",
    "in_family",
    "machine_kind",
    "qualified_name",
    "vm_family",
    "in_force_on",
    "is_in_force",
    "starts_once",
]
