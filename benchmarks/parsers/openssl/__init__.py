"""`openssl speed` output -> ParsedOutput.

Reads what OpenSSL 1.0.2, 1.1.1 and 3.x print:
- the tables: `type 16 bytes 64 bytes ...` followed by rows of thousands of bytes per second
  (suffix `k`; OpenSSL prints figures of 10000 or less without it, in bytes per second), and
  the asymmetric tables (`sign/s verify/s`, `encr./s decr./s`, `op/s`);
- the `-mr` records (`+H` block sizes, `+F` ciphers and digests, `+F2`..`+F8` asymmetric),
  bare or as the `Got: ... from N` lines that the parent of `-multi N` prints for each child
  before its total. A total is used when there is one; otherwise the children's figures are
  summed.

Benchmark keys, always `openssl:` and lower case:
- ciphers and digests: the row's name with spaces turned into dashes (`openssl:aes-256-cbc`,
  `openssl:sha256`, `openssl:hmac(md5)`; 1.0.2's `aes-128 cbc` becomes `openssl:aes-128-cbc`);
  params `block_size` (bytes) and `processes`; unit `B/s`.
- rsa, dsa and finite-field DH by key size: `openssl:rsa2048`, `openssl:dsa2048`,
  `openssl:ffdh2048`; ecdsa, ecdh and eddsa by the curve OpenSSL names:
  `openssl:ecdsa-nistp256`, `openssl:ecdh-x25519`, `openssl:eddsa-ed25519`; and
  `openssl:sm2`. Params `op` (sign, verify, encrypt, decrypt, derive) and `processes`; unit
  `op/s`.
`processes` is the number of `-multi` children (1 without `-multi`); values are totals over
all of them. `-multi -evp` tables name the row `evp`: the key stays `openssl:evp` (with a
warning) unless the children's lines name the algorithm.

Also reads Spare Cores' own parse of such a run (`parsed.json`): a JSON list of
`{"algo", "block_size", "speed"}`, speed in bytes per second summed over all processes. It
gives the same keys and params as the raw output of the same run; it does not record how
many processes ran (`-multi N`), so the caller passes `processes` (Spare Cores run one per
vCPU); without it `processes` is left out and a warning says so.
"""

from __future__ import annotations

import re

from benchmarks.parsers.base import ParsedOutput
from benchmarks.parsers.openssl import parsed_json
from benchmarks.parsers.openssl.figures import FORMAT
from benchmarks.parsers.openssl.reader import Reader

__all__ = ["CALLER_SUPPLIED", "FORMAT", "looks_like", "parse"]

CALLER_SUPPLIED = ("processes",)

_SIGNATURE = re.compile(
    r"^\s*OpenSSL \d+\.\d+\.\d+|^version: \d|^type(?:\s+\d+ bytes)+\s*$|^(?:Got: )?\+(?:H|F\d*):"
    r"|^ALGO: |sign/s verify/s\s*$",
    re.MULTILINE,
)


def looks_like(text: str) -> bool:
    """True when the text carries a mark only `openssl speed` prints, or is Spare Cores'
    parsed.json of such a run."""
    return _SIGNATURE.search(text) is not None or parsed_json.looks_like(text)


def parse(text: str, *, processes: int | None = None) -> ParsedOutput:
    """Read `openssl speed` output (tables or -mr records, with or without -multi), or Spare
    Cores' parsed.json of it; `processes` is the `-multi` count, for parsed.json."""
    if processes is not None and processes < 1:
        raise ValueError(f"processes must be a positive whole number, not {processes!r}")
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith("["):
        return parsed_json.parse(text, processes)
    reader = Reader()
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        reader.read(number, line.strip())
    output = reader.finish(last_line=len(lines))
    shown = {result.params["processes"] for result in output.results}
    if processes is not None and shown != {processes}:
        output.warnings.append(
            f"the output shows {' and '.join(map(str, sorted(shown)))} processes; "
            f"the processes given ({processes}) were not used"
        )
    return output
