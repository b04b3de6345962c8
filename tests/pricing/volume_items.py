"""EBS Price List items for tests, built on the real m5.large item's schema.

../shared/data holds no EBS item, so these are made from the real AmazonEC2 item
(GetProducts_item_AmazonEC2_m5.large_us-east-1_2021.json): the same keys and nesting
(product.productFamily, product.attributes, product.sku, serviceCode, terms.OnDemand.<term>.
priceDimensions.<rate code> with unit, beginRange, endRange, pricePerUnit.USD, version,
publicationDate), with the product family, attributes and units AWS gives EBS volumes
("Storage" per "GB-Mo", "System Operation" per "IOPS-Mo", gp3 throughput as "Provisioned
Throughput" per "GiBps-mo"). EBS products have no reserved terms.

Prices: Tokyo's are study S4's (June 2014); us-east-1's are AWS's published EBS prices, used
here only as figures for the readers to read.
"""

from __future__ import annotations

import copy

LOCATIONS = {"us-east-1": "US East (N. Virginia)", "ap-northeast-1": "Asia Pacific (Tokyo)"}
USAGE_PREFIX = {"us-east-1": "", "ap-northeast-1": "APN1-"}
TERM_CODE = "JRTCKXETXF"
RATE_CODE = "6YS6EN2CT7"


def volume_item(
    m5_item: dict,
    *,
    sku: str,
    family: str,
    usage: str,
    volume_api_name: str | None,
    usd: str,
    unit: str,
    region: str = "us-east-1",
    effective: str = "2021-02-01T00:00:00Z",
    free_up_to: str | None = None,
    region_code: bool = True,
    **attributes: str,
) -> dict:
    """An EBS item shaped like the real m5.large item.

    `free_up_to`: the price starts above an allowance (gp3 IOPS: a free 0-3000 dimension, then
    the priced one from 3000).
    """
    item = copy.deepcopy(m5_item)
    item["terms"].pop("Reserved")
    product = item["product"]
    product["sku"] = sku
    product["productFamily"] = family
    product["attributes"] = {
        "servicecode": "AmazonEC2",
        "servicename": "Amazon Elastic Compute Cloud",
        "location": LOCATIONS[region],
        "locationType": "AWS Region",
        "usagetype": USAGE_PREFIX[region] + usage,
        "operation": "",
        **({"regionCode": region} if region_code else {}),
        **({"volumeApiName": volume_api_name} if volume_api_name else {}),
        **attributes,
    }
    ((_, term),) = item["terms"]["OnDemand"].items()
    ((_, dimension),) = term["priceDimensions"].items()
    term["sku"] = sku
    term["effectiveDate"] = effective
    dimension.update(
        unit=unit,
        description=f"${usd} per {unit} of {usage} - {LOCATIONS[region]}",
        pricePerUnit={"USD": usd},
        rateCode=f"{sku}.{TERM_CODE}.{RATE_CODE}",
        beginRange=free_up_to or "0",
        endRange="Inf",
    )
    dimensions = {dimension["rateCode"]: dimension}
    if free_up_to:
        free = dict(
            dimension,
            rateCode=f"{sku}.{TERM_CODE}.FREE",
            description=f"$0.00 for the first {free_up_to} of {usage}",
            pricePerUnit={"USD": "0.0000000000"},
            beginRange="0",
            endRange=free_up_to,
        )
        dimensions = {free["rateCode"]: free, **dimensions}
    term["priceDimensions"] = dimensions
    item["terms"]["OnDemand"] = {f"{sku}.{TERM_CODE}": term}
    return item


def storage_item(m5_item, volume_type, usd, *, sku=None, region="us-east-1", **extra) -> dict:
    """A volume type's per GB-month storage price (product family "Storage")."""
    suffix = "piops" if volume_type == "io1" else volume_type
    return volume_item(
        m5_item,
        sku=sku or f"STORAGE{volume_type.upper()}{region.upper()}",
        family="Storage",
        usage=f"EBS:VolumeUsage.{suffix}",
        volume_api_name=volume_type,
        usd=usd,
        unit="GB-month" if volume_type == "io2" else "GB-Mo",
        region=region,
        storageMedia="HDD-backed" if volume_type in ("st1", "sc1") else "SSD-backed",
        **extra,
    )


