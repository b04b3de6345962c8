"""Results held for review (services/screening.py): an uploaded figure far outside its series,
or beyond its token's share of the series, is kept but counted nowhere until staff release
or withdraw it in the admin."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from benchmarks.models.results import Result, Series


class HeldResult(models.Model):
    """Why a result is out of its series, and what staff decided.

    A held result has no series (`Result.series` is null, as a withdrawn run's results), so
    no statistic, median, noise, coverage or answer counts it; `series` is the one it was
    screened against, and the figures are the screen's when it held it.
    """

    class Reason(models.TextChoices):
        OUTLIER = "outlier", "Far outside its series"
        TOKEN_LIMIT = "token_limit", "Beyond its token's share of the series"

    class Status(models.TextChoices):
        HELD = "held", "Held for review"
        RELEASED = "released", "Released (counted)"
        WITHDRAWN = "withdrawn", "Withdrawn (counted nowhere)"

    result = models.OneToOneField(
        Result, on_delete=models.CASCADE, primary_key=True, related_name="hold"
    )
    # The series it was screened against (deleted with its last counted result: a release
    # then finds or creates it again).
    series = models.ForeignKey(
        Series, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.HELD)
    # The series as the screen read it (its kept statistics over every region).
    series_runs = models.PositiveIntegerField()
    series_median = models.FloatField()
    # The median absolute deviation the screen used (floored), and how many of them, scaled
    # to a normal distribution's standard deviation, the value lies from the median.
    series_mad = models.FloatField()
    deviations = models.FloatField()
    # The token's runs in the series before this one (a token limit's hold).
    token_runs = models.PositiveIntegerField(null=True, blank=True)
    held_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        indexes = [models.Index(fields=["status", "held_at"])]

    def __str__(self) -> str:
        return f"result {self.result_id} ({self.status}: {self.reason})"

    # The results no statistic may count: held or withdrawn in review (a released one counts).
    UNCOUNTED = (Status.HELD, Status.WITHDRAWN)


def counted_results() -> Q:
    """Results a statistic may count, as a filter on Result: none held or withdrawn in review."""
    return ~Q(hold__status__in=HeldResult.UNCOUNTED)
