"""EC2 `describe_instance_types` responses -> instance specifications."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal

from benchmarks.errors import DomainError
from benchmarks.pricing.records import InstanceSpecRecord, ReadStats, response_entries

MIB_PER_GIB = Decimal(1024)
GIB_PLACES = Decimal("0.001")


def read_instance_types(
    pages: Iterable[dict], *, source: str, stats: ReadStats | None = None
) -> Iterator[InstanceSpecRecord]:
    """vCPUs, cores, threads per core, memory (MiB -> GiB), architecture, burstable, CPU maker."""
    stats = stats if stats is not None else ReadStats()
    for where, entry in response_entries(
        pages, key="InstanceTypes", operation="describe_instance_types"
    ):
        stats.read += 1
        name = entry.get("InstanceType")
        vcpu_info = entry.get("VCpuInfo") or {}
        memory_mib = (entry.get("MemoryInfo") or {}).get("SizeInMiB")
        if not name or vcpu_info.get("DefaultVCpus") is None or memory_mib is None:
            raise DomainError(f"{where}: needs InstanceType, VCpuInfo and MemoryInfo")
        processor = entry.get("ProcessorInfo") or {}
        stats.matched += 1
        yield InstanceSpecRecord(
            name=name,
            vcpus=int(vcpu_info["DefaultVCpus"]),
            memory_gib=(Decimal(memory_mib) / MIB_PER_GIB).quantize(GIB_PLACES).normalize(),
            architecture=architecture_of(processor.get("SupportedArchitectures") or []),
            physical_cores=vcpu_info.get("DefaultCores"),
            threads_per_core=vcpu_info.get("DefaultThreadsPerCore"),
            burstable=bool(entry.get("BurstablePerformanceSupported")),
            # The API names the maker ("Intel", "AWS") and, for some types, the processor.
            cpu_family=processor.get("Description") or processor.get("Manufacturer") or "",
            network_performance=str(
                (entry.get("NetworkInfo") or {}).get("NetworkPerformance") or ""
            )[:64],
            source=source,
        )


def architecture_of(supported: list[str]) -> str:
    """AWS's architecture list -> "arm64", "x86_64" or "" (t2.nano runs i386 and x86_64)."""
    if any(name.startswith("arm64") for name in supported):
        return "arm64"
    if any(name.startswith("x86_64") for name in supported):
        return "x86_64"
    return ""
