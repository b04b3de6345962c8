"""What was measured: benchmarks, the runs that measured them, their results, and the series
and statistics kept from those results."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from benchmarks.identity.proof import CLOUD_NAMES
from benchmarks.models.places import InstanceType, Region


class Benchmark(models.Model):
    """A measured quantity, `<tool>:<test>`, with its unit and which direction is better."""

    key = models.CharField(max_length=120, unique=True)
    unit = models.CharField(max_length=40)
    higher_is_better = models.BooleanField(default=True)
    # The kind of work it measures ("Key-value store", "Compression"): the menu's group.
    # Set with the description from benchmarks/catalog.py when an ingest creates it.
    group = models.CharField(max_length=60, blank=True, default="")
    description = models.TextField(blank=True)
    # Kept at ingest from the series' statistics (services/statistics/), so that menus and
    # parameter checks never scan results: every parameter with its values in order, and the
    # instance type families with results.
    params = models.JSONField(default=dict, blank=True, editable=False)
    families = models.JSONField(default=list, blank=True, editable=False)
    # The newest done run with raw output that measured it: the sample `/benchmarks/` shows.
    sample_run = models.ForeignKey(
        "Run",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
    )
    stats_updated_at = models.DateTimeField(null=True, blank=True, editable=False)
    # How much one run varies, measured from the statistics above (benchmarks/noise.py):
    # {"relative", "series", "method"}, or null where too little agrees to measure it. Kept
    # by services/statistics/noise.py, measured again once the statistics change.
    noise = models.JSONField(null=True, blank=True, editable=False)
    noise_measured_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return self.key

    @property
    def tool(self) -> str:
        return self.key.split(":", 1)[0]


class Run(models.Model):
    """One ingested output: a tool's raw output from one machine, or a table of results.

    A table (CSV/JSON) names its machines per row: its rows are stored as child runs, one per
    machine, variant and date, so that every result's machine is its run's.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        # Taken back by its uploader (services/withdraw.py): kept, its results counted nowhere.
        WITHDRAWN = "withdrawn", "Withdrawn"

    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="children"
    )
    # Indexed as the first column of (instance_type, region, variant).
    instance_type = models.ForeignKey(
        InstanceType,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="runs",
        db_index=False,
    )
    region = models.ForeignKey(
        Region, on_delete=models.PROTECT, null=True, blank=True, related_name="runs"
    )
    variant = models.CharField(max_length=100, blank=True, default="")
    cpu_model = models.CharField(max_length=200, blank=True, default="")
    measured_at = models.DateField(null=True, blank=True)
    format = models.CharField(max_length=32, blank=True)
    # Long enough for Spare Cores' redis version line (95 characters).
    tool_version = models.CharField(max_length=200, blank=True, default="")
    filename = models.CharField(max_length=255, blank=True, default="")
    raw_output = models.TextField(blank=True, default="")
    # An uploaded table as the upload's check read it (ParsedOutput.to_text), for the worker,
    # which then does not parse it again; emptied once the run is ingested or failed. Empty in
    # the database by default too, for the benches that write runs with COPY.
    checked_table = models.TextField(blank=True, default="", db_default="")
    content_hash = models.CharField(max_length=64, blank=True, default="")
    # sha256 of the content plus the machine it was uploaded for: one run per key.
    upload_key = models.CharField(max_length=300, unique=True, null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    error = models.TextField(blank=True, default="")
    warnings = models.JSONField(default=list, blank=True)
    source = models.TextField(blank=True, default="")
    licence = models.CharField(max_length=100, blank=True, default="")
    # How many machines its figures stand for (the processor lottery): 1 for an upload; more
    # where a study ran the benchmark on one of several tasks that landed on the same
    # processor and published how many did (study S1's lscpu counts, `loaddemo`). The
    # statistics weigh its results by it (services/statistics/compute.py).
    observations = models.PositiveIntegerField(default=1)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    # The token that uploaded it (null for pages, commands and the demo): only it may list
    # and withdraw the run through the API.
    upload_token = models.ForeignKey(
        "api.UploadToken", on_delete=models.SET_NULL, null=True, blank=True, related_name="runs"
    )
    # Who withdrew it, and when (a token through the API, or a staff user in the admin).
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    withdrawn_by_token = models.ForeignKey(
        "api.UploadToken", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the run was last handed to the broker, and how many times: the sweep hands a run
    # left pending again (services/runs.py `requeue_stale_runs`), and gives up after a few.
    queued_at = models.DateTimeField(null=True, blank=True)
    queue_attempts = models.PositiveSmallIntegerField(default=0)
    # The cloud's signed identity proof it came with, once verified (benchmarks/identity/):
    # the cloud and what the proof names; blank where it names nothing. The account is kept
    # for the admin, never shown.
    verified_by = models.CharField(
        max_length=8, blank=True, default="", choices=list(CLOUD_NAMES.items())
    )
    verified_instance_type = models.CharField(max_length=100, blank=True, default="")
    verified_region = models.CharField(max_length=100, blank=True, default="")
    verified_instance_id = models.CharField(max_length=100, blank=True, default="")
    verified_account = models.CharField(max_length=100, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["instance_type", "region", "variant"]),
            models.Index(
                fields=["queued_at"], condition=Q(status="pending"), name="run_pending_queued"
            ),
            # The lists' order (`/runs/`, `runs/`): their first page without sorting every run.
            models.Index(fields=["-created_at", "-id"], name="run_newest_first"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "done", "failed", "withdrawn"]),
                name="run_status_known",
            ),
            models.CheckConstraint(condition=Q(observations__gte=1), name="run_observed"),
        ]

    def __str__(self) -> str:
        machine = self.instance_type.name if self.instance_type_id else "table"
        return f"run {self.pk} ({machine}, {self.status})"

    @property
    def verified(self) -> bool:
        """Its proof named the type it was uploaded for: that machine, of that type, there.

        A proof that names a type is stored only when it names the run's own
        (benchmarks/identity `check_identity`): the kept statistics count these runs so."""
        return bool(self.verified_instance_type)


