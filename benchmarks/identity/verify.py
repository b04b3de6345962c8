"""Which cloud's checker reads a proof: the one entry point, dispatching on its form."""

from __future__ import annotations

from benchmarks.identity.proof import Identity


def verify_identity(proof: str, *, audience: str) -> Identity:
    """The machine a proof names, once its signature verifies; IdentityError otherwise.

    `audience`: the address Google's token must be made out to (this server's).
    """
    text = proof.strip()
    if text.startswith("eyJ") and text.count(".") == 2:
        from benchmarks.identity import gcp

        return gcp.verify_token(text, audience=audience)
    if text.startswith("{"):
        from benchmarks.identity import azure

        return azure.verify_attested(text)
    from benchmarks.identity import aws

    return aws.verify_pkcs7(text)
