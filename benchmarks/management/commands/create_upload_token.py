"""`python manage.py create_upload_token USER`: an API token for uploads (creates the user)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = "Print the API token of USER for POST /api/v1/runs/, creating both if needed."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, **options):
        user, created = get_user_model().objects.get_or_create(username=options["username"])
        token, _ = Token.objects.get_or_create(user=user)
        if created:
            self.stderr.write(f"created user {user.username}")
        self.stdout.write(token.key)
