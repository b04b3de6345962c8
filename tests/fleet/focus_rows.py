"""FOCUS 1.2 cost and usage rows shaped like the FinOps Foundation's own, for the fleet tests.

Columns and values as FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec defines them
(specification/columns/: skupricedetails.md, pricingcategory.md, consumedquantity.md,
effectivecost.md, listunitprice.md, servicecategory.md) and as AWS's FOCUS export and the
FOCUS-Sample-Data repository fill them: ServiceName "Amazon Elastic Compute Cloud",
ConsumedUnit "Hours", SkuPriceDetails a JSON object with the SKU's properties.
"""

import csv
import io
import json

HEADER = (
    "BilledCost,BillingAccountId,BillingCurrency,BillingPeriodStart,ChargeCategory,ChargeClass,"
    "ChargeDescription,ChargePeriodStart,CommitmentDiscountType,ConsumedQuantity,ConsumedUnit,"
    "EffectiveCost,ListCost,ListUnitPrice,PricingCategory,PricingUnit,ProviderName,RegionId,"
    "ResourceId,ServiceCategory,ServiceName,SkuId,SkuPriceDetails"
).split(",")


def focus_row(
    *,
    instance_type: str | None = "m5.xlarge",
    hours: float = 1.0,
    list_unit_price: float = 0.192,
    effective_cost: float | None = None,
    pricing_category: str = "Standard",
    commitment_type: str = "",
    region: str = "us-east-1",
    service_category: str = "Compute",
    service_name: str = "Amazon Elastic Compute Cloud",
    charge_category: str = "Usage",
    consumed_unit: str = "Hours",
    resource: str = "i-0a1b2c3d4e5f60718",
) -> dict:
    """One row; what was paid defaults to the list price x hours."""
    paid = hours * list_unit_price if effective_cost is None else effective_cost
    details = {"CoreCount": 4, "OperatingSystem": "Linux"}
    if instance_type:
        details["InstanceType"] = instance_type
    return {
        "BilledCost": f"{paid:.10f}",
        "BillingAccountId": "123456789012",
        "BillingCurrency": "USD",
        "BillingPeriodStart": "2026-10-01T00:00:00Z",
        "ChargeCategory": charge_category,
        "ChargeClass": "",
        "ChargeDescription": f"$ per On Demand Linux {instance_type} Instance Hour",
        "ChargePeriodStart": "2026-10-01T00:00:00Z",
        "CommitmentDiscountType": commitment_type,
        "ConsumedQuantity": f"{hours}",
        "ConsumedUnit": consumed_unit,
        "EffectiveCost": f"{paid:.10f}",
        "ListCost": f"{hours * list_unit_price:.10f}",
        "ListUnitPrice": f"{list_unit_price}",
        "PricingCategory": pricing_category,
        "PricingUnit": "Hours",
        "ProviderName": "AWS",
        "RegionId": region,
        "ResourceId": resource,
        "ServiceCategory": service_category,
        "ServiceName": service_name,
        "SkuId": "JRTCKXETXF",
        "SkuPriceDetails": json.dumps(details),
    }


def cloudwatch_row() -> dict:
    """A monitoring row: not compute, never a line."""
    row = focus_row(
        instance_type=None,
        hours=1000,
        list_unit_price=0.0001,
        service_category="Management and Governance",
        service_name="AmazonCloudWatch",
        consumed_unit="Requests",
    )
    row["SkuPriceDetails"] = "{}"
    return row


def focus_csv(rows: list[dict], header: list[str] = HEADER) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def acceptance_rows() -> list[dict]:
    """The issue's acceptance bill: two EC2 types, 48 hours each (one Committed at 70% of
    list), and a CloudWatch row."""
    return [
        *[focus_row(instance_type="m5.xlarge", hours=1, list_unit_price=0.192) for _ in range(48)],
        *[
            focus_row(
                instance_type="c5.xlarge",
                hours=1,
                list_unit_price=0.17,
                effective_cost=0.17 * 0.7,
                pricing_category="Committed",
                commitment_type="Reserved",
            )
            for _ in range(48)
        ],
        cloudwatch_row(),
    ]
