"""AWS bulk offer files (the Price List's downloadable form), streamed; one reader, two formats.

An EC2 offer file is hundreds of MB (several GB for all regions), so nothing here holds a
whole file: JSON is read in three passes with ijson (products, on-demand terms, Reserved
terms), each over its own section, CSV once with the csv module; only the SKUs that match are
remembered between the JSON passes, and only matching Reserved rows until the CSV ends.

JSON layout (AWS writes `products` before `terms`):
    {"formatVersion", "offerCode", "version", "publicationDate",
     "products": {SKU: {"sku", "productFamily", "attributes": {...}}},
     "terms": {"OnDemand": {SKU: {TERM: {"effectiveDate", "priceDimensions": {...}}}},
               "Reserved": {...}}}
CSV layout: five metadata rows ("FormatVersion", "Disclaimer", "Publication Date", "Version",
"OfferCode"), the header row, then one row per SKU, term and price dimension.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import ijson

from benchmarks.errors import DomainError
from benchmarks.pricing import cut_short
from benchmarks.pricing.file_sections import (
    CountingFile,
    JsonSection,
    Progress,
    top_level_key_offset,
)
from benchmarks.pricing.products import (
    EC2,
    ECS,
    RDS,
    ProductMatch,
    dimension_price,
    make_record,
    match_product,
    on_demand_price,
)
from benchmarks.pricing.records import (
    FargateRateRecord,
    PriceRecord,
    ReadStats,
    VolumePriceRecord,
    parse_day,
)
from benchmarks.pricing.reserved import ReservedRows, reserved_records

# A JSON file is read in passes, each over its own section of the file (Progress reports them).

PRICING_HOST = "https://pricing.us-east-1.amazonaws.com"
READ_BLOCK = 256 * 1024
CSV_METADATA_ROWS = 5

# CSV column -> the attribute name the JSON form and the Price List API use.
CSV_ATTRIBUTES = {
    "Operating System": "operatingSystem",
    "Tenancy": "tenancy",
    "Pre Installed S/W": "preInstalledSw",
    "CapacityStatus": "capacitystatus",
    "MarketOption": "marketoption",
    "Instance Type": "instanceType",
    "Region Code": "regionCode",
    "Location": "location",
    "Location Type": "locationType",
    "usageType": "usagetype",
    "Volume API Name": "volumeApiName",
    "Network Performance": "networkPerformance",
    "Database Engine": "databaseEngine",
    "Deployment Option": "deploymentOption",
    "Deployment Model": "deploymentModel",
    "License Model": "licenseModel",
    "Database Edition": "databaseEdition",
}
PriceRecords = Iterator[PriceRecord | FargateRateRecord | VolumePriceRecord]


# How each format names the offer code, the version and the publication date.
INFO_NAMES = {
    "json": ("offerCode", "version", "publicationDate"),
    "csv": ("OfferCode", "Version", "Publication Date"),
}


@dataclass(frozen=True)
class OfferFileInfo:
    """What an offer file says about itself."""

    offer_code: str
    version: str
    publication_date: str
    format: str  # "json" or "csv"
    filename: str
    # JSON only: `products` is the first section, as AWS writes it.
    products_first: bool = False

    @classmethod
    def said(cls, said: dict[str, str], *, file_format: str, **more) -> OfferFileInfo:
        """The info a file's header (JSON) or metadata rows (CSV) say, by INFO_NAMES."""
        names = INFO_NAMES[file_format]
        offer_code, version, publication_date = (said.get(name, "") for name in names)
        return cls(
            offer_code=offer_code,
            version=version,
            publication_date=publication_date,
            format=file_format,
            **more,
        )

    @property
    def source(self) -> str:
        """The source every price read from this file keeps."""
        return (
            f"AWS bulk offer file {self.offer_code} version {self.version or '?'}, "
            f"published {self.publication_date[:10] or '?'} ({self.filename})"
        )


