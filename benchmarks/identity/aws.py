"""AWS's instance identity document, checked through its PKCS7 signature (IMDS's
`/latest/dynamic/instance-identity/pkcs7` or `rsa2048`) against AWS's bundled certificates.

asn1crypto reads the PKCS7 (CMS) signed data, cryptography checks the signature. The check is
OpenSSL's `smime -verify -certfile CERT -noverify`: the signer is found among AWS's published
certificates by issuer and serial number, the signed attributes' digest must be the
document's, and their signature must verify. The certificate is trusted because it is AWS's
published copy, so no chain is built; its validity is checked at the signing time the proof
carries, never today (a proof signed in 2016 by a certificate valid then stays valid).
"""

from __future__ import annotations

import base64
import binascii
import datetime
import functools
import hashlib
import json
from pathlib import Path

from asn1crypto import cms, pem
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import dsa, ec, padding, rsa

from benchmarks.identity import Identity, IdentityError

CERTIFICATES_DIR = Path(__file__).resolve().parent / "certificates"

_HASHES = {"sha1": hashes.SHA1, "sha256": hashes.SHA256, "sha384": hashes.SHA384}


@functools.cache
def aws_certificates() -> tuple[x509.Certificate, ...]:
    """AWS's published certificates bundled in certificates/ (every `aws-*.pem`)."""
    return tuple(
        certificate
        for path in sorted(CERTIFICATES_DIR.glob("aws-*.pem"))
        for certificate in x509.load_pem_x509_certificates(path.read_bytes())
    )


def verify_pkcs7(proof: str) -> Identity:
    """The machine an AWS PKCS7 proof names; IdentityError when it does not verify."""
    signed = _signed_data(proof)
    document = signed["encap_content_info"]["content"].native
    if not isinstance(document, bytes) or not document:
        raise IdentityError("the AWS identity proof carries no document")
    signers = list(signed["signer_infos"])
    if len(signers) != 1:
        raise IdentityError(f"the AWS identity proof has {len(signers)} signers, not one")
    signer = signers[0]
    certificate = _signer_certificate(signer)
    digest_name = signer["digest_algorithm"]["algorithm"].native
    if digest_name not in _HASHES:
        raise IdentityError(f"the AWS identity proof's digest {digest_name} is not one AWS uses")
    signed_bytes, signed_at = _signed_attributes(signer, document, digest_name)
    _check_signature(certificate, signer["signature"].native, signed_bytes, digest_name)
    if signed_at is not None and not (
        certificate.not_valid_before_utc <= signed_at <= certificate.not_valid_after_utc
    ):
        raise IdentityError(
            f"the AWS identity proof was signed {signed_at.isoformat()}, outside its "
            "certificate's validity"
        )
    return _identity(document)


def _signed_data(proof: str) -> cms.SignedData:
    data = proof.strip().encode("ascii", "replace")
    try:
        if pem.detect(data):
            _, _, der = pem.unarmor(data)
        else:
            # IMDS gives the base64 without armour, in lines.
            der = base64.b64decode(b"".join(data.split()), validate=True)
        info = cms.ContentInfo.load(der)
        if info["content_type"].native != "signed_data":
            raise IdentityError("the identity proof is not PKCS7 signed data")
        signed = info["content"]
        signed.native  # noqa: B018 (parses the whole structure now, not lazily later)
    except IdentityError:
        raise
    except (ValueError, TypeError, binascii.Error) as error:
        raise IdentityError(f"the identity proof is not a PKCS7 signature: {error}") from None
    return signed


def _signer_certificate(signer: cms.SignerInfo) -> x509.Certificate:
    sid = signer["sid"]
    if sid.name != "issuer_and_serial_number":
        raise IdentityError("the AWS identity proof names its signer by key id, not by issuer")
    issuer = sid.chosen["issuer"].dump()
    serial = sid.chosen["serial_number"].native
    for certificate in aws_certificates():
        if certificate.serial_number == serial and certificate.issuer.public_bytes() == issuer:
            return certificate
    raise IdentityError(
        "the AWS identity proof is signed by a certificate that is not AWS's published one "
        f"(serial {serial})"
    )


def _signed_attributes(
    signer: cms.SignerInfo, document: bytes, digest_name: str
) -> tuple[bytes, datetime.datetime | None]:
    """(the bytes the signature covers, the signing time), after checking the digest."""
    attributes = signer["signed_attrs"]
    if not attributes:
        return document, None
    values = {attribute["type"].native: attribute["values"].native for attribute in attributes}
    if values.get("message_digest") != [hashlib.new(digest_name, document).digest()]:
        raise IdentityError("the AWS identity proof does not verify: its document was changed")
    signed_at = (values.get("signing_time") or [None])[0]
    # The signature covers the attributes' DER as a SET, not as the [0] they are tagged with.
    encoded = attributes.dump()
    return b"\x31" + encoded[1:], signed_at


def _check_signature(
    certificate: x509.Certificate, signature: bytes, data: bytes, digest_name: str
) -> None:
    key = certificate.public_key()
    algorithm = _HASHES[digest_name]()
    try:
        if isinstance(key, rsa.RSAPublicKey):
            key.verify(signature, data, padding.PKCS1v15(), algorithm)
        elif isinstance(key, dsa.DSAPublicKey):
            key.verify(signature, data, algorithm)
        elif isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(signature, data, ec.ECDSA(algorithm))
        else:
            raise IdentityError("the AWS certificate's key is of a kind AWS does not sign with")
    except InvalidSignature:
        raise IdentityError("the AWS identity proof does not verify: bad signature") from None


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
