"""What every question's form shares: the benchmark's own parameters and errors as the API
answers them."""

from __future__ import annotations

import calendar
import datetime
import re

from django import forms

from benchmarks.errors import DomainError
from benchmarks.models import Vendor, family_spelling
from benchmarks.selectors.answer import lookups

# Query parameters that belong to the API's or the pages' machinery, never to a benchmark:
# `rows` is how many rows the comparison page writes (dashboard.forms.ShownRowsForm).
RESERVED = frozenset({"format", "limit", "offset", "page_size", "csrfmiddlewaretoken", "rows"})
MAX_PARAMS = 20
DATE_ERRORS = {"invalid": "Date has wrong format. Use YYYY-MM-DD."}
INTEGER_ERRORS = {"invalid": "A valid integer is required."}
CHOICE_ERRORS = {"invalid_choice": "%(value)s is not a valid choice."}
# A day as a question writes it, in ASCII digits (Python's own parsers also read other
# scripts' digits, `２０１７`, and `int()` reads `٣`: a question is written in 0-9).
DAY_TEXT = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
NUMBER_FIELDS = (forms.IntegerField, forms.FloatField, forms.DateField)
# `c7g`, `t2`, `u-6tb1`, `fargate`, `Dpsv6`, `cax`: what `family_of` gives a type or a task.
FAMILY_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]{0,31}")


def comma_list(value: str | None) -> tuple[str, ...]:
    """`a, b,,c` -> ("a", "b", "c")."""
    return tuple(item.strip() for item in (value or "").split(",") if item.strip())


def region_pairs(
    text: str | None, *, most: int | None = None, one_per_vendor: bool = False, also: str = ""
) -> tuple[tuple[str, str], ...]:
    """The (vendor, code) pairs `aws:eu-central-1,hcloud:fsn1` names, each once; a
    ValidationError naming an item not written vendor:region, more than `most` regions, or
    (`one_per_vendor`) two regions of one vendor. `also`: another example for the message."""
    pairs: list[tuple[str, str]] = []
    for item in comma_list(text):
        vendor, colon, code = item.partition(":")
        if not colon or vendor not in Vendor.values or not code:
            raise forms.ValidationError(
                f"{item[:60]!r}: write each region as vendor:region, the vendor one of "
                f"{', '.join(Vendor.values)} (e.g. aws:eu-central-1,hcloud:fsn1{also})"
            )
        other = next((c for v, c in pairs if v == vendor and c != code), None)
        if one_per_vendor and other is not None:
            raise forms.ValidationError(f"one region per vendor: {vendor}:{other} and {item[:60]}")
        if (vendor, code) not in pairs:
            pairs.append((vendor, code))
    if most is not None and len(pairs) > most:
        raise forms.ValidationError(f"at most {most} regions at once")
    return tuple(pairs)


def family_names(text: str, *, most: int) -> tuple[str, ...]:
    """The families a comma-separated list names, each once and spelt as its vendor writes it
    (`family_spelling`: Azure's `Dpsv6` as written, every other in lower case); a
    ValidationError for more than `most` of them or for a name no family has (FAMILY_NAME)."""
    families = tuple(dict.fromkeys(map(family_spelling, comma_list(text))))
    if len(families) > most:
        raise forms.ValidationError(f"at most {most} families")
    wrong = [family for family in families if not FAMILY_NAME.fullmatch(family)]
    if wrong:
        raise forms.ValidationError(
            f"{', '.join(repr(family[:40]) for family in wrong)}: not a family name "
            "(write it as the part of a type's name before the dot: c7g, t2; or fargate; "
            "another cloud's as it writes it: Dpsv6, n2, cax)"
        )
    return families


def families_field(most: int, help_text: str) -> forms.CharField:
    """Comma-separated families, at most `most` (`family_names` checks them); `pattern` says
    their shape as the OpenAPI schema gives it."""
    field = forms.CharField(required=False, max_length=2_000, help_text=help_text)
    name = FAMILY_NAME.pattern
    field.pattern = rf"^ *{name}(?: *, *{name}){{0,{most - 1}}} *$"
    return field


def choice_field(values, help_text: str = "", *, required: bool = False) -> forms.ChoiceField:
    """One of `values` (each its own label), refused in the API's words."""
    return forms.ChoiceField(
        choices=[(value, value) for value in values],
        required=required,
        help_text=help_text,
        error_messages=CHOICE_ERRORS,
    )


def joined_lists(data, names=("families", "regions")):
    """The page's family and cloud checkboxes send one value each (and for families an empty
    one, so that none ticked means every family), as do the finder's type ticks (`types`):
    one comma-separated list of each of `names`, as the API takes it."""
    for name in names:
        if hasattr(data, "getlist") and len(data.getlist(name)) > 1:
            data = data.copy()
            data.setlist(name, [",".join(v for v in data.getlist(name) if v)])
    return data


