"""Admin pages for every domain model."""

from django.contrib import admin

from benchmarks import models
from benchmarks.errors import DomainError
from benchmarks.services import runs as run_services
from benchmarks.services import screening
from benchmarks.services.withdraw import withdraw_run


@admin.register(models.Region)
class RegionAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "pricing_location"]
    search_fields = ["code", "name"]


@admin.register(models.InstanceType)
class InstanceTypeAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "vcpus", "memory_gib", "architecture", "cpu_family"]
    list_filter = ["kind", "architecture", "burstable"]
    search_fields = ["name", "cpu_family"]


def in_force(*columns: str) -> list[str]:
    """A period's columns: its key and price, then the days it is in force."""
    return [*columns, "effective_from", "effective_to"]


class PeriodAdmin(admin.ModelAdmin):
    """A kind of price or rate period, searched by its source."""

    search_fields = ["source"]
    list_select_related = ["region"]


class InstanceTypePeriodAdmin(PeriodAdmin):
    """A kind of period priced per instance type, searched by its name too."""

    search_fields = ["instance_type__name", "source"]
    list_select_related = ["instance_type", "region"]


@admin.register(models.Price)
class PriceAdmin(InstanceTypePeriodAdmin):
    list_display = in_force(
        "instance_type", "region", "purchase_option", "availability_zone", "usd_per_hour"
    )
    list_filter = ["purchase_option", "region"]


@admin.register(models.FargateRate)
class FargateRateAdmin(PeriodAdmin):
    list_display = in_force("region", "architecture", "component", "usd_per_unit_hour")
    list_filter = ["region", "architecture", "component"]


@admin.register(models.VolumePrice)
class VolumePriceAdmin(PeriodAdmin):
    list_display = in_force("region", "volume_type", "component", "tier", "usd_per_unit_month")
    list_filter = ["region", "volume_type", "component"]


@admin.register(models.DatabasePrice)
class DatabasePriceAdmin(InstanceTypePeriodAdmin):
    list_display = in_force(
        "instance_type", "region", "engine", "deployment_option", "usd_per_hour"
    )
    list_filter = ["region", "engine", "deployment_option"]


@admin.register(models.AuroraRate)
class AuroraRateAdmin(PeriodAdmin):
    list_display = in_force("region", "engine", "component", "usd_per_unit")
    list_filter = ["region", "engine", "component"]


@admin.register(models.Benchmark)
class BenchmarkAdmin(admin.ModelAdmin):
    list_display = ["key", "unit", "higher_is_better"]
    search_fields = ["key", "description"]


class ResultInline(admin.TabularInline):
    model = models.Result
    extra = 0
    fields = ["benchmark", "params", "value", "notes"]
    readonly_fields = fields


@admin.register(models.Run)
class RunAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "instance_type",
        "region",
        "variant",
        "status",
        "format",
        "uploader",
        "created_at",
        "withdrawn_at",
        "verified_by",
    ]
    list_filter = ["status", "format", "region", "verified_by"]
    search_fields = [
        "instance_type__name",
        "cpu_model",
        "filename",
        "content_hash",
        "uploaded_by__username",
        "upload_token__name",
        "upload_token__prefix",
    ]
    list_select_related = ["instance_type", "region", "uploaded_by", "upload_token"]
    readonly_fields = [
        "content_hash",
        "upload_key",
        "created_at",
        "finished_at",
        "uploaded_by",
        "upload_token",
        "withdrawn_at",
        "withdrawn_by",
        "withdrawn_by_token",
        # What the upload's identity proof named, once verified (benchmarks/identity/).
        "verified_by",
        "verified_instance_type",
        "verified_region",
        "verified_instance_id",
        "verified_account",
    ]
    inlines = [ResultInline]
    actions = ["parse_again", "withdraw"]

    @admin.display(description="uploaded by", ordering="uploaded_by__username")
    def uploader(self, run: models.Run) -> str:
        """The user, and the token's name (or key prefix) when a token uploaded it."""
        user = run.uploaded_by.username if run.uploaded_by_id else "-"
        if run.upload_token_id is None:
            return user
        return f"{user} (token {run.upload_token.name or run.upload_token.prefix + '…'})"

    # Deleting goes through the service, so that the kept statistics follow.
    def delete_model(self, request, obj):
        run_services.delete_run(run=obj)

    def delete_queryset(self, request, queryset):
        for run in queryset:
            run_services.delete_run(run=run)

    @admin.action(description="Parse the selected runs again")
    def parse_again(self, request, queryset):
        for run in queryset.filter(parent=None):
            try:
                run_services.reparse_run(run_id=run.pk)
            except DomainError as error:
                self.message_user(request, error.message, level="warning")

    @admin.action(description="Withdraw the selected runs (kept, counted nowhere)")
    def withdraw(self, request, queryset):
        withdrawn = sum(
            withdraw_run(run_id=run.pk, by_user=request.user)[1] for run in queryset.order_by("pk")
        )
        self.message_user(request, f"{withdrawn} run(s) withdrawn.")


