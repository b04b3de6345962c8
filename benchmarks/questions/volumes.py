"""The EBS volume questions: a volume's monthly cost, the gp2 burst model (study S4), and
the volumes page's up to four volumes under a constant load."""

from django import forms

from benchmarks.questions.base import CHOICE_ERRORS, QuestionForm, date_field, integer_field
from benchmarks.storage import gp2, volumes

ROWS = 4
RULES = tuple(volumes.VOLUME_RULES.values())
# Study S4's comparison: io1 100 GB with 1,000 IOPS against gp2 400 GB, and the 100 GB gp2
# volume it measured.
DEFAULT_ROWS = [("io1", 100, 1000, None), ("gp2", 400, None, None), ("gp2", 100, None, None)]
ROW_FIELDS = ("volume_type", "size_gb", "iops", "throughput")


class VolumesForm(QuestionForm):
    """Volumes to price side by side; each row is checked as the API checks `volume-cost/`."""

    region = forms.CharField(required=False)
    at = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    load_iops = forms.IntegerField(
        required=False, min_value=1, max_value=256_000, initial=gp2.DEFAULT_LOAD_IOPS
    )
    hours = forms.IntegerField(required=False, min_value=1, max_value=24 * 30, initial=4)

    def __init__(self, data, *args, default_region: str = "us-east-1", **kwargs):
        if not any(f"{name}_1" in data for name in ROW_FIELDS):
            data = data.copy()
            for number, row in enumerate(DEFAULT_ROWS, start=1):
                for name, value in zip(ROW_FIELDS, row, strict=True):
                    if value is not None:
                        data[f"{name}_{number}"] = str(value)
        super().__init__(data, *args, **kwargs)
        self.default_region = default_region
        choices = [("", "none"), *((name, name) for name in volumes.VOLUME_TYPES)]
        for number in range(1, ROWS + 1):
            self.fields[f"volume_type_{number}"] = forms.ChoiceField(
                choices=choices, required=False
            )
            for name in ROW_FIELDS[1:]:
                self.fields[f"{name}_{number}"] = forms.IntegerField(required=False)

    def clean(self):
        cleaned = super().clean()
        specs = []
        for number in range(1, ROWS + 1):
            volume_type = cleaned.get(f"volume_type_{number}")
            if not volume_type:
                continue
            size_gb = cleaned.get(f"size_gb_{number}")
            if size_gb is None:
                self.add_error(f"size_gb_{number}", "a volume needs its size in GB")
                continue
            iops, throughput = cleaned.get(f"iops_{number}"), cleaned.get(f"throughput_{number}")
            checked = self.domain_check(
                volumes.volume,
                volume_type,
                size_gb,
                iops=iops,
                throughput=throughput,
                suffix=f"_{number}",
            )
            if checked is not None:
                specs.append((volume_type, size_gb, iops, throughput))
        if not specs and not self.errors:
            raise forms.ValidationError("choose at least one volume type")
        cleaned["specs"] = specs
        return cleaned

    def rows(self) -> list[list[forms.BoundField]]:
        """The bound fields of each volume row, for the template."""
        return [[self[f"{name}_{number}"] for name in ROW_FIELDS] for number in range(1, ROWS + 1)]

    def selector_arguments(self) -> dict:
        """The keyword arguments of `benchmarks.selectors.subjects.storage.volume_comparison`."""
        data = self.cleaned_data
        return {
            "region_code": data["region"] or self.default_region,
            "specs": data["specs"],
            "at": data["at"],
            "load_iops": data["load_iops"] or gp2.DEFAULT_LOAD_IOPS,
            "seconds": (data["hours"] or 4) * 3600,
        }


