"""AWS's instance identity document, checked through its PKCS7 signature (IMDS's
`/latest/dynamic/instance-identity/pkcs7` or `rsa2048`) against AWS's bundled certificates.

pkcs7.py reads the PKCS7 (CMS) signed data and checks the signature. The check is
OpenSSL's `smime -verify -certfile CERT -noverify`: the signer is found among AWS's published
certificates by issuer and serial number, the signed attributes' digest must be the
document's, and their signature must verify. The certificate is trusted because it is AWS's
published copy, so no chain is built; its validity is checked at the signing time the proof
carries, never today (a proof signed in 2016 by a certificate valid then stays valid).
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from cryptography import x509

from benchmarks.identity import pkcs7
from benchmarks.identity.proof import Identity, IdentityError

CERTIFICATES_DIR = Path(__file__).resolve().parent / "certificates"


def aws_certificates() -> tuple[x509.Certificate, ...]:
    """AWS's published certificates bundled in certificates/ (every `aws-*.pem`)."""
    return pkcs7.bundled(CERTIFICATES_DIR, "aws-*.pem")


def verify_pkcs7(proof: str) -> Identity:
    """The machine an AWS PKCS7 proof names; IdentityError when it does not verify."""
    document, certificate, signed_at = pkcs7.verified(
        pkcs7.signed_data(proof),
        "AWS",
        aws_certificates(),
        "the AWS identity proof is signed by a certificate that is not AWS's published one "
        "(serial {serial})",
    )
    if signed_at is not None and not (
        certificate.not_valid_before_utc <= signed_at <= certificate.not_valid_after_utc
    ):
        raise IdentityError(
            f"the AWS identity proof was signed {signed_at.isoformat()}, outside its "
            "certificate's validity"
        )
    return _identity(document)


def _identity(document: bytes) -> Identity:
    try:
        fields = json.loads(document)
        started = fields.get("pendingTime")
        started_at = (
            datetime.datetime.fromisoformat(started.replace("Z", "+00:00")) if started else None
        )
        return Identity(
            cloud="aws",
            instance_type=str(fields["instanceType"]),
            region=str(fields["region"]),
            instance_id=str(fields.get("instanceId") or ""),
            account=str(fields.get("accountId") or ""),
            started_at=started_at,
        )
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise IdentityError(f"the AWS identity document is not as AWS writes it: {error}") from None
