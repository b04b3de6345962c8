"""`python manage.py create_upload_token USER [--name N] [--expires-in DAYS]`: a new API token
for uploads (creates the user); its key alone on the last line."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from api.tokens import DEFAULT_EXPIRY, create_upload_token, expiry_after


def days(text: str) -> int:
    """A whole number of days, 0 or more (argparse's type)."""
    try:
        value = int(text)
    except ValueError:
        raise CommandError(f"--expires-in {text!r}: give a whole number of days") from None
    if value < 0:
        raise CommandError(f"--expires-in {value}: give 0 (never) or more days")
    return value


class Command(BaseCommand):
    help = (
        "Create an API token for USER (creating the user if needed) and print its key, "
        "which is stored only as a digest: it cannot be shown again."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="", help="what the token is for")
        parser.add_argument(
            "--expires-in",
            type=days,
            default=None,
            metavar="DAYS",
            help="days the token works (0: until revoked); default PRICEBENCH_UPLOAD_TOKEN_DAYS",
        )

    def handle(self, *args, **options):
        user, created = get_user_model().objects.get_or_create(username=options["username"])
        if created:
            self.stderr.write(f"created user {user.username}")
        given = options["expires_in"]
        token, key = create_upload_token(
            user=user,
            name=options["name"],
            expires_at=DEFAULT_EXPIRY if given is None else expiry_after(given),
        )
        until = (
            f"expires {token.expires_at:%Y-%m-%d %H:%M} UTC" if token.expires_at else "no expiry"
        )
        self.stderr.write(
            f"token {token.prefix}… created ({until}); its key is printed once, keep it"
        )
        self.stdout.write(key)
