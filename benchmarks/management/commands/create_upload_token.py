"""`python manage.py create_upload_token USER`: a new API token for uploads (creates the user)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from api.tokens import create_upload_token


class Command(BaseCommand):
    help = (
        "Create an API token for USER (creating the user if needed) and print its key, "
        "which is stored only as a digest: it cannot be shown again."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="", help="what the token is for")

    def handle(self, *args, **options):
        user, created = get_user_model().objects.get_or_create(username=options["username"])
        if created:
            self.stderr.write(f"created user {user.username}")
        token, key = create_upload_token(user=user, name=options["name"])
        self.stderr.write(f"token {token.prefix}… created; its key is printed once, keep it")
        self.stdout.write(key)
