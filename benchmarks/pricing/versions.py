"""Where AWS's price list keeps its files: the offers' version indexes (every version with the
month it was in force and where its offer file is), the version in force on a day, the Savings
Plans region index, and downloading a file from AWS or a mirror.

An offer's version index: `{base}/offers/v1.0/aws/{offer}/index.json` (AmazonEC2, AmazonECS),
`versions` by code, each with `versionEffectiveBeginDate`, `versionEffectiveEndDate` and
`offerVersionUrl` (`/offers/v1.0/aws/AmazonEC2/20161213014831/index.json`; one region's file
is beside it, `.../20161213014831/us-east-1/index.json`). Savings Plans have one region index
of their current rates, `regions` of `{regionCode, versionUrl}`.
"""

from __future__ import annotations

import datetime
import json
import shutil
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from benchmarks.errors import DomainError
from benchmarks.pricing.products import EC2

# The version in force now, as AWS names it in its paths (`current/us-east-1/index.json`).
CURRENT = "current"
# The current Savings Plans rates, region by region (the offer index's
# `currentSavingsPlanIndexUrl`).
SAVINGS_PLANS_REGION_INDEX = "/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/current/region_index.json"
# Seconds a download may wait for the server before it fails.
TIMEOUT = 60


@dataclass(frozen=True)
class OfferVersion:
    code: str
    begins: datetime.date
    # The first day it is no longer in force.
    ends: datetime.date | None
    url: str

    def describe(self) -> str:
        if self.code == CURRENT:
            return "the price list version in force now"
        ends = self.ends.isoformat() if self.ends else "now"
        return f"price list version {self.code}, in force from {self.begins.isoformat()} to {ends}"

    def url_for(self, region: str | None) -> str:
        """The path of this version's offer file: one region's, or the whole offer's."""
        if not region:
            return self.url
        return f"{self.url.rsplit('/', 1)[0]}/{region}/index.json"


def version_index_path(offer: str) -> str:
    """Where an offer's version index is (`AmazonEC2`, `AmazonECS`)."""
    return f"/offers/v1.0/aws/{offer}/index.json"


def current_version(offer: str) -> OfferVersion:
    """The version of `offer` in force now."""
    return OfferVersion(
        CURRENT, datetime.date.min, None, f"/offers/v1.0/aws/{offer}/{CURRENT}/index.json"
    )


def read_version_index(path: Path) -> list[OfferVersion]:
    """The versions a version index lists, oldest first; a DomainError for another file."""
    try:
        document = json.loads(path.read_bytes())
    except (OSError, ValueError) as error:
        raise DomainError(f"{path.name}: not a price list version index ({error})") from None
    versions = document.get("versions") if isinstance(document, dict) else None
    if not isinstance(versions, dict):
        raise DomainError(
            f"{path.name}: not a price list version index (no versions); an offer file is "
            "imported without --as-of"
        )
    listed = []
    for code, version in versions.items():
        try:
            listed.append(
                OfferVersion(
                    code=code,
                    begins=_day(version["versionEffectiveBeginDate"]),
                    ends=_day(version["versionEffectiveEndDate"])
                    if version.get("versionEffectiveEndDate")
                    else None,
                    url=version["offerVersionUrl"],
                )
            )
        except (KeyError, TypeError, ValueError):
            raise DomainError(f"{path.name}: version {code} is not readable") from None
    return sorted(listed, key=lambda version: (version.begins, version.code))


def version_in_force(versions: list[OfferVersion], day: datetime.date) -> OfferVersion:
    """The version in force on `day` (the latest to begin on or before it, if not ended)."""
    begun = [version for version in versions if version.begins <= day]
    if not begun or (begun[-1].ends is not None and begun[-1].ends <= day):
        first = versions[0].begins.isoformat() if versions else "none"
        raise DomainError(
            f"no price list version was in force on {day.isoformat()} (the index begins on "
            f"{first})",
            field="as_of",
        )
    return begun[-1]


def resolve(
    as_of: datetime.date | None,
    *,
    base_url: str,
    index: Path | None,
    folder: Path,
    offer: str = EC2,
) -> OfferVersion:
    """The version of `offer` in force on `as_of` by its version index (`index`, else
    downloaded from `base_url` into `folder`); without a day, the version in force now
    (AWS's `current`)."""
    if as_of is None:
        return current_version(offer)
    if index is None:
        index = folder / f"version-index-{offer}.json"
        download(base_url + version_index_path(offer), index)
    return version_in_force(read_version_index(index), as_of)


# A region without Savings Plans rates is listed with this file (`.../default/empty.json`).
_NO_RATES = "/default/empty.json"


def savings_plan_files(path: Path) -> dict[str, str | None]:
    """Region code -> the path of its Savings Plans file, None where the index says the region
    has none; a DomainError for another file."""
    try:
        document = json.loads(path.read_bytes())
        listed = document["regions"]
        return {
            entry["regionCode"]: None
            if entry["versionUrl"].endswith(_NO_RATES)
            else entry["versionUrl"]
            for entry in listed
        }
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise DomainError(f"{path.name}: not a Savings Plans region index ({error})") from None


def download(url: str, destination: Path) -> None:
    """Stream `url` into `destination`; a DomainError naming the URL if it cannot."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as answer, destination.open("wb") as out:
            shutil.copyfileobj(answer, out, length=1024 * 1024)
    except urllib.error.HTTPError as error:
        raise DomainError(f"{url}: HTTP {error.code}", status_code=502) from None
    except (OSError, ValueError) as error:
        raise DomainError(f"{url}: could not be downloaded ({error})", status_code=502) from None


def _day(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text[:10])
