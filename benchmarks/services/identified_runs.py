"""An upload that brings its machine's signed identity proof: the proof is checked before
anything is stored, and the run keeps what it names (benchmarks/identity/). An Azure proof's
nonce must be one this server issued to the uploading token (services/identity_nonces.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from benchmarks.identity.proof import check_identity
from benchmarks.identity.verify import verify_identity
from benchmarks.models import Run
from benchmarks.services import runs
from benchmarks.services.identity_nonces import nonce_refused, use_nonce


@transaction.atomic
def upload_identified_run(
    *,
    file,
    fields: Mapping[str, Any],
    identity: str = "",
    audience: str = "",
    more_files: list | tuple = (),
    uploaded_by=None,
    upload_token=None,
) -> tuple[Run, bool]:
    """`runs.upload_run`, with the cloud's identity proof when one is given.

    A proof that does not verify, names another type or region than `fields`, or started
    after the run was measured raises IdentityError (400) and nothing is stored. `audience`
    is the address a Google token must be made out to. An Azure proof uses up its nonce in
    this transaction: a refused upload writes nothing, so its nonce stays usable; the upload
    that used it, sent again, is answered with its run.
    """
    proof, fresh = None, True
    if identity.strip():
        proof = verify_identity(identity, audience=audience)
        check_identity(
            proof,
            instance_type=fields.get("instance_type") or None,
            region=fields.get("region") or None,
            measured_at=fields.get("measured_at"),
        )
        if proof.nonce is not None:
            fresh = use_nonce(value=proof.nonce, upload_token=upload_token)
    run, created = runs.upload_run(
        file=file,
        fields=fields,
        more_files=more_files,
        uploaded_by=uploaded_by,
        upload_token=upload_token,
    )
    if not fresh:
        # A nonce used already: only the re-sending of the upload that used it (its answer
        # lost on the way back) is answered, with the run it stored; anything new is refused
        # and, raised in this transaction, leaves nothing stored.
        if created or run.verified_instance_id != proof.instance_id[:100]:
            raise nonce_refused(proof.nonce, "it was used by an earlier upload")
        return run, created
    if proof is not None:
        run.verified_by = proof.cloud
        run.verified_instance_type = proof.instance_type or ""
        run.verified_region = proof.region or ""
        run.verified_instance_id = proof.instance_id[:100]
        run.verified_account = proof.account[:100]
        run.save(
            update_fields=[
                "verified_by",
                "verified_instance_type",
                "verified_region",
                "verified_instance_id",
                "verified_account",
            ]
        )
    return run, created