class OfferFile:
    """One offer file on disk: `info` from its first bytes, `records()` streamed."""

    def __init__(self, path: Path | str, *, progress: Progress | None = None):
        self.path = Path(path)
        self.progress = progress
        self.stats = ReadStats()
        if not self.path.is_file():
            raise DomainError(f"{self.path}: no such file")
        self.format = _sniff_format(self.path)
        self.info = _json_info(self.path) if self.format == "json" else _csv_info(self.path)
        if self.info.offer_code not in (EC2, ECS, RDS):
            raise DomainError(
                f"{self.path.name}: an offer file for {self.info.offer_code or 'an unknown offer'};"
                f" pricebench reads {EC2} (instance prices), {ECS} (Fargate rates) and {RDS} "
                "(DB instance prices, Aurora rates)"
            )

    def records(self) -> PriceRecords:
        """Linux on-demand and Reserved EC2 prices and EBS volume rates, or Fargate rates, as
        the file is read."""
        if self.format == "json":
            return self._json_records()
        return self._csv_records()

    def _json_records(self) -> PriceRecords:
        # Where the terms begin, so that the products pass can stop there and the terms pass
        # start there: on AWS's layout each pass then reads only its own section.
        terms_at = top_level_key_offset(self.path, b'"terms"') if self.info.products_first else None
        matches = None
        if terms_at is not None:
            try:
                matches = self._match_products(end=terms_at)
            except DomainError:
                terms_at = None  # not where the layout puts it: read the whole file instead
        if matches is None:
            matches = self._match_products(end=None)
        if not matches:
            return
        source = self.info.source
        lead = b"{" if terms_at is not None else b""
        # Reserved terms price the same EC2 products, after all the on-demand terms.
        reserved = {sku: match for sku, match in matches.items() if match[0] == "ec2"}
        with JsonSection(self.path, self.progress, "terms", start=terms_at or 0, lead=lead) as file:
            for sku, terms in _json_events(file, "terms.OnDemand", self.path):
                match = matches.pop(sku, None)
                if match is not None:
                    priced = on_demand_price(
                        terms, where=f"{self.path.name}: SKU {sku}", match=match
                    )
                    if priced is not None:
                        self.stats.matched += 1
                        yield make_record(match, *priced, source)
                if not matches:
                    break
        if not reserved:
            return
        with JsonSection(
            self.path, self.progress, "reserved", start=terms_at or 0, lead=lead
        ) as file:
            for sku, terms in _json_events(file, "terms.Reserved", self.path):
                match = reserved.get(sku)
                if match is not None:
                    where = f"{self.path.name}: SKU {sku}"
                    for record in reserved_records(terms, match=match, source=source, where=where):
                        self.stats.matched += 1
                        yield record

    def _match_products(self, *, end: int | None) -> dict[str, ProductMatch]:
        """SKU -> what it is, for the matching products only (a few percent of them)."""
        matches: dict[str, ProductMatch] = {}
        read = 0
        # Cut at the terms, the products still parse on their own when closed like this.
        tail = b'"terms":{}}' if end is not None else b""
        with JsonSection(self.path, self.progress, "products", end=end, tail=tail) as file:
            for sku, product in _json_events(file, "products", self.path):
                read += 1
                match = match_product(
                    self.info.offer_code,
                    product.get("attributes") or {},
                    product.get("productFamily") or "",
                )
                if match is not None:
                    matches[sku] = match
        self.stats.read = read
        return matches

    def _csv_records(self) -> PriceRecords:
        offer_code, source, name = self.info.offer_code, self.info.source, self.path.name
        with CountingFile(self.path, self.progress, "rows") as raw:
            lines = io.BufferedReader(raw, READ_BLOCK)
            head = [_decode(lines.readline(), name, number) for number in range(1, 7)]
            header = next(csv.reader(head[CSV_METADATA_ROWS:]), None)
            if not header:
                raise DomainError(
                    f"{name}: ends before its header row (five metadata rows, then the header)"
                )
            columns = _csv_columns(header, name)
            width = len(header)
            term_type, price_column, currency, effective = (
                columns["TermType"],
                columns["PricePerUnit"],
                columns["Currency"],
                columns["EffectiveDate"],
            )
            starting, ending = columns.get("StartingRange"), columns.get("EndingRange")
            unit, family = columns.get("Unit"), columns.get("Product Family")
            attribute_columns = [
                (attribute, columns[column])
                for column, attribute in CSV_ATTRIBUTES.items()
                if column in columns
            ]
            reserved = ReservedRows(columns, source=source)
            # Most rows are reserved terms: a look at the fourth field spares them the csv
            # module, when the fourth field is the term type (it is in AWS's files).
            quick = term_type == 3
            number, blank = len(head), 0
            for number, line in enumerate(lines, start=len(head) + 1):
                if quick and (found := _TERM_TYPE.match(line)) is not None:
                    if found[1] not in ON_DEMAND_FIELD and not ReservedRows.may_match(line):
                        continue
                if not line.strip():
                    blank += 1
                    continue
                try:
                    row = next(csv.reader([_decode(line, name, number)]))
                except (csv.Error, DomainError) as error:
                    cut_short.check_row_end(line, name, number, raw.size)
                    raise DomainError(f"{name}: line {number}: {error}") from None
                if len(row) != width:
                    cut_short.check_row_end(line, name, number, raw.size)
                    raise DomainError(
                        f"{name}: line {number}: {len(row)} fields, the header has {width}"
                    )
                if row[currency] != "USD" or row[term_type] not in ("OnDemand", "Reserved"):
                    continue
                attributes = {attribute: row[index] for attribute, index in attribute_columns}
                match = match_product(
                    offer_code, attributes, row[family] if family is not None else ""
                )
                if match is None:
                    continue
                where = f"{name}: line {number}"
                if row[term_type] == "Reserved":
                    if match[0] == "ec2":
                        reserved.add(row, match, where=where)
                    continue
                price = dimension_price(
                    match,
                    usd=row[price_column],
                    unit=row[unit] if unit is not None else None,
                    begin=row[starting] if starting is not None else None,
                    end=row[ending] if ending is not None else None,
                    where=where,
                )
                if price is None:
                    continue
                self.stats.matched += 1
                yield make_record(match, price, parse_day(row[effective], where=where), source)
            if number > len(head):
                cut_short.check_row_end(line, name, number, raw.size)
            self.stats.read = number - len(head) - blank
        for record in reserved.records():
            self.stats.matched += 1
            yield record


