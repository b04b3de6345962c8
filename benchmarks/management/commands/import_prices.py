"""`python manage.py import_prices SOURCE`: AWS prices from a file, the snapshot or the API;
other clouds' from their own sources (`--hetzner`)."""

import datetime
import time
from pathlib import Path

from botocore.exceptions import BotoCoreError, ClientError
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from benchmarks.errors import DomainError
from benchmarks.pricing.aws import AwsThrottled
from benchmarks.services import prices as price_services

MB = 1024 * 1024
# `--offer-file` given without a PATH (with --as-of): the version index comes from the mirror.
FROM_THE_MIRROR = Path("-")


class ProgressBar:
    """`products [#########...........]  45%  230/512 MB  85 MB/s` on a terminal."""

    WIDTH = 30

    def __init__(self, stream):
        self.stream = stream
        self.label = None
        self.drawn_at = 0.0
        self.started_at = time.monotonic()
        self.started_bytes = 0

    def __call__(self, done: int, total: int, label: str) -> None:
        now = time.monotonic()
        if label != self.label:
            if self.label is not None:
                self.stream.write("\n")
            self.label, self.started_at, self.started_bytes = label, now, done
        elif now - self.drawn_at < 0.1 and done < total:
            return
        self.drawn_at = now
        share = done / total if total else 1.0
        filled = int(share * self.WIDTH)
        speed = (done - self.started_bytes) / MB / max(now - self.started_at, 1e-6)
        self.stream.write(
            f"\r{label:8} [{'#' * filled}{'.' * (self.WIDTH - filled)}] {int(share * 100):3d}% "
            f"{done / MB:,.0f}/{total / MB:,.0f} MB {speed:5.0f} MB/s"
        )
        self.stream.flush()

    def finish(self) -> None:
        if self.label is not None:
            self.stream.write("\n")
            self.stream.flush()


