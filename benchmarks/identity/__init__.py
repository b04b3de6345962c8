"""The clouds' signed identity proofs: which machine an upload ran on, checked offline.

An upload may carry the proof its machine's metadata service gives: AWS's PKCS7 signature of
the instance identity document (aws.py, against the certificates bundled in certificates/),
Azure's attested document (azure.py, its chain against Microsoft's roots bundled there too)
or Google Cloud's instance identity token (gcp.py, against Google's published keys). A proof
that verifies says the uploader had that instance (of that type, in that region, where the
proof names them); it says nothing of the figures. No ORM here:
services/identified_runs.py checks a proof before it stores a run (`verify.verify_identity`,
then `proof.check_identity`).
"""