class Series(models.Model):
    """Results of one benchmark on one instance type and variant with one set of parameters.

    What a row of the price-performance table aggregates; results measured with other
    parameters belong to another series and are never mixed with these.
    """

    # Indexed as the first column of the natural key.
    benchmark = models.ForeignKey(
        Benchmark, on_delete=models.CASCADE, related_name="series", db_index=False
    )
    instance_type = models.ForeignKey(InstanceType, on_delete=models.CASCADE, related_name="series")
    variant = models.CharField(max_length=100, blank=True, default="")
    params = models.JSONField(default=dict, blank=True)
    # `params` as canonical JSON (sorted keys), the part of the natural key a JSON field
    # cannot be.
    params_key = models.CharField(max_length=1000)

    class Meta:
        ordering = ["benchmark_id", "instance_type_id", "variant", "params_key"]
        constraints = [
            models.UniqueConstraint(
                fields=["benchmark", "instance_type", "variant", "params_key"],
                name="series_natural_key",
            ),
        ]

    def __str__(self) -> str:
        variant = f" ({self.variant})" if self.variant else ""
        return f"{self.benchmark_id} {self.instance_type_id}{variant} {self.params_key}"


class SeriesStatistics(models.Model):
    """A series' statistics, kept at ingest: over every region, or over one measuring region.

    `measured_in` is "" for the statistics of every run wherever it was measured (runs whose
    region is not recorded count only there), else the code of the region the runs were
    measured in. When every run was measured in one region, the all-regions row names it in
    `sole_region` and answers for that region too: per-region rows exist only for series
    measured in several. Written only by services/statistics/; `rebuild_stats` recomputes
    them.
    """

    ALL_REGIONS = ""
    SAMPLES_KEPT = 100

    # Indexed as the first column of (series, measured_in). No foreign key in the database:
    # a row is written only beside its series, under the series' lock, in the transaction
    # that made or locked it, and deleting a series deletes these (Django's CASCADE); the
    # check was a lookup per row at commit, 800 an upload and 200,000 an import of 100,000
    # results (docs/performance.md). `rebuild_stats --check` reports rows left without one.
    series = models.ForeignKey(
        Series,
        on_delete=models.CASCADE,
        related_name="statistics",
        db_index=False,
        db_constraint=False,
    )
    # The series' benchmark and parameter key, copied: a type's rank among its peers (the
    # same benchmark and parameters) is then a count over one index (`statistics_peers`).
    # No foreign key in the database: the series' own checks the benchmark, and checking
    # the copy as well cost every ingest a lookup per row at commit (docs/performance.md).
    benchmark = models.ForeignKey(
        Benchmark, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    params_key = models.CharField(max_length=1000)
    # The series' instance type and variant, copied too: a peer group's rows (the
    # price-performance answer's) are then read without looking each series up (a
    # thousand index probes, about half the read at 10M results: docs/performance.md). No
    # foreign key in the database either; deleting a type deletes its series, and so these.
    instance_type = models.ForeignKey(
        InstanceType,
        on_delete=models.DO_NOTHING,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    variant = models.CharField(max_length=100, blank=True, default="")
    measured_in = models.CharField(max_length=32, blank=True, default="")
    sole_region = models.CharField(max_length=32, blank=True, default="")
    runs = models.PositiveIntegerField()
    results = models.PositiveIntegerField()
    median = models.FloatField()
    minimum = models.FloatField()
    maximum = models.FloatField()
    first_quartile = models.FloatField()
    third_quartile = models.FloatField()
    # {cpu model: runs}, most runs first, by normalised name (benchmarks.cpu_models);
    # "unknown" for runs that did not say.
    cpu_models = models.JSONField(default=dict)
    # Region codes the runs were measured in, in order; null for runs with no region.
    regions = models.JSONField(default=list)
    # [[source, licence, runs], ...], most runs first.
    sources = models.JSONField(default=list)
    # [[value, cpu model], ...] in order of value: every result when there are at most
    # SAMPLES_KEPT, else that many evenly spaced in rank from the minimum to the maximum.
    samples = models.JSONField(default=list)
    first_measured_at = models.DateField(null=True, blank=True)
    last_measured_at = models.DateField(null=True, blank=True)
    # Runs whose results were left out of the figures above (benchmarks.flags); null for
    # rows kept before flags were: `rebuild_stats` (and `loaddemo`) recompute those.
    flagged_runs = models.PositiveIntegerField(null=True, blank=True)
    # [[flag, runs, [first run ids]], ...], most runs first.
    flags = models.JSONField(default=list, blank=True)
    # Every result was flagged: the figures come from them rather than from nothing.
    only_flagged = models.BooleanField(default=False)
    # Runs of the figures above whose identity proof named their type (Run.verified).
    verified_runs = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "series statistics"
        constraints = [
            models.UniqueConstraint(
                fields=["series", "measured_in"], name="series_statistics_once_per_scope"
            ),
        ]
        indexes = [
            # A type's rank counts its peers' entries here, from its median on.
            models.Index(
                fields=["benchmark", "params_key", "measured_in", "median"],
                name="statistics_peers",
            ),
            # A question reads its peer group's rows from here alone: every column
            # selectors/answer/kept_series.py reads but the extras, in a few pages rather than one
            # heap page per series (a group's rows are written at their runs' times, far
            # apart). Apart from `statistics_peers`, whose narrow entries the rank counts read
            # three times faster (docs/performance.md, "A question's rows from an index").
            # PostgreSQL only: SQLite keeps the key columns.
            models.Index(
                fields=["benchmark", "params_key", "measured_in"],
                include=[
                    "sole_region",
                    "instance_type",
                    "variant",
                    "series",
                    "id",
                    "runs",
                    "results",
                    "median",
                    "minimum",
                    "maximum",
                    "first_quartile",
                    "third_quartile",
                    "flagged_runs",
                    "only_flagged",
                    "cpu_models",
                    "regions",
                    "verified_runs",
                ],
                name="statistics_peer_rows",
            ),
        ]

    def __str__(self) -> str:
        return f"series {self.series_id} [{self.measured_in or 'all regions'}]"


class Result(models.Model):
    """One figure a run measured: a benchmark, its parameters and the value."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="results")
    # Always its series' benchmark (`rebuild_stats --check` says so): the series' foreign
    # key checks it in the database, a second one on every result only cost the ingest. Its
    # index is the first column of (benchmark, run).
    benchmark = models.ForeignKey(
        Benchmark,
        on_delete=models.PROTECT,
        related_name="results",
        db_constraint=False,
        db_index=False,
    )
    params = models.JSONField(default=dict, blank=True)
    value = models.FloatField()
    notes = models.TextField(blank=True, default="")
    # Set at ingest (services/statistics/); the statistics read results through it.
    series = models.ForeignKey(
        Series, on_delete=models.PROTECT, null=True, blank=True, related_name="results"
    )

    class Meta:
        ordering = ["run_id", "id"]
        indexes = [models.Index(fields=["benchmark", "run"])]

    def __str__(self) -> str:
        return f"{self.benchmark} {self.params} = {self.value}"


class BenchmarkCoverage(models.Model):
    """An instance type measured with a benchmark, kept at ingest (services/statistics/).

    One row per type with a series of the benchmark: `/benchmarks/` counts them rather than
    the series, and a benchmark's page sums their runs rather than its statistics rows.
    """

    # Indexed as the first column of the pair.
    benchmark = models.ForeignKey(
        Benchmark, on_delete=models.CASCADE, related_name="coverage", db_index=False
    )
    instance_type = models.ForeignKey(InstanceType, on_delete=models.CASCADE, related_name="+")
    # What the benchmark page sums, from the pair's results (services/statistics/coverage.py):
    # the runs with a result in the figures and those with a result left out (benchmarks.flags),
    # each counted once whatever its number of parameter sets; the days and regions (null: not
    # recorded) they were measured in. `runs` null: not counted yet (`rebuild_stats`).
    runs = models.PositiveIntegerField(null=True)
    flagged_runs = models.PositiveIntegerField(default=0)
    first_measured_at = models.DateField(null=True, blank=True)
    last_measured_at = models.DateField(null=True, blank=True)
    regions = models.JSONField(default=list)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["benchmark", "instance_type"], name="benchmark_coverage_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.benchmark_id} measured on {self.instance_type_id}"


class PeerGroup(models.Model):
    """How many series share a benchmark and parameter set, kept at ingest.

    The peers an instance type ranks among (services/statistics/), counted once here rather
    than on every page that shows a rank."""

    # Indexed as the first column of the pair.
    benchmark = models.ForeignKey(
        Benchmark, on_delete=models.CASCADE, related_name="peer_groups", db_index=False
    )
    params_key = models.CharField(max_length=1000)
    # Series with results (each with its all-regions statistics row).
    series = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["benchmark", "params_key"], name="peer_group_once"),
        ]

    def __str__(self) -> str:
        return f"{self.benchmark_id} {self.params_key}: {self.series} series"


class FargateBasis(models.Model):
    """What Fargate's estimated rows stand on, kept after the statistics (one row).

    Kept by services/statistics/fargate.py: the processors x86_64 tasks were observed on,
    newest first, the method's error on study S1, where Fargate tasks and EC2 instances ran on
    the same processors, and the task sizes as answers price them
    (selectors/answer/fargate_estimates.py, docs/fargate.md)."""

    # [{"cpu_model", "observations", "observed": "YYYY-MM-DD" or None}, ...], newest first.
    observed = models.JSONField(default=list)
    # The median relative error of the method's predictions of measured Fargate figures
    # from EC2 figures on the same processor (whole vCPUs); None: nothing to predict.
    validated_error = models.FloatField(null=True, blank=True)
    # Every prediction: [{"task", "processor", "benchmark", "params", "measured",
    # "predicted", "error", "from", "counted"}, ...].
    validation = models.JSONField(default=list)
    # The Fargate task sizes as answers price them (selectors.answer.kept_series.Machine's fields,
    # numbers as text): read with the rest, in the one query an answer spends on the basis.
    sizes = models.JSONField(default=list)
    kept_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"Fargate basis kept {self.kept_at:%Y-%m-%d %H:%M}"
