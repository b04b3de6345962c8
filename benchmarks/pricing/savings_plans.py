"""AWS Savings Plans offer files (one region's file, from the offer index's
`currentSavingsPlanIndexUrl`, then its region index) -> Savings Plans prices of EC2 instance
types and Fargate rates, streamed.

Layout (a region's file):
    {"version", "publicationDate", ["regionCode",]
     "products": [{"sku", "productFamily": "ComputeSavingsPlans" | "EC2InstanceSavingsPlans",
                   "usageType", "attributes": {"purchaseOption", "purchaseTerm", ...}}],
     "terms": {"savingsPlan": [{"sku", "effectiveDate", "leaseContractLength": {"duration"},
                                "rates": [{"discountedServiceCode", "discountedUsageType",
                                           "discountedOperation", "discountedRate": {"price"}}]}]}}

A plan's rate is AWS's effective hourly price of the usage under the plan. What is paid when
the plan is bought is a prepayment of that commitment: all of it (All Upfront), half of it
(Partial Upfront, AWS's minimum), none (No Upfront). pricebench keeps the rate as the effective
hourly price and splits it into those upfront and hourly parts.

Rates that cannot be read (no price, no plan product) or matched (Lambda, dedicated or unused
capacity, other operating systems, an unknown region prefix) are skipped and counted.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import ijson

from benchmarks import per_dollar
from benchmarks.errors import DomainError
from benchmarks.pricing import cut_short
from benchmarks.pricing.products import INSTANCE_TYPE_NAME
from benchmarks.pricing.records import (
    SAVINGS_PLAN,
    FargateRateRecord,
    PriceRecord,
    parse_day,
    parse_usd,
)
from benchmarks.pricing.reserved import PAYMENT_OF_OPTION, TERM_OF_LENGTH

PLAN_OF_FAMILY = {"ComputeSavingsPlans": "compute", "EC2InstanceSavingsPlans": "ec2_instance"}
# What a plan prepays of its commitment, by payment option.
UPFRONT_SHARE = {"no_upfront": Decimal(0), "partial_upfront": Decimal("0.5"), "all_upfront": 1}

# The usage type prefixes of AWS regions, as the Price List writes them (us-east-1 has none,
# or USE1; eu-west-1 is EU in older usage types).
REGION_OF_PREFIX = {
    "": "us-east-1",
    "USE1": "us-east-1",
    "USE2": "us-east-2",
    "USW1": "us-west-1",
    "USW2": "us-west-2",
    "CAN1": "ca-central-1",
    "CAN2": "ca-west-1",
    "SAE1": "sa-east-1",
    "EU": "eu-west-1",
    "EUW1": "eu-west-1",
    "EUW2": "eu-west-2",
    "EUW3": "eu-west-3",
    "EUC1": "eu-central-1",
    "EUC2": "eu-central-2",
    "EUN1": "eu-north-1",
    "EUS1": "eu-south-1",
    "EUS2": "eu-south-2",
    "APN1": "ap-northeast-1",
    "APN2": "ap-northeast-2",
    "APN3": "ap-northeast-3",
    "APS1": "ap-southeast-1",
    "APS2": "ap-southeast-2",
    "APS3": "ap-south-1",
    "APS4": "ap-southeast-3",
    "APS5": "ap-south-2",
    "APS6": "ap-southeast-4",
    "APE1": "ap-east-1",
    "MES1": "me-south-1",
    "MEC1": "me-central-1",
    "AFS1": "af-south-1",
    "ILC1": "il-central-1",
}
# BoxUsage: shared tenancy. Dedicated and unused (reserved capacity) usage are other prices.
EC2_USAGE = re.compile(r"^(?:(?P<prefix>[A-Z0-9]+)-)?BoxUsage:(?P<type>[a-z0-9.-]+)$")
FARGATE_USAGE = re.compile(
    r"^(?:(?P<prefix>[A-Z0-9]+)-)?Fargate-(?P<arm>ARM-)?(?P<what>vCPU-Hours:perCPU|GB-Hours)$"
)
# Linux's operation; the fixtures of other projects leave it out ("" or absent).
LINUX_OPERATIONS = ("RunInstances", "", None)


def looks_like(path: Path) -> bool:
    """Whether a JSON file is a Savings Plans offer file: its `products` are a list, or its
    offer code names Savings Plans (an EC2 offer file's products are an object)."""
    try:
        with open(path, "rb") as file:
            for prefix, event, value in ijson.parse(file, buf_size=64 * 1024):
                if prefix == "offerCode" and "SavingsPlan" in str(value):
                    return True
                if prefix == "products":
                    return event == "start_array"
                if prefix and "." not in prefix and event in ("start_map", "start_array"):
                    return False
    except (ijson.JSONError, OSError):
        return False
    return False


@dataclass
class SavingsPlanStats:
    """What a Savings Plans file held: rates read, matched, and skipped (and why)."""

    read: int = 0
    matched: int = 0
    skipped: dict[str, int] = field(default_factory=dict)

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1

    def describe_skipped(self) -> str:
        """For example: 9 rates skipped (5 other services, 2 dedicated or unused capacity)."""
        total = sum(self.skipped.values())
        reasons = ", ".join(f"{count} {why}" for why, count in sorted(self.skipped.items()))
        return f"{total} rates skipped ({reasons})" if total else "no rate skipped"


@dataclass(frozen=True)
class _Plan:
    plan: str
    term: str
    payment: str


class SavingsPlanFile:
    """One region's Savings Plans file on disk: `records()` streamed, `stats` as it goes."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.stats = SavingsPlanStats()
        if not self.path.is_file():
            raise DomainError(f"{self.path}: no such file")
        self.header = self._header()
        # Rates are read as they come: a download cut short is refused before any is.
        if (cut_at := cut_short.json_cut_at(self.path)) is not None:
            raise DomainError(cut_short.json_cut_message(self.path.name, cut_at))
        version = self.header.get("version", "?")
        published = self.header.get("publicationDate", "?")[:10]
        self.source = (
            f"AWS Savings Plans offer file version {version}, published {published} "
            f"({self.path.name})"
        )

    def _header(self) -> dict[str, str]:
        header = {}
        with open(self.path, "rb") as file:
            try:
                for prefix, event, value in ijson.parse(file):
                    if event in ("start_map", "start_array") and prefix:
                        break
                    if prefix and "." not in prefix:
                        header[prefix] = str(value)
            except ijson.JSONError as error:
                if "premature EOF" in str(error):
                    size = self.path.stat().st_size
                    raise DomainError(cut_short.json_cut_message(self.path.name, size)) from None
                raise DomainError(f"{self.path.name}: not valid JSON: {error}") from None
        return header

    def records(self) -> Iterator[PriceRecord | FargateRateRecord]:
        """The Savings Plans prices of Linux EC2 instance types and Fargate rates."""
        plans = self._plans()
        for sku, start, rate in self._rates():
            self.stats.read += 1
            plan = plans.get(sku)
            if plan is None:
                self.stats.skip("rates of no plan product known")
                continue
            where = f"{self.path.name}: plan {sku}"
            start = start or self.header.get("publicationDate")
            if not start:
                raise DomainError(f"{where}: no effectiveDate, and the file no publicationDate")
            record = self._record(rate, plan, parse_day(start, where=where))
            if record is not None:
                self.stats.matched += 1
                yield record

    def _rates(self) -> Iterator[tuple[str | None, str | None, dict]]:
        """(plan SKU, its effectiveDate, rate) for every rate, one rate in memory at a time:
        a plan of a big region has tens of thousands of rates."""
        term, rates = "terms.savingsPlan.item", "terms.savingsPlan.item.rates.item"
        sku = start = builder = None
        waiting: list[dict] = []  # rates read before their plan's SKU (keys in another order)
        with open(self.path, "rb") as file:
            try:
                for prefix, event, value in ijson.parse(file, buf_size=256 * 1024):
                    if builder is not None:
                        builder.event(event, value)
                        if prefix == rates and event == "end_map":
                            if sku is None:
                                waiting.append(builder.value)
                            else:
                                yield sku, start, builder.value
                            builder = None
                    elif prefix == rates and event == "start_map":
                        builder = ijson.ObjectBuilder()
                        builder.event(event, value)
                    elif prefix == f"{term}.sku":
                        sku = value
                    elif prefix == f"{term}.effectiveDate":
                        start = value
                    elif prefix == term and event == "end_map":
                        yield from ((sku, start, rate) for rate in waiting)
                        sku = start = None
                        waiting = []
            except ijson.JSONError as error:
                raise DomainError(f"{self.path.name}: not valid JSON: {error}") from None

    def _plans(self) -> dict[str, _Plan]:
        plans = {}
        for product in self._items("products.item"):
            attributes = product.get("attributes") or {}
            plan = PLAN_OF_FAMILY.get(product.get("productFamily") or "")
            term = TERM_OF_LENGTH.get("".join(str(attributes.get("purchaseTerm", "")).split()))
            payment = PAYMENT_OF_OPTION.get(
                "".join(str(attributes.get("purchaseOption", "")).split()).lower()
            )
            if plan and term and payment and product.get("sku"):
                plans[product["sku"]] = _Plan(plan, term, payment)
        return plans

    def _items(self, prefix: str) -> Iterator[dict]:
        with open(self.path, "rb") as file:
            try:
                yield from ijson.items(file, prefix, use_float=False, buf_size=256 * 1024)
            except ijson.JSONError as error:
                raise DomainError(f"{self.path.name}: not valid JSON: {error}") from None

    def _record(
        self, rate: dict, plan: _Plan, day: datetime.date
    ) -> PriceRecord | FargateRateRecord | None:
        usd = (rate.get("discountedRate") or {}).get("price")
        currency = (rate.get("discountedRate") or {}).get("currency") or "USD"
        if usd is None or currency != "USD":
            self.stats.skip("without a USD price")
            return None
        try:
            price = parse_usd(usd, where="rate")
        except DomainError:
            self.stats.skip("without a USD price")
            return None
        if price == 0:
            self.stats.skip("without a USD price")
            return None
        service, usage = rate.get("discountedServiceCode"), rate.get("discountedUsageType") or ""
        if service == "AmazonEC2":
            return self._ec2(usage, rate.get("discountedOperation"), price, plan, day)
        if service == "AmazonECS":
            return self._fargate(usage, price, plan, day)
        self.stats.skip("of other services")
        return None

    def _region(self, prefix: str | None) -> str | None:
        region = REGION_OF_PREFIX.get(prefix or "")
        if region is None:
            self.stats.skip("of a region prefix pricebench does not know")
        return region

    def _ec2(self, usage: str, operation, price, plan: _Plan, day) -> PriceRecord | None:
        found = EC2_USAGE.match(usage)
        if found is None or not INSTANCE_TYPE_NAME.match(found["type"]):
            self.stats.skip("of dedicated or unused capacity, or other EC2 usage")
            return None
        if operation not in LINUX_OPERATIONS:
            self.stats.skip("of other operating systems")
            return None
        region = self._region(found["prefix"])
        if region is None:
            return None
        hours = per_dollar.term_hours(plan.term)
        share = UPFRONT_SHARE[plan.payment]
        return PriceRecord(
            instance_type=found["type"],
            region=region,
            purchase_option=SAVINGS_PLAN,
            usd_per_hour=price,
            effective_from=day,
            source=self.source,
            term=plan.term,
            payment=plan.payment,
            plan=plan.plan,
            upfront_usd=price * hours * share,
            hourly_usd=price * (1 - share),
        )

    def _fargate(self, usage: str, price, plan: _Plan, day) -> FargateRateRecord | None:
        found = FARGATE_USAGE.match(usage)
        if found is None:
            self.stats.skip("of other Fargate usage (Windows, storage)")
            return None
        region = self._region(found["prefix"])
        if region is None:
            return None
        return FargateRateRecord(
            region=region,
            architecture="arm64" if found["arm"] else "x86_64",
            component="vcpu" if found["what"].startswith("vCPU") else "memory_gb",
            usd_per_unit_hour=price,
            effective_from=day,
            source=self.source,
            purchase_option=SAVINGS_PLAN,
            term=plan.term,
            payment=plan.payment,
            plan=plan.plan,
        )