def day_error(text: str) -> str | None:
    """Why `text` is not a day written YYYY-MM-DD (in ASCII digits), or None when it is one:
    the wrong shape, or a day the calendar does not have (`2017-02-30`)."""
    shape = DAY_TEXT.fullmatch(text.strip())
    if shape is None:
        return DATE_ERRORS["invalid"]
    year, month, day = (int(part) for part in shape.groups())
    if not datetime.MINYEAR <= year <= datetime.MAXYEAR:
        return f"{DATE_ERRORS['invalid']} There is no year {year:04d}."
    if not 1 <= month <= 12:
        return f"{DATE_ERRORS['invalid']} There is no month {month:02d} (01 to 12)."
    days = calendar.monthrange(year, month)[1]
    if not 1 <= day <= days:
        name = datetime.date(year, month, 1).strftime("%B")
        return f"{text.strip()} does not exist: {name} {year} has days 01 to {days}."
    return None


class DayField(forms.DateField):
    """A day written YYYY-MM-DD in ASCII digits; one that does not exist (`2017-02-30`) is
    refused saying so, not as a wrong format."""

    def to_python(self, value):
        if isinstance(value, str) and value.strip():
            error = day_error(value)
            if error is not None:
                raise forms.ValidationError(error, code="invalid")
        return super().to_python(value)


def date_field(help_text: str = "", **options) -> forms.DateField:
    """An optional day, written YYYY-MM-DD."""
    return DayField(
        required=False,
        input_formats=["%Y-%m-%d"],
        help_text=help_text,
        error_messages=DATE_ERRORS,
        **options,
    )


def integer_field(help_text: str = "", *, out_of_range: str = "", **options) -> forms.IntegerField:
    """A whole number, refused in the API's words; `out_of_range` says why a number beyond its
    `min_value` or `max_value` is refused (`%(value)s` is the number)."""
    errors = dict(INTEGER_ERRORS)
    if out_of_range:
        errors.update(min_value=out_of_range, max_value=out_of_range)
    return forms.IntegerField(help_text=help_text, error_messages=errors, **options)


def param_names(data, fields) -> list[str]:
    """The query's parameters that are not the form's own: the benchmark's (`threads=16`)."""
    return [name for name in data if name not in fields and name not in RESERVED]


def non_ascii_numbers(form: forms.BaseForm) -> None:
    """Refuse, in `form`'s errors, each number or day not written in ASCII digits (`①`, `٣`,
    `２０１７-01-01`): Python reads some of those as numbers, and a question is written in 0-9.
    Call after the form is cleaned (`full_clean`)."""
    for name, field in form.fields.items():
        if not isinstance(field, NUMBER_FIELDS) or name not in form.data or name in form.errors:
            continue
        raw = form[name].data
        if not isinstance(raw, str) or not raw.strip() or raw.isascii():
            continue
        form.add_error(name, f"{raw[:40]!r} is not written in ASCII digits (0-9)")


class QuestionForm(forms.Form):
    """A question's form: errors as the API answers them, and in one line for a page. Every
    number and day is written in ASCII digits (`non_ascii_numbers`); a `region` field takes
    `vendor:region` (`hcloud:fsn1`) as well as a bare code."""

    def full_clean(self):
        super().full_clean()
        if self.is_bound:
            non_ascii_numbers(self)

    def clean_region(self) -> str:
        # `hcloud:fsn1`, as `regions=` names it, is fsn1 once its vendor is known to have it.
        try:
            return lookups.region_code(self.cleaned_data["region"])
        except DomainError as error:
            raise forms.ValidationError(error.message) from None

    def error_dict(self) -> dict[str, list[str]]:
        """The errors as the API answers them: {field: [message, ...]}."""
        return {
            ("detail" if name == "__all__" else name): [error["message"] for error in errors]
            for name, errors in self.errors.get_json_data().items()
        }

    def error_text(self) -> str:
        """Every error in one line, each named by its field, for a page."""
        return "; ".join(
            f"{name}: {' '.join(messages)}" if name != "detail" else " ".join(messages)
            for name, messages in self.error_dict().items()
        )

    def domain_check(self, check, *args, suffix: str = "", **kwargs):
        """`check(*args, **kwargs)`, or None with its DomainError added to the field it names
        (`suffix`: the field's row on a page of several, `_2`)."""
        try:
            return check(*args, **kwargs)
        except DomainError as error:
            self.add_error(f"{error.field}{suffix}" if error.field else None, error.message)
            return None


class QueryForm(QuestionForm):
    """A question's form whose unknown query parameters are the benchmark's own."""

    def __init__(self, data, *args, **kwargs):
        super().__init__(data, *args, **kwargs)
        self.params = {
            name: data.get(name) for name in param_names(data, self.fields) if data.get(name)
        }

    def checked_params(self) -> dict[str, str]:
        """`params`, bounded for a question that hands them on to the benchmark's check: at
        most MAX_PARAMS names (else a ValidationError), each name and value of a length an
        error can quote (else an error naming it, and the parameter left out). From `clean`."""
        names = param_names(self.data, self.fields)
        if len(names) > MAX_PARAMS:
            raise forms.ValidationError(f"at most {MAX_PARAMS} benchmark parameters")
        too_long = {name for name in names if len(name) > 100 or len(self.data.get(name, "")) > 200}
        for name in names:
            if name in too_long:
                self.add_error(None, f"parameter {name[:100]!r} is too long")
        return {name: value for name, value in self.params.items() if name not in too_long}
