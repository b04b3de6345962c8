"""`python manage.py revoke_upload_token NAME|PREFIX [--all]` and `--list`: revoke upload
tokens, or list them (never their keys)."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from api.models import UploadToken
from api.tokens import revoke_upload_tokens, tokens_matching

# --list's columns: heading and width.
COLUMNS = [
    ("prefix", 8),
    ("user", 20),
    ("name", 20),
    ("created", 16),
    ("expires", 16),
    ("revoked", 16),
    ("last used", 16),
    ("state", 7),
]


def when(moment) -> str:
    return f"{moment:%Y-%m-%d %H:%M}" if moment else "-"


def line(values: list[str]) -> str:
    return "  ".join(
        f"{value[:width]:<{width}}" for value, (_, width) in zip(values, COLUMNS, strict=True)
    ).rstrip()


def described(token: UploadToken) -> str:
    return f"{token.prefix}… ({token.user.username}, {token.name or 'no name'})"


class Command(BaseCommand):
    help = (
        "Revoke the upload token named by its key's first characters (4 or more), its name or "
        "its user; --list shows tokens (all, or those matching) without their keys."
    )

    def add_arguments(self, parser):
        parser.add_argument("token", nargs="?", metavar="NAME|PREFIX")
        parser.add_argument(
            "--all", action="store_true", help="revoke every active token that matches"
        )
        parser.add_argument("--list", action="store_true", help="list tokens and their state")

    def handle(self, *args, **options):
        text = options["token"]
        if options["list"]:
            return self.list_tokens(text)
        if not text:
            raise CommandError("name the token to revoke (its prefix, name or user), or --list")
        now = timezone.now()
        matching = [token for token in tokens_matching(text) if token.state(now) == "active"]
        if not matching:
            raise CommandError(f"no active token matches {text!r} (see --list)")
        if len(matching) > 1 and not options["all"]:
            raise CommandError(
                f"{len(matching)} active tokens match {text!r}: "
                f"{', '.join(described(token) for token in matching)}; "
                "give a longer prefix, or --all to revoke them all"
            )
        revoke_upload_tokens(UploadToken.objects.filter(pk__in=[t.pk for t in matching]))
        for token in matching:
            self.stdout.write(f"revoked {described(token)}")

    def list_tokens(self, text: str | None) -> None:
        tokens = tokens_matching(text) if text else UploadToken.objects.select_related("user")
        now = timezone.now()
        self.stdout.write(line([heading for heading, _ in COLUMNS]))
        for token in tokens.order_by("created_at", "pk"):
            self.stdout.write(
                line(
                    [
                        token.prefix,
                        token.user.username,
                        token.name or "-",
                        when(token.created_at),
                        when(token.expires_at),
                        when(token.revoked_at),
                        when(token.last_used_at),
                        token.state(now),
                    ]
                )
            )
