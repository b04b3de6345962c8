"""A fleet file answered (an upload, its size checked; or a file of any size, from the
`rebuy_fleet` command): its text streamed through the reader, its lines re-bought; and the
answer's lines as FOCUS-named CSV rows. Nothing is stored."""

from __future__ import annotations

import io
import json
from typing import BinaryIO

from benchmarks.errors import DomainError
from benchmarks.fleet.reader import FleetFileError, read_fleet
from benchmarks.fleet.rebuy import FleetAnswer, FleetQuestion, rebuy_fleet
from benchmarks.services.upload_checks import check_upload_size

# The way to buy, back in FOCUS's PricingCategory words.
PRICING_CATEGORY = {
    "on_demand": "Standard",
    "reserved": "Committed",
    "savings_plan": "Committed",
    "spot": "Dynamic",
}


def answer_fleet(uploaded, question: FleetQuestion) -> FleetAnswer:
    """`uploaded` (a Django UploadedFile) re-bought on `question`; a bad file is a
    DomainError naming what is wrong, one over the upload limit a 413 as for runs."""
    check_upload_size(uploaded.size)
    uploaded.seek(0)
    return answer_fleet_file(uploaded.file, question)


def answer_fleet_file(binary: BinaryIO, question: FleetQuestion) -> FleetAnswer:
    """`binary` (a file open for reading bytes) streamed through the reader and re-bought on
    `question`, whatever its size (the upload's limit is `answer_fleet`'s); a bad file is a
    DomainError of the field `file` naming what is wrong. The file stays open: its caller's."""
    # Decoded as it is read, row by row: the file is never held in memory whole.
    text = io.TextIOWrapper(binary, encoding="utf-8-sig", newline="")
    try:
        fleet = read_fleet(text)
    except FleetFileError as error:
        raise DomainError(str(error), field="file") from None
    finally:
        text.detach()  # the binary file is its caller's to close
    return rebuy_fleet(fleet, question)


def csv_rows(answer: FleetAnswer) -> list[dict]:
    """The lines with FOCUS column names where one applies and `x_` columns for the rest."""
    rows = []
    for line in answer.lines:
        replacement = line.replacement
        rows.append(
            {
                "RegionId": line.region,
                "SkuPriceDetails": json.dumps({"InstanceType": line.instance_type}),
                # What the bill said, as EffectiveCost is what it paid.
                "PricingCategory": PRICING_CATEGORY.get(line.billed_purchase_option, "Other"),
                "ConsumedQuantity": line.hours,
                "ConsumedUnit": "Hours",
                "EffectiveCost": line.usd_per_month,
                "BillingCurrency": "USD",
                "x_InstanceType": line.instance_type,
                "x_CostIsPaid": line.paid,
                "x_ReplacementInstanceType": replacement.instance_type,
                "x_ReplacementRegionId": replacement.region,
                "x_ReplacementPricingCategory": PRICING_CATEGORY.get(
                    replacement.purchase_option, "Other"
                ),
                "x_ReplacementCost": replacement.usd_per_month,
                "x_WorkRatio": replacement.work_ratio.mid,
                "x_WorkRatioLow": replacement.work_ratio.low,
                "x_WorkRatioHigh": replacement.work_ratio.high,
                "x_SavingLow": replacement.saving_usd_per_month.low,
                "x_SavingMid": replacement.saving_usd_per_month.mid,
                "x_SavingHigh": replacement.saving_usd_per_month.high,
                "x_BeyondNoise": replacement.beyond_noise,
                "x_Estimated": replacement.estimated,
                "x_Note": line.note,
            }
        )
    return rows