class VolumeCostForm(QuestionForm):
    """`volume-cost/`: a volume AWS would create, in a region, on a day (default today)."""

    region = forms.CharField(max_length=32)
    volume_type = forms.ChoiceField(
        choices=[(name, name) for name in volumes.VOLUME_TYPES], error_messages=CHOICE_ERRORS
    )
    # The bounds over every volume type, so that the OpenAPI schema says them
    # (volumes.volume checks the type's own).
    size_gb = integer_field(
        "Size in GB (GiB, as AWS sizes volumes).",
        min_value=min(rules.min_size_gb for rules in RULES),
        max_value=max(rules.max_size_gb for rules in RULES),
        out_of_range="volumes are "
        + ", ".join(f"{r.min_size_gb:,} to {r.max_size_gb:,} GB ({r.volume_type})" for r in RULES)
        + ", not %(value)s",
    )
    iops = integer_field(
        "Provisioned IOPS: required for io1 and io2; gp3 from 3,000.",
        required=False,
        min_value=min(rules.min_iops for rules in RULES if rules.max_iops),
        max_value=max(rules.max_iops for rules in RULES),
        out_of_range="provisioned volumes take "
        + ", ".join(
            f"{r.min_iops:,} to {r.max_iops:,} IOPS ({r.volume_type})" for r in RULES if r.max_iops
        )
        + ", not %(value)s",
    )
    throughput = integer_field(
        "gp3's provisioned throughput in MiB/s (from 125).",
        required=False,
        min_value=min(rules.min_throughput for rules in RULES if rules.max_throughput),
        max_value=max(rules.max_throughput for rules in RULES),
        out_of_range="provisioned throughput is "
        + ", ".join(
            f"{r.min_throughput:,} to {r.max_throughput:,} MiB/s ({r.volume_type})"
            for r in RULES
            if r.throughput
        )
        + ", not %(value)s",
    )
    at = date_field("Prices in force that day.")

    def clean(self):
        cleaned = super().clean()
        if not self.errors:
            self.domain_check(
                volumes.volume,
                cleaned["volume_type"],
                cleaned["size_gb"],
                iops=cleaned.get("iops"),
                throughput=cleaned.get("throughput"),
            )
        return cleaned

    def selector_arguments(self) -> dict:
        """The validated question as `storage.volume_cost`'s keywords."""
        data = self.cleaned_data
        return {
            "region_code": data["region"],
            "volume_type": data["volume_type"],
            "size_gb": data["size_gb"],
            "iops": data.get("iops"),
            "throughput": data.get("throughput"),
            "at": data.get("at"),
        }


class Gp2BurstForm(QuestionForm):
    """`gp2-burst/`: a gp2 volume's size, the constant load on it and the time to show."""

    # The bounds gp2.gp2_burst checks, here too so that the OpenAPI schema says them.
    size_gb = integer_field(
        min_value=gp2.MIN_SIZE_GB,
        max_value=gp2.MAX_SIZE_GB,
        out_of_range=f"gp2 volumes are {gp2.MIN_SIZE_GB:,} to {gp2.MAX_SIZE_GB:,} GB, not "
        "%(value)s",
    )
    iops = integer_field(
        "The constant load, IOPS.",
        required=False,
        initial=gp2.DEFAULT_LOAD_IOPS,
        min_value=1,
        max_value=gp2.MAX_BASELINE_IOPS,
        out_of_range=f"the load is 1 to {gp2.MAX_BASELINE_IOPS:,} IOPS (the most a gp2 volume "
        "delivers), not %(value)s",
    )
    seconds = integer_field(
        "How long the timeline runs.",
        required=False,
        initial=gp2.DEFAULT_SECONDS,
        min_value=1,
        max_value=gp2.MAX_SECONDS,
        out_of_range=f"the timeline covers 1 to {gp2.MAX_SECONDS:,} seconds (30 days), not "
        "%(value)s",
    )

    def clean(self):
        cleaned = super().clean()
        if not self.errors:
            self.domain_check(gp2.gp2_burst, **self.selector_arguments())
        return cleaned

    def selector_arguments(self) -> dict:
        """The validated question as `gp2.gp2_burst`'s keywords."""
        data = self.cleaned_data
        iops, seconds = data.get("iops"), data.get("seconds")
        return {
            "size_gb": data["size_gb"],
            "iops": gp2.DEFAULT_LOAD_IOPS if iops is None else iops,
            "seconds": gp2.DEFAULT_SECONDS if seconds is None else seconds,
        }
