"""What a verified identity proof says of its machine, and whether it names the upload's: the
types the clouds' checkers return and the one error they raise."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from benchmarks.errors import DomainError

FIELD = "identity"
# The clouds as the answers name them.
CLOUD_NAMES = {"aws": "AWS", "azure": "Azure", "gcp": "Google Cloud"}


class IdentityError(DomainError):
    """A proof that does not verify, or that names another machine than the upload."""

    def __init__(self, message: str):
        super().__init__(message, field=FIELD)


@dataclass(frozen=True)
class Identity:
    """What a verified proof says of its machine; None where the proof does not say."""

    cloud: str  # "aws", "azure", "gcp"
    instance_type: str | None
    region: str | None
    instance_id: str
    account: str
    started_at: datetime.datetime | None
    # The nonce the proof was asked with (Azure's): one the server issued, used once.
    nonce: str | None = None


def check_identity(
    identity: Identity,
    *,
    instance_type: str | None,
    region: str | None,
    measured_at: datetime.date | None,
) -> None:
    """IdentityError unless the proof names the upload's machine and was made before it ran.

    A proof names what it can: AWS's the type and region, Google's the region (its token does
    not name the machine type), Azure's neither (only the VM and its subscription). A run
    measured before the instance started is refused too.
    """
    if instance_type is None:
        raise IdentityError("an identity proof names one machine: give instance_type and region")
    if identity.instance_type is not None and identity.instance_type != instance_type:
        raise IdentityError(
            f"the {CLOUD_NAMES[identity.cloud]} identity proof names instance type "
            f"{identity.instance_type}, "
            f"the upload {instance_type}"
        )
    if identity.region is not None and identity.region != region:
        raise IdentityError(
            f"the {CLOUD_NAMES[identity.cloud]} identity proof names region {identity.region}, "
            f"the upload {region}"
        )
    if identity.started_at is not None and measured_at is not None:
        if measured_at < identity.started_at.date():
            raise IdentityError(
                f"measured_at {measured_at.isoformat()} is before the instance started "
                f"({identity.started_at.isoformat()}, the proof's pendingTime)"
            )
