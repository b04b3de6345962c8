"""A certificate authority of our own shaped like Microsoft's (root -> issuing CA -> the
metadata.azure.com signer), and attested documents signed by it as Azure's IMDS signs them:
Microsoft's key cannot be had, so tests trust this root instead (PRICEBENCH_AZURE_CERTIFICATES_DIR).
"""

from __future__ import annotations

import base64
import datetime
import json
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs7
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

DAY = datetime.timedelta(days=1)


def _name(common_name: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Microsoft Corporation"),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        ]
    )


def _key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _certificate(subject, key, issuer, issuer_key, *, ca: bool, names=(), now, days=365):
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer.subject if issuer else subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - DAY)
        .not_valid_after(now + days * DAY)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=not ca,
                content_commitment=False,
                key_encipherment=not ca,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=ca,
                crl_sign=ca,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key((issuer_key or key).public_key()),
            critical=False,
        )
    )
    if not ca:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.DNSName(name) for name in names]), critical=False
        ).add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    return builder.sign(issuer_key or key, hashes.SHA256())


@dataclass
class AzurePki:
    """A root, an issuing CA and a signer, with the signer's key."""

    root: x509.Certificate
    intermediate: x509.Certificate
    signer: x509.Certificate
    signer_key: rsa.RSAPrivateKey

    @classmethod
    def make(
        cls,
        *,
        signer_names=("eastus.metadata.azure.com", "metadata.azure.com"),
        issuing_ca="Microsoft TLS G2 RSA CA OCSP 02",
        now: datetime.datetime | None = None,
    ) -> AzurePki:
        now = now or datetime.datetime.now(datetime.UTC)
        root_key, ca_key, signer_key = _key(), _key(), _key()
        root = _certificate(
            _name("Microsoft TLS RSA Root G2"), root_key, None, None, ca=True, now=now
        )
        intermediate = _certificate(_name(issuing_ca), ca_key, root, root_key, ca=True, now=now)
        signer = _certificate(
            _name(signer_names[-1]),
            signer_key,
            intermediate,
            ca_key,
            ca=False,
            names=signer_names,
            now=now,
            days=180,
        )
        return cls(root, intermediate, signer, signer_key)

    def bundle(self, directory: Path) -> Path:
        """The folder PRICEBENCH_AZURE_CERTIFICATES_DIR names: this root and issuing CA."""
        directory.mkdir(parents=True, exist_ok=True)
        pem = serialization.Encoding.PEM
        (directory / "azure-root-test.pem").write_bytes(self.root.public_bytes(pem))
        (directory / "azure-ca-test.pem").write_bytes(self.intermediate.public_bytes(pem))
        return directory

    def attested(self, *, nonce: str, created=None, expires=None, **fields) -> str:
        """IMDS's answer: the signed document, as Azure writes it, in its JSON envelope."""
        return envelope(
            self.sign(document(nonce=nonce, created=created, expires=expires, **fields))
        )

    def sign(self, content: bytes) -> bytes:
        """DER PKCS7 of `content`, without signed attributes (as Azure signs)."""
        return (
            pkcs7.PKCS7SignatureBuilder()
            .set_data(content)
            .add_signer(self.signer, self.signer_key, hashes.SHA256())
            .sign(
                serialization.Encoding.DER,
                [pkcs7.PKCS7Options.NoAttributes, pkcs7.PKCS7Options.Binary],
            )
        )


def _stamp(moment: datetime.datetime) -> str:
    return moment.strftime("%m/%d/%y %H:%M:%S -0000")


def document(*, nonce: str, created=None, expires=None, **fields) -> bytes:
    """The attested document's JSON, keys in Azure's order."""
    now = datetime.datetime.now(datetime.UTC)
    created = created or now - datetime.timedelta(minutes=1)
    expires = expires or created + datetime.timedelta(hours=6)
    body = {
        "licenseType": "",
        "nonce": nonce,
        "plan": {"name": "", "product": "", "publisher": ""},
        "sku": "",
        "subscriptionId": "8a205152-b25a-417f-a676-80465535a6c9",
        "timeStamp": {"createdOn": _stamp(created), "expiresOn": _stamp(expires)},
        "vmId": "b1310a36-d400-46f6-82cb-6217df846586",
        **fields,
    }
    return json.dumps(body, separators=(",", ":")).encode()


def envelope(der: bytes) -> str:
    return json.dumps({"encoding": "pkcs7", "signature": base64.b64encode(der).decode()})