@admin.register(models.HeldResult)
class HeldResultAdmin(admin.ModelAdmin):
    """Uploaded results the screen held (services/screening.py), with why: released, they
    count (their series' statistics refreshed); withdrawn, they never do."""

    list_display = [
        "result_id",
        "run",
        "benchmark",
        "instance_type",
        "value",
        "status",
        "reason",
        "why",
        "held_at",
    ]
    list_filter = ["status", "reason"]
    list_select_related = [
        "result__run__instance_type",
        "result__run__upload_token",
        "result__benchmark",
    ]
    search_fields = ["result__run__instance_type__name", "result__benchmark__key"]
    readonly_fields = [
        "result",
        "series",
        "reason",
        "status",
        "series_runs",
        "series_median",
        "series_mad",
        "deviations",
        "token_runs",
        "held_at",
        "decided_at",
        "decided_by",
    ]
    actions = ["release", "withdraw"]

    @admin.display(description="run", ordering="result__run_id")
    def run(self, held: models.HeldResult) -> int:
        return held.result.run_id

    @admin.display(description="benchmark")
    def benchmark(self, held: models.HeldResult) -> str:
        return f"{held.result.benchmark.key} {held.result.params or ''}".strip()

    @admin.display(description="instance type")
    def instance_type(self, held: models.HeldResult) -> str:
        return held.result.run.instance_type.name

    @admin.display(description="value")
    def value(self, held: models.HeldResult) -> str:
        return f"{held.result.value:.6g} {held.result.benchmark.unit}"

    @admin.display(description="why")
    def why(self, held: models.HeldResult) -> str:
        """The series' median and MAD as the screen read them, and how far off the value is."""
        runs = f"{held.series_runs} run{'' if held.series_runs == 1 else 's'}"
        floored = held.series_mad == screening.MAD_FLOOR * abs(held.series_median)
        series = (
            f"series median {held.series_median:.6g} over {runs}, MAD {held.series_mad:.6g}"
            + (f" (at least {screening.MAD_FLOOR:.0%} of the median)" if floored else "")
        )
        if held.reason == models.HeldResult.Reason.TOKEN_LIMIT:
            return (
                f"its token had {held.token_runs} of the series' {held.series_runs} runs "
                f"already (at most {screening.TOKEN_SHARE:.0%}); {series}"
            )
        times = held.result.value / held.series_median if held.series_median else None
        ratio = f", {times:.3g} times the median" if times is not None else ""
        return (
            f"{held.deviations:,.1f} scaled MADs from the median "
            f"(held beyond {screening.OUTLIER_MADS:g}){ratio}; {series}"
        )

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description="Release the selected results (they count)", permissions=["change"])
    def release(self, request, queryset):
        self._decide(request, queryset, release=True)

    @admin.action(
        description="Withdraw the selected results (kept, counted nowhere)", permissions=["change"]
    )
    def withdraw(self, request, queryset):
        self._decide(request, queryset, release=False)

    def _decide(self, request, queryset, *, release: bool) -> None:
        ids = list(queryset.values_list("pk", flat=True))
        decided = screening.decide_held(result_ids=ids, release=release, by_user=request.user)
        self.message_user(request, f"{decided} result(s) {'released' if release else 'withdrawn'}.")


@admin.register(models.SeriesStatistics)
class SeriesStatisticsAdmin(admin.ModelAdmin):
    """Read-only: written by ingest and `rebuild_stats`."""

    list_display = ["series", "measured_in", "runs", "results", "median", "updated_at"]
    list_filter = ["measured_in"]
    list_select_related = ["series"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(models.PriceRefresh)
class PriceRefreshAdmin(admin.ModelAdmin):
    list_display = [
        "started_at",
        "kind",
        "region",
        "status",
        "attempt",
        "read",
        "matched",
        "stored",
        "unchanged",
        "finished_at",
    ]
    list_filter = ["status", "kind", "region"]
    search_fields = ["region", "error"]
    readonly_fields = [field.name for field in models.PriceRefresh._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False  # written by the refreshes themselves
