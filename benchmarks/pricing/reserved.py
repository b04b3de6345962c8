"""Reserved Instance terms of the Price List (get_products items and bulk offer files) ->
commitment prices: every term length, payment option and offering class, with the upfront fee
and the hourly fee kept beside the effective hourly price they make.

A Reserved term is priced in up to two dimensions: an "Upfront Fee" (unit `Quantity`, paid
once) and an hourly fee (unit `Hrs`, zero for All Upfront). The JSON forms give a term whole;
the CSV form gives one row per dimension, gathered here by SKU and offer term code.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from benchmarks import per_dollar
from benchmarks.pricing.records import RESERVED, PriceRecord, parse_day, parse_usd

# The models keep eight decimal places.
PRICE_PLACES = Decimal("0.00000001")

# AWS's words, without spaces and in lower case (it has written "3 yr" and "AllUpfront").
TERM_OF_LENGTH = {"1yr": "1y", "3yr": "3y"}
PAYMENT_OF_OPTION = {
    "noupfront": "no_upfront",
    "partialupfront": "partial_upfront",
    "allupfront": "all_upfront",
}
OFFERING_CLASSES = ("standard", "convertible")


def _word(text: object) -> str:
    return "".join(str(text or "").split()).lower()


def commitment_of(attributes: dict) -> tuple[str, str, str] | None:
    """(term, payment, offering class) from a term's `termAttributes` (or a CSV row's
    columns of the same names), None when one is missing or not a word pricebench knows."""
    term = TERM_OF_LENGTH.get(_word(attributes.get("LeaseContractLength")))
    payment = PAYMENT_OF_OPTION.get(_word(attributes.get("PurchaseOption")))
    # Terms from before convertible Reserved Instances (2016) name no class: standard.
    offering_class = _word(attributes.get("OfferingClass")) or "standard"
    if term is None or payment is None or offering_class not in OFFERING_CLASSES:
        return None
    return term, payment, offering_class


@dataclass(slots=True)
class ReservedTerm:
    """One Reserved term of one product, gathered dimension by dimension."""

    term: str
    payment: str
    offering_class: str
    effective_from: datetime.date
    upfront_usd: Decimal | None = None
    hourly_usd: Decimal | None = None
    # A dimension that is neither the upfront fee nor a flat hourly fee (a tier, another unit).
    unreadable: bool = False

    def add(self, *, unit: str, usd: object, begin: object, where: str) -> None:
        """One price dimension of the term."""
        price = parse_usd(usd, where=where)
        unit = _word(unit)
        if unit == "quantity":
            self.upfront_usd = (self.upfront_usd or Decimal(0)) + price
        elif unit in ("hrs", "hours") and str(begin or "0") == "0":
            self.hourly_usd = (self.hourly_usd or Decimal(0)) + price
        else:
            self.unreadable = True

    def record(self, match: tuple, source: str) -> PriceRecord | None:
        """The commitment price of an EC2 match ("ec2", type, region, network), or None when the
        term has no price, a part it should not have, or a dimension it cannot read."""
        upfront = self.upfront_usd or Decimal(0)
        hourly = self.hourly_usd or Decimal(0)
        if self.unreadable or (upfront == 0 and hourly == 0):
            return None
        # No Upfront has no fee to spread; All Upfront has no hourly fee (AWS writes it 0).
        if (self.payment == "no_upfront" and upfront) or (self.payment == "all_upfront" and hourly):
            return None
        effective = per_dollar.effective_hourly(
            upfront_usd=upfront, hourly_usd=hourly, hours=per_dollar.term_hours(self.term)
        )
        _, instance_type, region, network_performance = match
        return PriceRecord(
            instance_type=instance_type,
            region=region,
            purchase_option=RESERVED,
            usd_per_hour=effective.quantize(PRICE_PLACES),
            effective_from=self.effective_from,
            source=source,
            network_performance=network_performance,
            term=self.term,
            payment=self.payment,
            offering_class=self.offering_class,
            upfront_usd=upfront,
            hourly_usd=hourly,
        )


def reserved_records(terms: dict, *, match: tuple, source: str, where: str) -> list[PriceRecord]:
    """The commitment prices of one EC2 product's `Reserved` terms (JSON forms)."""
    records = []
    for code, term in (terms or {}).items():
        if not isinstance(term, dict):
            continue
        commitment = commitment_of(term.get("termAttributes") or {})
        if commitment is None:
            continue
        here = f"{where}, term {code}"
        reserved = ReservedTerm(
            *commitment, effective_from=parse_day(term.get("effectiveDate"), where=here)
        )
        for dimension in (term.get("priceDimensions") or {}).values():
            usd = (dimension.get("pricePerUnit") or {}).get("USD")
            if usd is None:
                reserved.unreadable = True
                continue
            reserved.add(
                unit=dimension.get("unit") or "",
                usd=usd,
                begin=dimension.get("beginRange"),
                where=here,
            )
        record = reserved.record(match, source)
        if record is not None:
            records.append(record)
    return records


class ReservedRows:
    """An offer CSV's Reserved rows, one per price dimension, gathered by SKU and offer term
    code; `records()` once the file is read. Only matching EC2 products' rows are kept."""

    # A Reserved row worth parsing names Linux on shared hardware (a quick look at the bytes).
    WANTED = (b",Shared,", b',"Shared",')
    LINUX = (b",Linux,", b',"Linux",')

    def __init__(self, columns: dict[str, int], *, source: str):
        self.source = source
        self.terms: dict[tuple[str, str], tuple[tuple, ReservedTerm]] = {}
        self.column = {
            name: columns.get(name)
            for name in (
                "SKU",
                "OfferTermCode",
                "LeaseContractLength",
                "PurchaseOption",
                "OfferingClass",
                "EffectiveDate",
                "Unit",
                "PricePerUnit",
                "StartingRange",
            )
        }

    @classmethod
    def may_match(cls, line: bytes) -> bool:
        """Whether a raw Reserved row could be a Linux shared-tenancy price."""
        return any(word in line for word in cls.WANTED) and any(word in line for word in cls.LINUX)

    def _cell(self, row: list[str], name: str) -> str:
        index = self.column[name]
        return row[index] if index is not None else ""

    def add(self, row: list[str], match: tuple, *, where: str) -> None:
        """One Reserved row of a matching EC2 product."""
        commitment = commitment_of({name: self._cell(row, name) for name in COMMITMENT_COLUMNS})
        if commitment is None:
            return
        key = (self._cell(row, "SKU"), self._cell(row, "OfferTermCode"))
        if key not in self.terms:
            day = parse_day(self._cell(row, "EffectiveDate"), where=where)
            self.terms[key] = (match, ReservedTerm(*commitment, effective_from=day))
        self.terms[key][1].add(
            unit=self._cell(row, "Unit"),
            usd=self._cell(row, "PricePerUnit"),
            begin=self._cell(row, "StartingRange"),
            where=where,
        )

    def records(self) -> list[PriceRecord]:
        """The commitment prices of the gathered terms."""
        found = []
        for match, term in self.terms.values():
            record = term.record(match, self.source)
            if record is not None:
                found.append(record)
        return found


COMMITMENT_COLUMNS = ("LeaseContractLength", "PurchaseOption", "OfferingClass")
