"""Azure's attested document (IMDS's `/metadata/attested/document`), checked offline: its
PKCS7 signature, and the signer's chain to Microsoft's roots bundled in certificates/.

IMDS answers `{"encoding": "pkcs7", "signature": BASE64}`; the PKCS7 carries the signed JSON
(`vmId`, `subscriptionId`, `nonce`, `timeStamp`...) and only its signer's certificate, so
the intermediates are bundled (`azure-ca-*.pem`) beside the roots (`azure-root-*.pem`).
cryptography's X.509 verifier builds the path at the document's signing time (its
`createdOn`), as a TLS client would for the signer's name, which must be metadata.azure.com
or one of its subdomains. The document must not have expired (`expiresOn`) when uploaded.
It names neither the VM's size nor its region: a proof says the uploader had that Azure VM.
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

from cryptography import x509
from cryptography.x509.oid import NameOID
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError
from django.conf import settings

from benchmarks.identity import pkcs7
from benchmarks.identity.proof import Identity, IdentityError

BUNDLED_DIR = Path(__file__).resolve().parent / "certificates"
# The names Azure's IMDS signs with (Microsoft's documentation lists them).
SIGNER_NAME = re.compile(r"^(?:[a-z0-9-]+\.)*metadata\.azure\.com$")
# As IMDS writes its time stamps: "07/28/26 13:24:00 -0000".
TIME_FORMAT = "%m/%d/%y %H:%M:%S %z"


def certificates_dir() -> Path:
    """The folder of Azure's roots and intermediates: PRICEBENCH_AZURE_CERTIFICATES_DIR, or
    the bundled one."""
    configured = getattr(settings, "PRICEBENCH_AZURE_CERTIFICATES_DIR", "")
    return Path(configured) if configured else BUNDLED_DIR


def azure_roots() -> tuple[x509.Certificate, ...]:
    """The roots an Azure signer must chain to (every `azure-root-*.pem`)."""
    return pkcs7.bundled(certificates_dir(), "azure-root-*.pem")


def azure_intermediates() -> tuple[x509.Certificate, ...]:
    """Microsoft's issuing CAs between the signer and a root (every `azure-ca-*.pem`)."""
    return pkcs7.bundled(certificates_dir(), "azure-ca-*.pem")


def verify_attested(proof: str, *, now: datetime.datetime | None = None) -> Identity:
    """The VM an attested document names; IdentityError when it does not verify or expired."""
    try:
        answer = json.loads(proof)
    except ValueError:
        raise IdentityError("the Azure attested document is not JSON as IMDS gives it") from None
    if not isinstance(answer, dict) or not isinstance(answer.get("signature"), str):
        raise IdentityError("the Azure attested document has no signature")
    if answer.get("encoding", "pkcs7") != "pkcs7":
        raise IdentityError(f"the Azure attested document's encoding {answer['encoding']!r}")
    signed = pkcs7.signed_data(answer["signature"])
    document, leaf, signed_at = pkcs7.verified(
        signed,
        "Azure",
        pkcs7.carried(signed),
        "the Azure identity proof does not carry its signer's certificate",
    )
    fields = _fields(document)
    created = _time(fields, "createdOn")
    expires = _time(fields, "expiresOn")
    _check_chain(leaf, at=signed_at or created)
    now = now or datetime.datetime.now(datetime.UTC)
    if expires <= now:
        raise IdentityError(
            f"the Azure attested document expired {expires.isoformat()} (expiresOn): ask "
            "IMDS for a new one"
        )
    return Identity(
        cloud="azure",
        instance_type=None,
        region=None,
        instance_id=str(fields.get("vmId") or ""),
        account=str(fields.get("subscriptionId") or ""),
        started_at=None,
        nonce=str(fields.get("nonce") or ""),
    )


def _fields(document: bytes) -> dict:
    try:
        fields = json.loads(document)
    except ValueError:
        fields = None
    if not isinstance(fields, dict) or not fields.get("vmId"):
        raise IdentityError("the Azure attested document is not as Azure writes it (no vmId)")
    return fields


def _time(fields: dict, name: str) -> datetime.datetime:
    text = (fields.get("timeStamp") or {}).get(name) if isinstance(fields, dict) else None
    try:
        return datetime.datetime.strptime(str(text), TIME_FORMAT)
    except ValueError:
        raise IdentityError(
            f"the Azure attested document's {name} {text!r} is not a time"
        ) from None


def _common_name(name: x509.Name) -> str:
    names = name.get_attributes_for_oid(NameOID.COMMON_NAME)
    return str(names[0].value) if names else name.rfc4514_string()


def _check_chain(leaf: x509.Certificate, *, at: datetime.datetime) -> None:
    """IdentityError unless the signer is metadata.azure.com and chains to a bundled root."""
    try:
        dns_names = leaf.extensions.get_extension_for_class(
            x509.SubjectAlternativeName
        ).value.get_values_for_type(x509.DNSName)
    except x509.ExtensionNotFound:
        dns_names = []
    # A wildcard name matches one label: the verifier is asked for a name under it.
    names = [name.replace("*", "attested", 1) for name in dns_names]
    signer_names = [name for name in names if SIGNER_NAME.match(name.lower())]
    if not signer_names:
        raise IdentityError(
            f"the Azure identity proof is signed by {_common_name(leaf.subject)}, not by "
            "metadata.azure.com"
        )
    roots, intermediates = azure_roots(), azure_intermediates()
    if leaf.issuer not in {certificate.subject for certificate in roots + intermediates}:
        raise IdentityError(
            f"the Azure identity proof's signer is issued by {_common_name(leaf.issuer)}, "
            "an issuer not bundled in benchmarks/identity/certificates/ (add Microsoft's "
            "published certificate there)"
        )
    verifier = (
        PolicyBuilder()
        .store(Store(list(roots)))
        .time(at)
        .build_server_verifier(x509.DNSName(signer_names[0]))
    )
    try:
        verifier.verify(leaf, list(intermediates))
    except VerificationError as error:
        raise IdentityError(
            f"the Azure identity proof's signer does not chain to Microsoft's roots at its "
            f"signing time {at.isoformat()}: {error}"
        ) from None
