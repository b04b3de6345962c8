"""Plain DRF tokens (authtoken_token.key) become upload tokens stored as digests.

Every key keeps working (its digest is stored) and the plain row is deleted, so no key stays
readable in the database. Not reversible: the keys are gone.
"""

import hashlib

from django.db import migrations


def hash_plain_tokens(apps, schema_editor):
    Token = apps.get_model("authtoken", "Token")
    UploadToken = apps.get_model("api", "UploadToken")
    for token in Token.objects.all():
        upload_token = UploadToken.objects.create(
            user_id=token.user_id,
            name="migrated from a plain token",
            digest=hashlib.sha256(token.key.encode()).hexdigest(),
            prefix=token.key[:8],
        )
        # Keep the plain token's creation date rather than the migration's.
        UploadToken.objects.filter(pk=upload_token.pk).update(created_at=token.created)
    Token.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("api", "0001_upload_token"),
        ("authtoken", "0004_alter_tokenproxy_options"),
    ]

    operations = [migrations.RunPython(hash_plain_tokens, migrations.RunPython.noop)]
