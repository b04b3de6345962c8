"""Writes of AWS prices: EC2 prices, Fargate rates, EBS volume rates, RDS and Aurora prices,
and instance specifications, with history. One module a subject:

- periods.py: the one skeleton every kind of price is written through, and ImportSummary;
- ec2.py, fargate.py, volumes.py, databases.py: one kind of price each (its check and key);
- spec_sources.py: the one writer of instance specifications (each field keeps its source;
  a better source replaces a weaker one); specs.py: its imports (describe_instance_types,
  Spare Cores' server table);
- importers.py: one import per source (snapshot, offer file, saved AWS responses);
- refresh.py: the live AWS fetch (`import_prices --api`) and the scheduled refresh.

Nothing is overwritten. A price is a period, in force from `effective_from` to `effective_to`
(the last day in force; empty while in force):
- a price seen again (the period in force that day has the same price) stores nothing;
- a changed price closes the period in force (its last day becomes the day before) and opens
  a new one, which ends where a later known period begins;
- periods are whole days: a price that differs from one already starting the same day (spot
  prices change several times a day) starts the next day;
- every period keeps its source (API call, offer file version, spot history, snapshot).

Every function that takes outside input checks all of it before writing and raises
`DomainError` (writing nothing) when it is wrong. Callers import from here.
"""

from benchmarks.services.prices.databases import record_database_prices
from benchmarks.services.prices.ec2 import record_prices
from benchmarks.services.prices.fargate import record_fargate_rates
from benchmarks.services.prices.importers import (
    REGION_OFFERS,
    import_fargate_spot_file,
    import_instance_types,
    import_instance_types_file,
    import_offer_file,
    import_offer_regions,
    import_offer_version,
    import_price_list,
    import_price_list_file,
    import_snapshot,
    import_spot_history,
    import_spot_history_file,
)
from benchmarks.services.prices.other_clouds import (
    import_azure_retail_api,
    import_azure_retail_file,
    import_gcp_skus_file,
    import_hetzner_file,
)
from benchmarks.services.prices.periods import ImportSummary
from benchmarks.services.prices.refresh import (
    API_SERVICES,
    import_from_api,
    refresh_region,
    run_refresh,
)
from benchmarks.services.prices.specs import import_bundled_specs, update_instance_specs
from benchmarks.services.prices.volumes import record_volume_prices

__all__ = [
    "API_SERVICES",
    "REGION_OFFERS",
    "ImportSummary",
    "import_azure_retail_api",
    "import_azure_retail_file",
    "import_fargate_spot_file",
    "import_gcp_skus_file",
    "import_hetzner_file",
    "import_from_api",
    "import_instance_types",
    "import_instance_types_file",
    "import_offer_file",
    "import_offer_regions",
    "import_offer_version",
    "import_price_list",
    "import_price_list_file",
    "import_snapshot",
    "import_bundled_specs",
    "import_spot_history",
    "import_spot_history_file",
    "record_database_prices",
    "record_fargate_rates",
    "record_prices",
    "record_volume_prices",
    "refresh_region",
    "run_refresh",
    "update_instance_specs",
]
