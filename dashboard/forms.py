"""Forms that validate the pages' query parameters."""

from django import forms

from benchmarks.models import PurchaseOption
from benchmarks.selectors import DEFAULT_FAMILIES


class ComparisonForm(forms.Form):
    """The chart page's choices; every other query parameter is one of the benchmark's own
    (`block_size=8192`), as in the API."""

    benchmark = forms.CharField(required=False)
    region = forms.CharField(required=False, initial="us-east-1")
    purchase_option = forms.ChoiceField(
        choices=PurchaseOption.choices, required=False, initial=PurchaseOption.ON_DEMAND
    )
    at = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    families = forms.CharField(required=False, initial=",".join(DEFAULT_FAMILIES))
    baseline = forms.CharField(required=False, help_text="INSTANCE_TYPE or INSTANCE_TYPE:VARIANT")

    def __init__(self, data, *args, **kwargs):
        super().__init__(data, *args, **kwargs)
        self.param_names = sorted(name for name in data if name not in self.fields)
        for name in self.param_names:
            self.fields[name] = forms.CharField(required=False)

    def cleaned_params(self) -> dict[str, str]:
        return {
            name: self.cleaned_data[name] for name in self.param_names if self.cleaned_data[name]
        }

    def cleaned_families(self) -> list[str] | None:
        """The families to show: None (the default five) when not asked, [] (all) when blank."""
        if "families" not in self.data:
            return None
        raw = self.cleaned_data.get("families") or ""
        return [family.strip() for family in raw.split(",") if family.strip()]


class UploadForm(forms.Form):
    """The web upload: a file and the machine it ran on (a table names its own machines)."""

    file = forms.FileField()
    instance_type = forms.CharField(
        required=False,
        help_text="The AWS name (c7g.large) or a Fargate size (fargate-1vcpu-2gb).",
        widget=forms.TextInput(attrs={"list": "instance-types", "autocomplete": "off"}),
    )
    region = forms.CharField(
        required=False, widget=forms.TextInput(attrs={"list": "regions", "autocomplete": "off"})
    )
    variant = forms.CharField(required=False, max_length=100)
    measured_at = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    format = forms.ChoiceField(choices=[], initial="auto")

    def __init__(self, *args, formats: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["format"].choices = [(name, name) for name in ["auto", *formats]]