# The first four fields of a CSV row, the fourth captured; none of them holds a comma.
ON_DEMAND_FIELD = (b'"OnDemand"', b"OnDemand")
_TERM_TYPE = re.compile(rb'(?:(?:"[^",\r\n]*"|[^",\r\n]*),){3}("[^",\r\n]*"|[^",\r\n]*)[,\r\n]')


def _decode(line: bytes, name: str, number: int) -> str:
    try:
        return line.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as error:
        raise DomainError(f"{name}: line {number}: not UTF-8 text ({error})") from None


def _json_events(file: JsonSection, prefix: str, path: Path) -> Iterator[tuple[str, dict]]:
    """ijson's C parser building only the objects under `prefix`; errors name the byte."""
    try:
        yield from ijson.kvitems(file, prefix, use_float=True, buf_size=READ_BLOCK)
    except ijson.JSONError as error:
        if "premature EOF" in str(error):
            raise DomainError(cut_short.json_cut_message(path.name, file.position)) from None
        raise DomainError(
            f"{path.name}: not valid JSON (near byte {file.position:,}): {error}"
        ) from None


def _sniff_format(path: Path) -> str:
    with open(path, "rb") as file:
        start = file.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
    if start.startswith(b"{"):
        return "json"
    if start.startswith((b'"FormatVersion"', b"FormatVersion")):
        return "csv"
    raise DomainError(
        f"{path.name}: not an AWS offer file (JSON starts with '{{', CSV with FormatVersion)"
    )


def _json_info(path: Path) -> OfferFileInfo:
    """The top-level scalars AWS writes before `products`; the first container stops the read."""
    header: dict[str, str] = {}
    with open(path, "rb") as file:
        try:
            for prefix, event, value in ijson.parse(file, buf_size=64 * 1024):
                if prefix == "" or "." in prefix:
                    continue
                if event in ("start_map", "start_array"):
                    first_container = prefix
                    break
                header[prefix] = str(value)
            else:
                first_container = None
        except ijson.JSONError as error:
            if "premature EOF" in str(error):
                raise DomainError(cut_short.json_cut_message(path.name, file.tell())) from None
            raise DomainError(f"{path.name}: not valid JSON: {error}") from None
    if first_container in ("offers", "regions", "versions"):
        raise DomainError(f"{path.name}: {describe_index(first_container)}")
    if first_container not in ("products", "terms"):
        raise DomainError(f"{path.name}: not an AWS offer file (no products)")
    # The reader stops once it has every price, so a download cut short in the reserved terms
    # would go unnoticed: the last bytes tell.
    if (cut_at := cut_short.json_cut_at(path)) is not None:
        raise DomainError(cut_short.json_cut_message(path.name, cut_at))
    return OfferFileInfo.said(
        header, file_format="json", filename=path.name, products_first=first_container == "products"
    )


def _csv_info(path: Path) -> OfferFileInfo:
    with open(path, encoding="utf-8-sig", newline="") as file:
        reader = csv.reader(file)
        metadata = {}
        for number in range(1, CSV_METADATA_ROWS + 1):
            row = next(reader, None)
            if not row or len(row) < 2:
                raise DomainError(
                    f"{path.name}: line {number}: expected a metadata row such as "
                    f'"Version","20250912225308" (an offer CSV starts with five)'
                )
            metadata[row[0]] = row[1]
    return OfferFileInfo.said(metadata, file_format="csv", filename=path.name)


def _csv_columns(header: list[str], name: str) -> dict[str, int]:
    columns = {column: index for index, column in enumerate(header)}
    missing = [
        column
        for column in ("SKU", "TermType", "PricePerUnit", "Currency", "EffectiveDate")
        if column not in columns
    ]
    if missing:
        raise DomainError(
            f"{name}: line {CSV_METADATA_ROWS + 1}: the header row lacks {', '.join(missing)}"
        )
    return columns


# The indexes that lead to the offer files are not offer files: say what to download.


def regional_offer_file_url(offer_code: str, region: str, *, csv_format: bool = False) -> str:
    """Where AWS publishes the current offer file of one service in one region."""
    extension = "csv" if csv_format else "json"
    return f"{PRICING_HOST}/offers/v1.0/aws/{offer_code}/current/{region}/index.{extension}"


def describe_index(kind: str) -> str:
    """What to do with an index given where an offer file was expected."""
    if kind == "offers":
        return (
            "this is the AWS offer index, which lists services, not prices; download "
            + regional_offer_file_url(EC2, "REGION")
            + " (or AmazonECS for Fargate) and import that"
        )
    if kind == "regions":
        return (
            "this is a region index; download one region's currentVersionUrl (versionUrl in a "
            "Savings Plans region index) and import that"
        )
    return "this is a version index; download one version's offerVersionUrl and import that"
