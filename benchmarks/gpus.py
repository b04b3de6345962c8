"""The GPUs of Azure's GPU sizes as Microsoft publishes them: pure data, like burstable.py.

Spare Cores' server table names the GPU of 4 of Azure's 73 GPU sizes; for the rest it gives a
count only (1 for a part of one GPU). Microsoft Learn's size pages give, per series, the GPU
("Host specifications", row "Accelerators") and, per size, the GPUs or the part of one and
their memory (tab "Accelerators": "Accelerators (Qty.)", "Accelerator-Memory (GB)"). Those
figures are kept here as published, page by page (each series' `page`, and the stored copy
read: `copy`, the MicrosoftDocs repository and commit); they rank above Spare Cores' table
(SpecSource "vendor documentation").

A part of one GPU is kept as the page writes it (`fraction` "1/6": Standard_NV6ads_A10_v5 is
a sixth of an A10 with 4 GB of its 24), with `count` 1: the VM sees one (partial) GPU. The
memory is the page's figure for the whole VM, in GB as the page labels it (the GPUs' own
GB: an A100 80GB has 81,920 MiB), stored as GiB like Spare Cores' figure it replaces.

Two pages' figures are not taken as printed: the NDm_A100_v4 page's Accelerators tab gives
80 GB for Standard_ND96amsr_A100_v4, its host specifications 8 GPUs of 80 GB, so 640 here;
the NV page (Tesla M60) counts M60 boards, two GPUs of 8 GB each (Standard_NV6: 1/2, 8 GB),
kept as printed.

The NC_RTXPRO6000BSE_v6 sizes are not in Spare Cores' table; the demo has two of them from
Azure's prices. Sizes no stored page lists keep Spare Cores' count without a model
(docs/clouds.md): the NCads_A10_v4 series, Standard_ND40s_v3, Standard_ND96is_H100_v5,
Standard_ND96is_MI300X_v5, Standard_NV28ads_V710_v5, and the NVadsA10_v5 sizes NV4ads,
NV10ads, NV20ads, NV20adms, NV30ads, NV30adms and NV40ads.

Microsoft Learn's documentation text is licensed CC BY 4.0 (github.com/MicrosoftDocs,
LICENSE); the figures are facts taken from it.

No Django here: spec_sources and the tests read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

LEARN = "https://learn.microsoft.com/azure/virtual-machines/"
GPU_PAGES = f"{LEARN}sizes/gpu-accelerated/"
LICENCE = "Microsoft Learn documentation, CC BY 4.0"
DOCS = "MicrosoftDocs/azure-docs"
COMPUTE_DOCS = "MicrosoftDocs/azure-compute-docs"


@dataclass(frozen=True)
class GpuSpec:
    """One size's GPUs as its series' page publishes them."""

    name: str
    series: str
    model: str  # as Spare Cores names GPUs: `A10`, `MI300X`
    count: int  # GPUs the VM sees: 1 for a part of one
    fraction: str  # the part of one GPU as published (`1/6`), blank for whole GPUs
    memory_gib: Decimal | None  # the VM's GPU memory as published, None where not given
    source: str  # the full provenance, with licence


@dataclass(frozen=True)
class _Series:
    series: str
    model: str
    page: str  # its address under GPU_PAGES (the previous generations' page: under LEARN)
    copy: str  # the stored copy read: its repository and commit
    # size (after Standard_), Accelerators (Qty.), Accelerator-Memory (GB)
    sizes: tuple[tuple[str, str, str], ...]


_SERIES = (
    _Series("NC", "K80", "nc-series", f"{DOCS}@dd6af428", (
        ("NC6", "1", "12"), ("NC12", "2", "24"), ("NC24", "4", "48"), ("NC24r", "4", "48"),
    )),
    _Series("NCv2", "P100", "ncv2-series", f"{DOCS}@419ee46b", (
        ("NC6s_v2", "1", "16"), ("NC12s_v2", "2", "32"), ("NC24s_v2", "4", "64"),
        ("NC24rs_v2", "4", "64"),
    )),
    _Series("NCv3", "V100", "ncv3-series", f"{DOCS}@882af9a1", (
        ("NC6s_v3", "1", "16"), ("NC12s_v3", "2", "32"), ("NC24s_v3", "4", "64"),
        ("NC24rs_v3", "4", "64"),
    )),
    _Series("NCasT4_v3", "T4", "ncast4v3-series", f"{DOCS}@dcab08d7", (
        ("NC4as_T4_v3", "1", "16"), ("NC8as_T4_v3", "1", "16"), ("NC16as_T4_v3", "1", "16"),
        ("NC64as_T4_v3", "4", "64"),
    )),
    _Series("NC_A100_v4", "A100", "nca100v4-series", f"{DOCS}@dcab08d7", (
        ("NC24ads_A100_v4", "1", "80"), ("NC48ads_A100_v4", "2", "160"),
        ("NC96ads_A100_v4", "4", "320"),
    )),
    _Series("NCads_H100_v5", "H100", "ncadsh100v5-series", f"{DOCS}@02affc86", (
        ("NC40ads_H100_v5", "1", "94"), ("NC80adis_H100_v5", "2", "188"),
    )),
    _Series("NC_RTXPRO6000BSE_v6", "RTX Pro 6000", "nc-rtxpro6000-bse-v6-series",
            f"{COMPUTE_DOCS}@02773904", (
        ("NC128ds_xl_RTXPRO6000BSE_v6", "1", "96"), ("NC256ds_xl_RTXPRO6000BSE_v6", "2", "192"),
        ("NC320ds_xl_RTXPRO6000BSE_v6", "2", "192"), ("NC128lds_xl_RTXPRO6000BSE_v6", "1", "96"),
        ("NC256lds_xl_RTXPRO6000BSE_v6", "2", "192"), ("NC320lds_xl_RTXPRO6000BSE_v6", "2", "192"),
    )),
    _Series("ND", "P40", "nd-series", f"{DOCS}@8c2d0081", (
        ("ND6s", "1", "24"), ("ND12s", "2", "48"), ("ND24s", "4", "96"), ("ND24rs", "4", "96"),
    )),
    _Series("NDv2", "V100", "ndv2-series", f"{DOCS}@45356a18", (
        ("ND40rs_v2", "8", "256"),
    )),
    _Series("NDasrA100_v4", "A100", "ndasra100v4-series", f"{DOCS}@0f88f753", (
        ("ND96asr_v4", "8", "320"),
    )),
    # The Accelerators tab prints 80; the host specifications 8 GPUs of 80 GB.
    _Series("NDm_A100_v4", "A100", "ndma100v4-series", f"{DOCS}@dcab08d7", (
        ("ND96amsr_A100_v4", "8", "640"),
    )),
    _Series("ND_H100_v5", "H100", "ndh100v5-series", f"{DOCS}@aadaee5d", (
        ("ND96isr_H100_v5", "8", "640"),
    )),
    _Series("ND_MI300X_v5", "MI300X", "ndmi300xv5-series", f"{DOCS}@c44ec31e", (
        ("ND96isr_MI300X_v5", "8", "1535"),
    )),
    _Series("ND_H200_v5", "H200", "nd-h200-v5-series", f"{COMPUTE_DOCS}@3b74475c", (
        ("ND96isr_H200_v5", "8", "1128"),
    )),
    _Series("NGads_V620", "V620", "ngadsv620-series", f"{COMPUTE_DOCS}@2bc777fd", (
        ("NG8ads_V620_v1", "1/4", "8"), ("NG16ads_V620_v1", "1/2", "16"),
        ("NG32ads_V620_v1", "1", "32"), ("NG32adms_V620_v1", "1", "32"),
    )),
    # Counts M60 boards (two GPUs of 8 GB each).
    _Series("NV", "M60", "nv-series", f"{DOCS}@cf7204c5", (
        ("NV6", "1/2", "8"), ("NV12", "1", "16"), ("NV24", "2", "32"),
    )),
    _Series("NVv2", "M60", "sizes-previous-gen",
            f"{DOCS}, its previous-generation sizes include of 2019-05-16", (
        ("NV6s_v2", "1", "8"), ("NV12s_v2", "2", "16"), ("NV24s_v2", "4", "32"),
    )),
    _Series("NVv3", "M60", "nvv3-series", f"{DOCS}@83f6233e", (
        ("NV12s_v3", "1", "8"), ("NV24s_v3", "2", "16"), ("NV48s_v3", "4", "32"),
    )),
    _Series("NVv4", "MI25", "nvv4-series", f"{DOCS}@2b6a2915", (
        ("NV4as_v4", "1/8", "2"), ("NV8as_v4", "1/4", "4"), ("NV16as_v4", "1/2", "8"),
        ("NV32as_v4", "1", "16"),
    )),
    _Series("NVadsA10_v5", "A10", "nvadsa10v5-series", f"{COMPUTE_DOCS}@2bc777fd", (
        ("NV6ads_A10_v5", "1/6", "4"), ("NV12ads_A10_v5", "1/3", "8"),
        ("NV18ads_A10_v5", "1/2", "12"), ("NV36ads_A10_v5", "1", "24"),
        ("NV36adms_A10_v5", "1", "24"), ("NV72ads_A10_v5", "2", "48"),
    )),
    _Series("NVads_V710_v5", "V710", "nvadsv710-v5-series", f"{COMPUTE_DOCS}@0f864c9f", (
        ("NV4ads_V710_v5", "1/6", "4"), ("NV8ads_V710_v5", "1/3", "8"),
        ("NV12ads_V710_v5", "1/2", "12"), ("NV24ads_V710_v5", "1", "24"),
        ("NV28adms_V710_v5", "1", "24"),
    )),
)  # fmt: skip


def _source(series: _Series) -> str:
    base = LEARN if series.page.startswith("sizes-") else GPU_PAGES
    return (
        f"Microsoft Learn, {series.series}-series sizes ({base}{series.page}; read from "
        f"{series.copy}): GPUs and GPU memory per size; {LICENCE}"
    )


def _spec(series: _Series, size: str, quantity: str, memory: str) -> GpuSpec:
    fraction = quantity if "/" in quantity else ""
    return GpuSpec(
        name=f"Standard_{size}",
        series=series.series,
        model=series.model,
        count=1 if fraction else int(quantity),
        fraction=fraction,
        memory_gib=Decimal(memory) if memory else None,
        source=_source(series),
    )


AZURE_GPU_TYPES: dict[str, GpuSpec] = {
    spec.name: spec
    for series in _SERIES
    for spec in (_spec(series, *size) for size in series.sizes)
}


def gpu_spec(name: str, vendor: str = "azure") -> GpuSpec | None:
    """The vendor's published GPUs of a size (`Standard_NV6ads_A10_v5` of azure: 1/6 of an
    A10, 4 GB), or None for a size no stored page lists and any other vendor's type."""
    return AZURE_GPU_TYPES.get(name) if vendor == "azure" else None
