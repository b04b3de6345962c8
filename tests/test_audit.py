"""scripts/audit.py's policy: what fails, what is accepted, and that no skip passes silently."""

import datetime
import importlib.util
import sys
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "audit", Path(__file__).resolve().parent.parent / "scripts" / "audit.py"
)
audit = importlib.util.module_from_spec(_SPEC)
sys.modules["audit"] = audit  # dataclasses look their module up there
_SPEC.loader.exec_module(audit)

TODAY = datetime.date(2026, 11, 23)


def pip_report(*dependencies):
    return {"dependencies": list(dependencies), "fixes": []}


def test_a_python_vulnerability_fails_unless_accepted():
    report = pip_report(
        {"name": "django", "version": "5.2.0", "vulns": [
            {"id": "PYSEC-2026-1", "aliases": ["CVE-2026-1", "GHSA-aaaa-bbbb-cccc"],
             "fix_versions": ["5.2.1"], "description": "..."}]},
        {"name": "celery", "version": "5.7.0", "vulns": []},
    )  # fmt: skip
    findings = audit.pip_findings(report)
    assert [f.package for f in audit.refused(findings, set())] == ["django"]
    assert audit.refused(findings, {"CVE-2026-1"}) == []
    assert "fixed in 5.2.1" in findings[0].line()


def test_pip_audit_that_could_fetch_nothing_is_unreachable_not_clean():
    report = pip_report(
        {"name": "amqp", "skip_reason": "Dependency not found on PyPI and could not be audited"},
        {"name": "django", "skip_reason": "Dependency not found on PyPI and could not be audited"},
    )
    with pytest.raises(audit.ServiceUnreachable, match="could audit no package"):
        audit.pip_findings(report)


def test_pip_audit_that_skipped_some_packages_breaks_the_audit():
    report = pip_report(
        {"name": "django", "version": "5.2.0", "vulns": []},
        {"name": "ours", "skip_reason": "Dependency not found on PyPI"},
    )
    with pytest.raises(audit.AuditBroke, match="ours"):
        audit.pip_findings(report)


def npm_advisory(severity, ghsa):
    return {"source": 1099, "name": "chart.js", "title": "a flaw", "severity": severity,
            "url": f"https://github.com/advisories/{ghsa}", "range": "<4.4.1"}  # fmt: skip


def test_npm_fails_on_high_and_critical_only():
    report = {"vulnerabilities": {
        "chart.js": {"severity": "high", "range": "<4.4.1",
                     "via": [npm_advisory("high", "GHSA-hhhh-hhhh-hhhh"),
                             npm_advisory("moderate", "GHSA-mmmm-mmmm-mmmm")]},
        "wrapper": {"severity": "high", "range": "*", "via": ["chart.js"]},
    }}  # fmt: skip
    findings = audit.npm_findings(report)
    assert len(findings) == 2
    bad = audit.refused(findings, set())
    assert [f.ids[0] for f in bad] == ["GHSA-hhhh-hhhh-hhhh"]
    assert audit.refused(findings, {"GHSA-hhhh-hhhh-hhhh"}) == []


def test_npms_unreachable_advisory_endpoint_is_a_skip():
    report = {"message": "405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/"
              "security/advisories/bulk", "statusCode": 405}  # fmt: skip
    with pytest.raises(audit.ServiceUnreachable, match="405"):
        audit.npm_findings(report)


def test_accepted_advisories_expire_and_bad_lines_are_named():
    accepted, complaints = audit.read_accepted(
        "# comment\n"
        "GHSA-aaaa-bbbb-cccc 2027-01-31 dev server only (lead)\n"
        "PYSEC-2020-1 2026-11-01 old decision\n"
        "CVE-2026-9 soon to be fixed\n",
        today=TODAY,
    )
    assert accepted == {"GHSA-aaaa-bbbb-cccc"}
    assert "line 3: PYSEC-2020-1 was accepted until 2026-11-01" in complaints[0]
    assert "line 4" in complaints[1] and "'soon' is not a date" in complaints[1]
