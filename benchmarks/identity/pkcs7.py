"""PKCS7 (CMS) signed data as AWS and Azure sign their identity documents: read with
asn1crypto, the signature checked with cryptography (which verifies no PKCS7 itself).

Each function takes the cloud's name (`AWS`, `Azure`) for its messages only.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import functools
import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from asn1crypto import cms, pem
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import dsa, ec, padding, rsa

from benchmarks.identity.proof import IdentityError

HASHES = {"sha1": hashes.SHA1, "sha256": hashes.SHA256, "sha384": hashes.SHA384}
# Azure names its digest by the signature's algorithm (sha256WithRSAEncryption), an OID
# asn1crypto does not read as a digest.
_DIGEST_OF_SIGNATURE = {
    "1.2.840.113549.1.1.5": "sha1",
    "1.2.840.113549.1.1.11": "sha256",
    "1.2.840.113549.1.1.12": "sha384",
}


def signed_data(proof: str) -> cms.SignedData:
    """The PKCS7 signed data of a proof: PEM, or base64 without armour (in lines or not)."""
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


def only_signer(signed: cms.SignedData, cloud: str) -> cms.SignerInfo:
    """The proof's one signer, named by issuer and serial number."""
    signers = list(signed["signer_infos"])
    if len(signers) != 1:
        raise IdentityError(f"the {cloud} identity proof has {len(signers)} signers, not one")
    if signers[0]["sid"].name != "issuer_and_serial_number":
        raise IdentityError(f"the {cloud} identity proof names its signer by key id, not by issuer")
    return signers[0]


def digest_name(signer: cms.SignerInfo, cloud: str) -> str:
    """`sha1`, `sha256` or `sha384`: the digest the signer used."""
    name = signer["digest_algorithm"]["algorithm"].native
    name = _DIGEST_OF_SIGNATURE.get(name, name)
    if name not in HASHES:
        raise IdentityError(f"the {cloud} identity proof's digest {name} is not one {cloud} uses")
    return name


def signed_attributes(
    signer: cms.SignerInfo, document: bytes, digest: str, cloud: str
) -> tuple[bytes, datetime.datetime | None]:
    """(the bytes the signature covers, the signing time), after checking the digest."""
    attributes = signer["signed_attrs"]
    if not attributes:
        return document, None
    values = {attribute["type"].native: attribute["values"].native for attribute in attributes}
    if values.get("message_digest") != [hashlib.new(digest, document).digest()]:
        raise IdentityError(f"the {cloud} identity proof does not verify: its document was changed")
    signed_at = (values.get("signing_time") or [None])[0]
    # The signature covers the attributes' DER as a SET, not as the [0] they are tagged with.
    encoded = attributes.dump()
    return b"\x31" + encoded[1:], signed_at


def check_signature(
    certificate: x509.Certificate, signature: bytes, data: bytes, digest: str, cloud: str
) -> None:
    """IdentityError unless `signature` is the certificate's key's over `data`."""
    key = certificate.public_key()
    algorithm = HASHES[digest]()
    try:
        if isinstance(key, rsa.RSAPublicKey):
            key.verify(signature, data, padding.PKCS1v15(), algorithm)
        elif isinstance(key, dsa.DSAPublicKey):
            key.verify(signature, data, algorithm)
        elif isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(signature, data, ec.ECDSA(algorithm))
        else:
            raise IdentityError(
                f"the {cloud} certificate's key is of a kind {cloud} does not sign with"
            )
    except InvalidSignature:
        raise IdentityError(f"the {cloud} identity proof does not verify: bad signature") from None


@functools.cache
def bundled(directory: Path, pattern: str) -> tuple[x509.Certificate, ...]:
    """The certificates of every PEM file in `directory` matching `pattern`, read once."""
    return tuple(
        certificate
        for path in sorted(directory.glob(pattern))
        for certificate in x509.load_pem_x509_certificates(path.read_bytes())
    )


def carried(signed: cms.SignedData) -> list[x509.Certificate]:
    """The certificates the proof carries itself."""
    return [
        x509.load_der_x509_certificate(choice.chosen.dump())
        for choice in signed["certificates"] or []
        if choice.name == "certificate"
    ]


class Verified(NamedTuple):
    """A signature that verified: the document it covers, its signer's certificate and the
    signing time the proof carries (None without one)."""

    document: bytes
    certificate: x509.Certificate
    signed_at: datetime.datetime | None


def verified(
    signed: cms.SignedData,
    cloud: str,
    certificates: Iterable[x509.Certificate],
    unknown_signer: str,
) -> Verified:
    """The document, once its one signer (found among `certificates` by issuer and serial
    number; else IdentityError `unknown_signer`) is shown to have signed it."""
    document = signed["encap_content_info"]["content"].native
    if not isinstance(document, bytes) or not document:
        raise IdentityError(f"the {cloud} identity proof carries no document")
    signer = only_signer(signed, cloud)
    sid = signer["sid"].chosen
    issuer, serial = sid["issuer"].dump(), sid["serial_number"].native
    certificate = next(
        (
            known
            for known in certificates
            if known.serial_number == serial and known.issuer.public_bytes() == issuer
        ),
        None,
    )
    if certificate is None:
        raise IdentityError(unknown_signer.format(serial=serial))
    digest = digest_name(signer, cloud)
    signed_bytes, signed_at = signed_attributes(signer, document, digest, cloud)
    check_signature(certificate, signer["signature"].native, signed_bytes, digest, cloud)
    return Verified(document, certificate, signed_at)
