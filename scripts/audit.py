"""Known vulnerabilities in our pinned dependencies: pip-audit and npm audit, with our policy.

Policy (docs/guide.md, "Dependency audit"): any known vulnerability of a Python package
fails (PyPI's data carries no severity); an npm advisory of severity high or critical
fails, moderate and low are printed. An advisory we accept is listed in audit-accepted.txt
with a review date; past that date it fails again. When a vulnerability service cannot be
reached the audit of that ecosystem is SKIPPED with the reason printed, never passed
silently.

Exit status: 0 clean (or skipped), 1 a vulnerability the policy refuses, 2 the audit broke.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ACCEPTED_FILE = ROOT / "audit-accepted.txt"
# pip-audit asks this endpoint, per package and version.
PYPI_PROBE = "https://pypi.org/pypi/django/5.2/json"
NPM_FAILING = {"high", "critical"}
NPM_UNREACHABLE_CODES = {"ENOTFOUND", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EAI_AGAIN"}


class AuditBroke(Exception):
    """The audit could not run for a reason other than an unreachable service."""


class ServiceUnreachable(Exception):
    """A vulnerability service could not be reached: that audit is skipped, loudly."""


@dataclass(frozen=True)
class Finding:
    """One advisory affecting one package."""

    ecosystem: str
    package: str
    version: str
    ids: tuple[str, ...]
    severity: str
    detail: str

    def line(self) -> str:
        return f"{self.ecosystem} {self.package} {self.version}: {', '.join(self.ids)} " \
               f"[{self.severity}] {self.detail}"  # fmt: skip


def read_accepted(text: str, *, today: datetime.date) -> tuple[set[str], list[str]]:
    """Accepted advisory ids still under review, and complaints about expired or bad lines.

    Each line: `ID REVIEW-BY-DATE reason...`; `#` starts a comment.
    """
    accepted, complaints = set(), []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 2)
        if len(parts) < 3:
            complaints.append(f"audit-accepted.txt line {number}: want `ID YYYY-MM-DD reason`")
            continue
        advisory, review_by, _reason = parts
        try:
            until = datetime.date.fromisoformat(review_by)
        except ValueError:
            complaints.append(f"audit-accepted.txt line {number}: {review_by!r} is not a date")
            continue
        if until < today:
            complaints.append(
                f"audit-accepted.txt line {number}: {advisory} was accepted until {until}: "
                "review it (upgrade, or accept again with a new date and reason)"
            )
            continue
        accepted.add(advisory)
    return accepted, complaints


def pip_findings(report: dict) -> list[Finding]:
    """Findings from `pip-audit --format json`; a package it could not audit is an error.

    pip-audit "skips" a package whose data it cannot fetch and then reports no
    vulnerability: counting that as clean would pass an audit that never happened.
    """
    skipped = [package for package in report["dependencies"] if package.get("skip_reason")]
    if skipped and len(skipped) == len(report["dependencies"]):
        raise ServiceUnreachable(f"pip-audit could audit no package: {skipped[0]['skip_reason']}")
    if skipped:
        names = ", ".join(f"{package['name']} ({package['skip_reason']})" for package in skipped)
        raise AuditBroke(f"pip-audit could not audit: {names}")
    return [
        Finding(
            "python",
            dependency["name"],
            dependency["version"],
            (vuln["id"], *vuln.get("aliases", [])),
            "unrated",
            f"fixed in {', '.join(vuln.get('fix_versions') or ['no release yet'])}",
        )
        for dependency in report["dependencies"]
        for vuln in dependency.get("vulns", [])
    ]


def npm_findings(report: dict) -> list[Finding]:
    """Findings from `npm audit --json` (npm 7+), one per advisory."""
    if "vulnerabilities" not in report:
        error = report.get("error") or {}
        message = report.get("message") or error.get("summary") or json.dumps(report)[:300]
        code = report.get("code") or error.get("code") or ""
        if code in NPM_UNREACHABLE_CODES or report.get("statusCode") or "audit endpoint" in message:
            raise ServiceUnreachable(f"npm's audit service: {message}")
        raise AuditBroke(f"npm audit answered no report: {message}")
    findings = []
    for package, entry in report["vulnerabilities"].items():
        for via in entry.get("via", []):
            if not isinstance(via, dict):  # a dependency's name: its own entry counts
                continue
            url = via.get("url", "")
            ids = tuple(
                name for name in (url.rsplit("/", 1)[-1], str(via.get("source", ""))) if name
            )
            findings.append(
                Finding(
                    "npm",
                    package,
                    entry.get("range", ""),
                    ids,
                    via.get("severity", ""),
                    via.get("title", ""),
                )  # fmt: skip
            )
    return findings


def refused(findings: list[Finding], accepted: set[str]) -> list[Finding]:
    """The findings our policy fails on: not accepted, and (npm) high or critical."""
    return [
        finding
        for finding in findings
        if not accepted.intersection(finding.ids)
        and (finding.ecosystem == "python" or finding.severity in NPM_FAILING)
    ]


def _pypi_reachable() -> None:
    try:
        with urllib.request.urlopen(PYPI_PROBE, timeout=15) as response:
            response.read(1)
    except urllib.error.HTTPError as error:
        raise ServiceUnreachable(
            f"PyPI's JSON API ({PYPI_PROBE}), which pip-audit reads vulnerabilities from, "
            f"answers HTTP {error.code} here"
        ) from None
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        raise ServiceUnreachable(f"PyPI's JSON API ({PYPI_PROBE}): {error}") from None


def run_pip_audit() -> list[Finding]:
    """Audit requirements.lock with pip-audit against PyPI's vulnerability data."""
    _pypi_reachable()
    done = subprocess.run(
        [sys.executable, "-m", "pip_audit", "--requirement", str(ROOT / "requirements.lock"),
         "--no-deps", "--disable-pip", "--vulnerability-service", "pypi", "--format", "json",
         "--progress-spinner", "off"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    return pip_findings(_json_report("pip-audit", done))


def run_npm_audit() -> list[Finding]:
    """Audit package-lock.json with npm audit (npm's registry advisories)."""
    done = subprocess.run(
        ["npm", "audit", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    return npm_findings(_json_report("npm audit", done))


def _json_report(tool: str, done: subprocess.CompletedProcess) -> dict:
    """The JSON an audit tool printed; AuditBroke, with the end of its stderr, if none."""
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        raise AuditBroke(f"{tool} failed (exit {done.returncode}): {done.stderr[-500:]}") from None


def main() -> int:
    today = datetime.date.today()
    accepted_text = ACCEPTED_FILE.read_text() if ACCEPTED_FILE.exists() else ""
    accepted, complaints = read_accepted(accepted_text, today=today)
    failures = list(complaints)
    for name, audit in (("pip-audit", run_pip_audit), ("npm audit", run_npm_audit)):
        try:
            findings = audit()
        except ServiceUnreachable as reason:
            print(f"{name}: SKIPPED, the vulnerability service is unreachable: {reason}")
            continue
        except AuditBroke as reason:
            failures.append(f"{name}: {reason}")
            continue
        bad = refused(findings, accepted)
        for finding in findings:
            verdict = "FAIL" if finding in bad else "accepted or below the bar"
            print(f"{name}: {finding.line()} -> {verdict}")
        failures.extend(f"{name}: {finding.line()}" for finding in bad)
        if not findings:
            print(f"{name}: no known vulnerabilities")
    for failure in failures:
        print(f"AUDIT FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
