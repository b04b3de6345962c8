"""Forms of the pages that are not questions to a selector (those live in benchmarks.questions)."""

from django import forms


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


class ShownRowsForm(forms.Form):
    """`rows=` of the comparison page: the first rows as ranked (the default) or every row."""

    rows = forms.ChoiceField(required=False, choices=[("", ""), ("best", "best"), ("all", "all")])

    def everything(self) -> bool:
        return self.is_valid() and self.cleaned_data["rows"] == "all"