def iops_item(m5_item, usage_suffix, usd, *, volume_type, sku=None, region="us-east-1", **extra):
    """A provisioned IOPS-month price (product family "System Operation")."""
    return volume_item(
        m5_item,
        sku=sku or f"IOPS{usage_suffix.upper().replace('.', '')}{region.upper()}",
        family="System Operation",
        usage=f"EBS:VolumeP-IOPS.{usage_suffix}",
        volume_api_name=volume_type,
        usd=usd,
        unit="IOPS-Mo",
        region=region,
        group="EBS IOPS",
        groupDescription="IOPS",
        provisioned="Yes",
        **extra,
    )


def us_east_1_items(m5_item) -> list[dict]:
    """Every EBS rate of us-east-1 that pricebench keeps (12), as AWS publishes them."""
    items = [
        storage_item(m5_item, "gp2", "0.1000000000"),
        storage_item(m5_item, "gp3", "0.0800000000"),
        storage_item(m5_item, "io1", "0.1250000000"),
        storage_item(m5_item, "io2", "0.1250000000"),
        storage_item(m5_item, "st1", "0.0450000000"),
        storage_item(m5_item, "sc1", "0.0150000000"),
        iops_item(m5_item, "piops", "0.0650000000", volume_type="io1"),
        iops_item(m5_item, "io2", "0.0650000000", volume_type="io2"),
        iops_item(m5_item, "io2.tier2", "0.0455000000", volume_type="io2"),
        iops_item(m5_item, "io2.tier3", "0.0320000000", volume_type="io2"),
        iops_item(m5_item, "gp3", "0.0050000000", volume_type="gp3", free_up_to="3000"),
        volume_item(
            m5_item,
            sku="THROUGHPUTGP3USEAST1",
            family="Provisioned Throughput",
            usage="EBS:VolumeP-Throughput.gp3",
            volume_api_name="gp3",
            usd="40.9600000000",
            unit="GiBps-mo",
            group="EBS Throughput",
            groupDescription="Throughput",
            provisioned="Yes",
        ),
    ]
    return items


def _in_local_zone(item: dict) -> None:
    item["product"]["attributes"].update(
        locationType="AWS Local Zone",
        location="US East (Boston)",
        usagetype="USE1-BOS1-EBS:VolumeUsage.gp2",
    )


def decoys(m5_item) -> list[dict]:
    """EBS-like products that are not volume rates pricebench keeps."""
    local_zone = storage_item(m5_item, "gp2", "0.1200000000", sku="DECOYLOCALZONE")
    _in_local_zone(local_zone)
    magnetic = storage_item(m5_item, "gp2", "0.0500000000", sku="DECOYMAGNETIC")
    magnetic["product"]["attributes"].update(usagetype="EBS:VolumeUsage", volumeApiName="standard")
    snapshot = storage_item(m5_item, "gp2", "0.0500000000", sku="DECOYSNAPSHOT")
    snapshot["product"]["productFamily"] = "Storage Snapshot"
    snapshot["product"]["attributes"].update(usagetype="EBS:SnapshotUsage")
    del snapshot["product"]["attributes"]["volumeApiName"]
    return [local_zone, magnetic, snapshot]


def tokyo_2014_items(m5_item) -> list[dict]:
    """Study S4's Tokyo prices as items of June 2014 (older items carry no regionCode)."""
    tokyo = {"region": "ap-northeast-1", "effective": "2014-06-01T00:00:00Z", "region_code": False}
    return [
        storage_item(m5_item, "gp2", "0.1200000000", **tokyo),
        storage_item(m5_item, "io1", "0.1420000000", **tokyo),
        iops_item(m5_item, "piops", "0.0740000000", volume_type="io1", **tokyo),
    ]