class Command(BaseCommand):
    help = (
        "Import AWS prices: the bundled snapshot, a bulk offer file (JSON or CSV, streamed; EC2 "
        "with its Reserved terms, ECS, RDS, or a Savings Plans file), a saved get_products, "
        "describe_spot_price_history or describe_instance_types response, the Fargate Spot "
        "feed, or the live API. Nothing is overwritten: a changed price starts a new period."
    )

    def add_arguments(self, parser):
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--snapshot", action="store_true", help="the bundled price snapshot")
        source.add_argument(
            "--offer-file",
            type=Path,
            metavar="PATH",
            nargs="?",
            const=FROM_THE_MIRROR,
            help="AWS bulk offer file; with --as-of, AWS's version index (PATH, or none: "
            "downloaded from PRICEBENCH_OFFERS_URL)",
        )
        source.add_argument(
            "--price-list", type=Path, metavar="PATH", help="saved get_products response(s)"
        )
        source.add_argument(
            "--spot-history",
            type=Path,
            metavar="PATH",
            help="saved describe_spot_price_history response(s)",
        )
        source.add_argument(
            "--instance-types",
            type=Path,
            metavar="PATH",
            help="saved describe_instance_types response(s): instance specifications",
        )
        source.add_argument(
            "--fargate-spot",
            type=Path,
            metavar="PATH",
            help="the pricing page's Fargate Spot feed, saved: Fargate Spot rates",
        )
        source.add_argument(
            "--hetzner",
            type=Path,
            metavar="PATH",
            help="a saved Hetzner Cloud `GET /v1/server_types` answer: net hourly prices in EUR "
            "per location, in force from --as-of (default today)",
        )
        source.add_argument(
            "--azure-retail",
            type=Path,
            metavar="PATH",
            help="saved Azure Retail Prices API items (a list, a page, or a list of pages): "
            "virtual machine prices, on demand, Spot, Low Priority and reservations",
        )
        source.add_argument(
            "--gcp-skus",
            type=Path,
            metavar="PATH",
            help="saved Cloud Billing Catalog pages of Compute Engine SKUs: machine type prices "
            "from their families' core and RAM rates, in force from --as-of (default today) "
            "where a SKU gives no date",
        )
        source.add_argument(
            "--api",
            action="store_true",
            help="live AWS, through boto3; with --service azure, Azure's Retail Prices API; "
            "with --service hetzner, Hetzner Cloud's API (HCLOUD_TOKEN); with --service gcp, "
            "Google's Cloud Billing Catalog (GOOGLE_API_KEY)",
        )
        parser.add_argument("--service", choices=price_services.API_SERVICES, help="with --api")
        parser.add_argument(
            "--region",
            help="with --api; with --spot-history, for zone IDs; with --as-of, the region "
            "whose offer file is read (default: the whole offer)",
        )
        parser.add_argument(
            "--all-regions",
            action="store_true",
            help="with --offer-file (no PATH): every region's offer file, one after the other "
            "(resumable: a run stopped part-way starts again where it stopped)",
        )
        parser.add_argument(
            "--regions", metavar="R,R", help="with --offer-file (no PATH): these regions' files"
        )
        parser.add_argument(
            "--offers",
            metavar="O,O",
            help="with --all-regions or --regions: the offer files read for each region, among "
            f"{', '.join(price_services.REGION_OFFERS)} (default: all; with --as-of, ec2,ecs)",
        )
        parser.add_argument(
            "--as-of",
            type=datetime.date.fromisoformat,
            metavar="YYYY-MM-DD",
            help="with --offer-file: the price list version in force that day; with --hetzner: "
            "the day the prices are in force from",
        )

    def handle(self, *args, **options):
        if options["api"] and not (options["service"] and options["region"]):
            raise CommandError(
                f"--api needs --service ({', '.join(price_services.API_SERVICES)}) and --region"
            )
        if options["service"] and not options["api"]:
            raise CommandError("--service goes with --api")
        if options["as_of"] and not (
            options["offer_file"] or options["hetzner"] or options["gcp_skus"]
        ):
            raise CommandError(
                "--as-of goes with --offer-file (a version index, or none), --hetzner or --gcp-skus"
            )
        if options["all_regions"] or options["regions"]:
            if options["all_regions"] and options["regions"]:
                raise CommandError("--all-regions or --regions, not both")
            from_mirror = options["offer_file"] == FROM_THE_MIRROR
            if not (from_mirror or (options["offer_file"] and options["as_of"])):
                raise CommandError(
                    "--all-regions and --regions go with --offer-file without a PATH (the "
                    "files come from PRICEBENCH_OFFERS_URL), or with a version index and --as-of"
                )
            return self._regions(options)
        if options["offers"]:
            raise CommandError("--offers goes with --all-regions or --regions")
        if options["offer_file"] == FROM_THE_MIRROR and not options["as_of"]:
            raise CommandError("--offer-file needs a PATH, unless --as-of names a day")
        progress = None
        try:
            if options["snapshot"]:
                summary = price_services.import_snapshot()
            elif options["gcp_skus"]:
                summary = price_services.import_gcp_skus_file(
                    path=options["gcp_skus"], day=options["as_of"]
                )
            elif options["azure_retail"]:
                summary = price_services.import_azure_retail_file(path=options["azure_retail"])
            elif options["hetzner"]:
                summary = price_services.import_hetzner_file(
                    path=options["hetzner"], day=options["as_of"]
                )
            elif options["as_of"]:
                index = options["offer_file"]
                summary = price_services.import_offer_version(
                    as_of=options["as_of"],
                    region=options["region"],
                    index=None if index == FROM_THE_MIRROR else index,
                )
            elif options["offer_file"]:
                if self.stderr.isatty():
                    progress = ProgressBar(self.stderr._out)
                summary = price_services.import_offer_file(
                    path=options["offer_file"], progress=progress
                )
            elif options["price_list"]:
                summary = price_services.import_price_list_file(path=options["price_list"])
            elif options["spot_history"]:
                summary = price_services.import_spot_history_file(
                    path=options["spot_history"], region=options["region"]
                )
            elif options["fargate_spot"]:
                summary = price_services.import_fargate_spot_file(path=options["fargate_spot"])
            elif options["instance_types"]:
                summary = price_services.import_instance_types_file(path=options["instance_types"])
            else:
                summary = price_services.import_from_api(
                    service=options["service"], region=options["region"]
                )
        except DomainError as error:
            raise CommandError(error.message) from None
        except AwsThrottled as error:
            raise CommandError(
                f"AWS is throttling these calls; try again later ({error})"
            ) from None
        except (BotoCoreError, ClientError) as error:
            raise CommandError(f"AWS: {error}") from None
        except DatabaseError as error:
            # Each import is one transaction: whatever it had written is rolled back.
            first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
            raise CommandError(
                f"the database failed ({type(error).__name__}: {first_line}); nothing was "
                "stored, run the import again"
            ) from None
        finally:
            if progress is not None:
                progress.finish()
        self.stdout.write(f"{summary.source}")
        self.stdout.write(str(summary))
        for note in summary.notes:
            self.stdout.write(f"note: {note}")

    def _regions(self, options) -> None:
        """Each region's offer files in turn; a summary per file, exit 1 naming failures."""
        index = options["offer_file"]
        try:
            outcome = price_services.import_offer_regions(
                regions=_listed(options["regions"]) if options["regions"] else None,
                offers=_listed(options["offers"]) if options["offers"] else None,
                as_of=options["as_of"],
                index=None if index == FROM_THE_MIRROR else index,
            )
        except DomainError as error:
            raise CommandError(error.message) from None
        self.stdout.write(
            f"{outcome.label}: {len(outcome.regions)} regions, {', '.join(outcome.offers)}"
        )
        for unit in outcome.done_before:
            self.stdout.write(f"  {unit}: done by a run before")
        for unit, summary in outcome.done.items():
            self.stdout.write(f"  {unit}: {summary}")
        for unit, reason in outcome.absent.items():
            self.stdout.write(f"  {unit}: none ({reason})")
        for unit, reason in outcome.failed.items():
            self.stdout.write(f"  {unit}: FAILED: {reason}")
        if outcome.failed:
            raise CommandError(
                f"{len(outcome.failed)} file(s) failed ({', '.join(outcome.failed)}); run "
                "the same command again to retry them (the others are kept as done)"
            )


def _listed(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]
