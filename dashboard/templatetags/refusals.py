"""A refused parameter said beside its control: what was sent, and why it was refused.

`{% refusal "basis" %}` writes the refusal of `basis` from the page's `errors` ({parameter:
[message, ...]}, as the API answers them) and notes it said; `{% other_refusals %}`, after the
controls, says each refusal no control on the page said, so none is silent."""

from django import template
from django.utils.html import format_html, format_html_join

register = template.Library()

# The longest value repeated in a refusal: a list of hundreds of families is cut.
SHOWN_VALUE_LENGTH = 60
# Refusals a page says in their own place, not beside a control.
OWN_PLACE = ("detail",)


def refusal_text(name: str, messages: list[str], sent: str) -> str:
    """'basis=bogus refused: bogus is not a valid choice.'; 'region: ...' when nothing was sent."""
    if not sent:
        return f"{name}: {' '.join(messages)}"
    if len(sent) > SHOWN_VALUE_LENGTH:
        sent = sent[: SHOWN_VALUE_LENGTH - 1] + "…"
    return f"{name}={sent} refused: {' '.join(messages)}"


def _sent(context, name: str) -> str:
    request = context.get("request")
    return ",".join(value for value in request.GET.getlist(name) if value) if request else ""


def _said(context) -> set[str]:
    return context.render_context.setdefault("refusals_said", set())


@register.simple_tag(takes_context=True)
def refusal(context, name: str) -> str:
    """The refusal of parameter `name`, beside its control ('' when it was taken)."""
    messages = (context.get("errors") or {}).get(name)
    if not messages:
        return ""
    _said(context).add(name)
    return format_html(
        '<span class="error" role="alert" data-refused="{}">{}</span>',
        name,
        refusal_text(name, messages, _sent(context, name)),
    )


@register.simple_tag(takes_context=True)
def other_refusals(context, *own_places: str) -> str:
    """Each refusal not said beside a control so far, nor in one of `own_places` (parameters
    the page says elsewhere, as `rows` at its table), in one list."""
    said = _said(context) | set(OWN_PLACE) | set(own_places)
    left = [
        (name, refusal_text(name, messages, _sent(context, name)))
        for name, messages in (context.get("errors") or {}).items()
        if messages and name not in said
    ]
    if not left:
        return ""
    return format_html(
        '<ul class="error" role="alert" id="other-refusals">{}</ul>',
        format_html_join("", '<li data-refused="{}">{}</li>', left),
    )
