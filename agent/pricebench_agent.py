#!/usr/bin/env python3
"""pricebench benchmark agent: measure this EC2 instance or Fargate task and upload the result.

    curl -fsS https://HOST/agent.py | python3 - --server https://HOST --token TOKEN

One file, Python 3.8 or newer, standard library only. The agent
1. finds where it runs: the task metadata endpoint v4 in a Fargate task
   (ECS_CONTAINER_METADATA_URI_V4), else the EC2 instance metadata service through IMDSv2
   (AWS_EC2_METADATA_SERVICE_ENDPOINT moves it, as in the AWS SDKs); --instance-type and
   --region override what it finds;
2. runs `lscpu`, then `openssl speed -mr -mlock -elapsed -multi <CPUs> ALGO` once per
   algorithm, exactly as Spare Cores measure EC2 instances (so the results land beside
   theirs), then each algorithm once more in a single process; optionally iperf3, sysbench
   and fio;
3. uploads each tool's output, lscpu first, to POST /api/v1/runs/ with the API token and the
   machine's signed identity proof where the cloud gives one (AWS's PKCS7 instance identity
   through IMDSv2; Google's identity token, made out to the server, with --identity gcp;
   Azure's attested document with --identity azure, asked with a nonce the server issues
   for each upload); a Fargate task or another container has none and says so. It retries
   transient errors and prints each run's page.

Progress goes to stderr; the run pages' URLs go to stdout. --dry-run prints what would be
uploaded and sends nothing. The token may also come from PRICEBENCH_TOKEN and the server from
PRICEBENCH_SERVER, which keeps the token out of the process list.

The file's sections, in order:
- what every part uses: the version, exit codes, the agent's errors, progress on stderr;
- where it runs: the instance type and region (or Fargate task size) from the metadata
  services, or from --instance-type and --region; the signed proof of it, where there is one;
- running the tools: lscpu, `openssl speed` with and without -multi, iperf3, sysbench, fio,
  each in the C locale, each output the text to upload;
- uploading: one multipart upload per tool's output, sent with retries (Retry-After,
  back-off), or described by --dry-run;
- the command: the arguments, which tools are present, and `main`, which runs the steps
  above in order and reports each run's page.
"""

from __future__ import annotations

import argparse
import datetime
import email.utils
import json
import os
import platform
import re
import shutil
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass

# ---- what every part uses -----------------------------------------------------------------

AGENT_VERSION = "1.0"
EXIT_FAILED = 1
EXIT_USAGE = 2


class AgentError(Exception):
    """Something the user must know about; the agent stops with `exit_code`."""

    def __init__(self, message: str, exit_code: int = EXIT_FAILED) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class MetadataError(Exception):
    """A metadata service could not be asked, or did not answer as expected."""


def progress(message: str) -> None:
    """One line of progress on stderr, at once (the agent's stdout may be a pipe)."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


# ---- where it runs ----------------------------------------------------------------------

# The EC2 instance metadata service (IMDS), asked through IMDSv2's session tokens.
IMDS_ENDPOINT = "http://169.254.169.254"
IMDS_IPV6_ENDPOINT = "http://[fd00:ec2::254]"
IMDS_TOKEN_TTL_SECONDS = "21600"
METADATA_TIMEOUT_SECONDS = 2


@dataclass
class Machine:
    """What the agent measures: its instance type or Fargate size, region and zone."""

    instance_type: str
    region: str
    zone: str | None
    found_through: str


def find_machine(
    *,
    environ: dict,
    instance_type: str | None = None,
    region: str | None = None,
    architecture: str | None = None,
) -> Machine:
    """The machine from the flags, the Fargate task metadata or IMDSv2, in that order."""
    if instance_type and region:
        return Machine(instance_type, region, None, "--instance-type and --region")
    problems = []
    found = None
    ecs_uri = environ.get("ECS_CONTAINER_METADATA_URI_V4")
    if ecs_uri:
        try:
            found = _fargate_machine(ecs_uri, architecture or platform.machine())
        except MetadataError as error:
            problems.append(f"the ECS task metadata endpoint {ecs_uri}/task: {error}")
    else:
        problems.append("ECS_CONTAINER_METADATA_URI_V4 is not set (this is not a Fargate task)")
    if found is None:
        if environ.get("AWS_EC2_METADATA_DISABLED", "").strip().lower() == "true":
            problems.append("IMDS: AWS_EC2_METADATA_DISABLED is true")
        else:
            endpoint = imds_endpoint(environ)
            try:
                found = _ec2_machine(endpoint)
            except MetadataError as error:
                problems.append(
                    f"IMDSv2 at {endpoint}: {error} (not an EC2 instance, or a container whose "
                    "metadata hop limit is 1)"
                )
    if found is None:
        missing = " and ".join(
            name
            for name, given in (("instance type", instance_type), ("region", region))
            if not given
        )
        flags = " and ".join(
            flag
            for flag, given in (("--instance-type", instance_type), ("--region", region))
            if not given
        )
        raise AgentError(
            f"could not find the {missing}: " + "; ".join(problems) + f". Give {flags}.",
            EXIT_USAGE,
        )
    return Machine(
        instance_type or found.instance_type,
        region or found.region,
        found.zone,
        found.found_through,
    )


def imds_endpoint(environ: dict) -> str:
    """IMDS's address, changed the way the AWS SDKs allow."""
    endpoint = environ.get("AWS_EC2_METADATA_SERVICE_ENDPOINT", "").strip()
    if endpoint:
        return endpoint.rstrip("/")
    mode = environ.get("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE", "").strip().lower()
    return IMDS_IPV6_ENDPOINT if mode == "ipv6" else IMDS_ENDPOINT


def _ec2_machine(endpoint: str) -> Machine:
    token = _metadata_request(
        "PUT",
        f"{endpoint}/latest/api/token",
        {"X-aws-ec2-metadata-token-ttl-seconds": IMDS_TOKEN_TTL_SECONDS},
    ).strip()
    if not token:
        raise MetadataError("PUT /latest/api/token answered an empty token")
    headers = {"X-aws-ec2-metadata-token": token}

    def get(path: str) -> str:
        value = _metadata_request("GET", f"{endpoint}/latest/meta-data/{path}", headers).strip()
        if not value:
            raise MetadataError(f"meta-data/{path} is empty")
        return value

    instance_type = get("instance-type")
    zone = get("placement/availability-zone")
    region = get("placement/region")
    return Machine(instance_type, region, zone, "IMDSv2")


def _fargate_machine(ecs_uri: str, architecture: str) -> Machine:
    text = _metadata_request("GET", ecs_uri.rstrip("/") + "/task", {})
    try:
        task = json.loads(text)
    except ValueError:
        raise MetadataError("the answer is not JSON") from None
    if not isinstance(task, dict):
        raise MetadataError("the answer is not a JSON object")
    launch_type = str(task.get("LaunchType") or "FARGATE")
    if launch_type.upper() != "FARGATE":
        raise MetadataError(f"the task runs on {launch_type}, not Fargate")
    limits = task.get("Limits")
    if not isinstance(limits, dict) or "CPU" not in limits or "Memory" not in limits:
        raise MetadataError("the task's Limits (CPU and Memory) are missing")
    try:
        vcpus, memory_mib = float(limits["CPU"]), float(limits["Memory"])
    except (TypeError, ValueError):
        raise MetadataError(f"the task's Limits are not numbers: {limits!r}") from None
    zone = task.get("AvailabilityZone") or None
    region = region_of_zone(zone) if zone else None
    if region is None:
        # Platform versions before 1.4 give no zone; the task's ARN names the region.
        arn = str(task.get("TaskARN") or "").split(":")
        region = arn[3] if len(arn) > 3 and arn[3] else None
    if region is None:
        raise MetadataError("neither AvailabilityZone nor TaskARN names the region")
    name = fargate_size_name(vcpus, memory_mib, architecture)
    return Machine(name, region, zone, "ECS task metadata v4")


def region_of_zone(zone: str) -> str | None:
    """`us-east-1a` -> `us-east-1`; Local Zones too (`us-west-2-lax-1a` -> `us-west-2`)."""
    match = re.match(r"[a-z]{2}(?:-[a-z]+)+-\d+", zone)
    return match.group(0) if match else None


def fargate_size_name(vcpus: float, memory_mib: float, architecture: str) -> str:
    """The Fargate size as pricebench names it: `fargate-0.5vcpu-1gb`, `-arm64` on Graviton."""
    name = f"fargate-{_plain_number(vcpus)}vcpu-{_plain_number(memory_mib / 1024)}gb"
    if architecture.lower() in ("aarch64", "arm64"):
        name += "-arm64"
    return name


def _plain_number(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _metadata_request(method: str, url: str, headers: dict) -> str:
    # Metadata services answer on link-local or loopback addresses: never through a proxy.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    data = b"" if method == "PUT" else None
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with opener.open(request, timeout=METADATA_TIMEOUT_SECONDS) as response:
            return response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        raise MetadataError(f"{method} {_path(url)} answered HTTP {error.code}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise MetadataError(f"{method} {_path(url)}: {reason}") from None


def _path(url: str) -> str:
    return urllib.parse.urlsplit(url).path or "/"


# The clouds' signed proofs of the machine, which the server checks (POST runs/ `identity`).
GOOGLE_METADATA_HOST = "metadata.google.internal"
AZURE_METADATA_ENDPOINT = "http://169.254.169.254"
IDENTITY_CHOICES = ("auto", "aws", "gcp", "azure", "none")


@dataclass
class Proof:
    """The machine's signed identity proof (None where there is none) and what to say of it."""

    text: str | None
    note: str


def identity_proof(
    machine: Machine,
    *,
    choice: str,
    environ: dict,
    server: str | None,
    nonce: str | None = None,
) -> Proof:
    """The proof --identity asks for; `auto`: AWS's where IMDSv2 named the machine.

    Azure's is asked with `nonce`, which the server issued for one upload (Server.nonce).
    Never fails: without a proof the runs are uploaded unverified, and the note says why.
    """
    if choice == "none":
        return Proof(None, "--identity none: the runs are uploaded unverified")
    if choice == "auto":
        if machine.found_through == "ECS task metadata v4":
            return Proof(
                None,
                "a Fargate task has no signed identity proof (nor has any container): the runs "
                "are uploaded unverified",
            )
        if machine.found_through != "IMDSv2":
            return Proof(
                None,
                "no identity proof asked for a machine named by --instance-type and --region "
                "(give --identity aws, gcp or azure to send the cloud's): the runs are uploaded "
                "unverified",
            )
        choice = "aws"
    try:
        if choice == "aws":
            text = _aws_identity(imds_endpoint(environ))
            return Proof(text, "AWS's signed instance identity document (IMDSv2, pkcs7)")
        if choice == "gcp":
            if not server:
                return Proof(None, "Google's identity token is made out to a server: none given")
            text = _google_identity(environ, audience=server.rstrip("/"))
            return Proof(text, "Google's instance identity token, made out to " + server)
        if not nonce:
            return Proof(
                None,
                "no azure identity proof (the server issued no nonce to ask Azure's IMDS "
                "with): the run is uploaded unverified",
            )
        text = _azure_identity(environ, nonce=nonce)
        return Proof(text, "Azure's attested document, with the server's nonce " + nonce)
    except MetadataError as error:
        return Proof(
            None, f"no {choice} identity proof ({error}): the runs are uploaded unverified"
        )


def _aws_identity(endpoint: str) -> str:
    token = _metadata_request(
        "PUT",
        f"{endpoint}/latest/api/token",
        {"X-aws-ec2-metadata-token-ttl-seconds": IMDS_TOKEN_TTL_SECONDS},
    ).strip()
    proof = _metadata_request(
        "GET",
        f"{endpoint}/latest/dynamic/instance-identity/pkcs7",
        {"X-aws-ec2-metadata-token": token},
    ).strip()
    if not proof:
        raise MetadataError("dynamic/instance-identity/pkcs7 is empty")
    return proof


def _google_identity(environ: dict, *, audience: str) -> str:
    # GCE_METADATA_HOST moves the metadata server, as in Google's own client libraries.
    host = environ.get("GCE_METADATA_HOST", "").strip() or GOOGLE_METADATA_HOST
    query = urllib.parse.urlencode({"audience": audience, "format": "full"})
    url = f"http://{host}/computeMetadata/v1/instance/service-accounts/default/identity?{query}"
    token = _metadata_request("GET", url, {"Metadata-Flavor": "Google"}).strip()
    if token.count(".") != 2:
        raise MetadataError("the identity token is not a JWT")
    return token


def _azure_identity(environ: dict, *, nonce: str) -> str:
    endpoint = environ.get("PRICEBENCH_AZURE_METADATA_ENDPOINT", "").strip().rstrip("/")
    # The server's nonce (up to 32 letters and digits): it makes the proof this upload's own.
    query = urllib.parse.urlencode({"api-version": "2020-09-01", "nonce": nonce})
    url = f"{endpoint or AZURE_METADATA_ENDPOINT}/metadata/attested/document?{query}"
    document = _metadata_request("GET", url, {"Metadata": "true"}).strip()
    try:
        parsed = json.loads(document)
    except ValueError:
        raise MetadataError("the attested document is not JSON") from None
    if not isinstance(parsed, dict) or not parsed.get("signature"):
        raise MetadataError("the attested document has no signature")
    return document


# ---- running the tools --------------------------------------------------------------------

# Ciphers and digests go through `-evp`; rsa2048 is named as it is.
DEFAULT_ALGORITHMS = (
    "aes-128-gcm",
    "aes-256-gcm",
    "aes-256-cbc",
    "chacha20-poly1305",
    "sha256",
    "rsa2048",
)
# The public-key algorithms `openssl speed` takes by name rather than through -evp.
_PUBLIC_KEY = re.compile(
    r"^(?:rsa\d+|dsa\d+|ecdsa\w+|ecdh\w+|ed25519|ed448|ffdh\d+|curvesm2|sm2|ecp-\d+|x25519|x448)$",
    re.IGNORECASE,
)
# openssl speed's default duration of each measurement, and how many it makes per algorithm
# (one per block size for ciphers and digests, one per operation for public keys): only to
# tell the user how long a run will take.
_SYMMETRIC_SECONDS, _SYMMETRIC_STEPS = 3, 6
_PUBLIC_KEY_SECONDS, _PUBLIC_KEY_STEPS = 10, 4


def cpu_count() -> int:
    """What `nproc` prints (Spare Cores' `-multi $(nproc)`): the CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _c_locale() -> dict:
    environ = dict(os.environ)
    environ["LC_ALL"] = "C"
    return environ


def _raise_priority() -> None:
    # Spare Cores run openssl under `nice -n -20`; only root may raise a priority.
    try:
        os.nice(-20)
    except OSError:
        pass


def _run(command: list, *, merge_stderr: bool = True, nice: bool = False) -> tuple:
    """(exit code, stdout text, stderr text) of a command run in the C locale."""
    completed = subprocess.run(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
        env=_c_locale(),
        preexec_fn=_raise_priority if nice else None,
    )
    stdout = completed.stdout.decode("utf-8", "replace")
    stderr = "" if merge_stderr else completed.stderr.decode("utf-8", "replace")
    return completed.returncode, stdout, stderr


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


def lscpu_section() -> str:
    """`lscpu` output and a blank line, to precede each tool's output; empty without lscpu."""
    path = shutil.which("lscpu")
    if path is None:
        progress("lscpu is not installed (package util-linux): the runs will carry no CPU model")
        return ""
    code, output, _ = _run([path])
    if code != 0:
        progress(f"lscpu failed (exit code {code}: {_last_line(output)}); no CPU model is sent")
        return ""
    return output.rstrip("\n") + "\n\n"


class OpenSSL:
    """The `openssl` binary: its version line and which `speed` options it has."""

    def __init__(self, path: str) -> None:
        self.path = path
        code, output, _ = _run([path, "version"])
        if code != 0:
            raise AgentError(f"`{path} version` failed (exit code {code}): {_last_line(output)}")
        self.version_line = output.strip().splitlines()[0]
        # 1.0.2 has no -help and prints its usage as an error: read it either way.
        _, usage, _ = _run([path, "speed", "-help"])
        self.speed_options = set(re.findall(r"^\s*(-[a-z_]+)", usage, re.MULTILINE))

    def speed_command(self, selection: list, *, processes: int | None, seconds: int | None):
        """`openssl speed` as Spare Cores run it; `processes` None means no -multi."""
        command = [self.path, "speed", "-mr"]
        if "-mlock" in self.speed_options:  # OpenSSL 3.2 and later
            command.append("-mlock")
        command.append("-elapsed")
        if processes is not None:
            command += ["-multi", str(processes)]
        if seconds is not None and "-seconds" in self.speed_options:
            command += ["-seconds", str(seconds)]
        return command + selection


def speed_selection(algorithm: str) -> list:
    """The `openssl speed` arguments that choose one algorithm."""
    if _PUBLIC_KEY.match(algorithm):
        return [algorithm]
    return ["-evp", algorithm]


def _estimate_seconds(algorithm: str, seconds: int | None) -> int:
    if _PUBLIC_KEY.match(algorithm):
        return (seconds or _PUBLIC_KEY_SECONDS) * _PUBLIC_KEY_STEPS
    return (seconds or _SYMMETRIC_SECONDS) * _SYMMETRIC_STEPS


def openssl_output(openssl: OpenSSL, *, algorithms: list, seconds: int | None, cpus: int) -> str:
    """The `openssl speed` part of the upload: every algorithm with -multi, then alone.

    Each run is preceded by Spare Cores' delimiter line (`ALGO: -evp sha256 ---...`). A run
    that fails is left out with a warning; if all fail, AgentError.
    """
    if seconds is not None and "-seconds" not in openssl.speed_options:
        progress(f"{openssl.version_line} has no -seconds option: it measures for its default")
    runs = [(algorithm, cpus) for algorithm in algorithms]
    if cpus > 1:
        # With one CPU, `-multi 1` already measured a single process.
        runs += [(algorithm, None) for algorithm in algorithms]
    total = sum(_estimate_seconds(algorithm, seconds) for algorithm, _ in runs)
    progress(f"openssl: {len(runs)} runs on {cpus} CPUs, about {_duration(total)}")
    sections = []
    for number, (algorithm, processes) in enumerate(runs, start=1):
        selection = speed_selection(algorithm)
        command = openssl.speed_command(selection, processes=processes, seconds=seconds)
        how = f"{processes} processes" if processes else "1 process"
        estimate = _estimate_seconds(algorithm, seconds)
        progress(f"[{number}/{len(runs)}] {algorithm}, {how} (about {_duration(estimate)})")
        started = time.monotonic()
        code, output, _ = _run(command, nice=True)
        if code != 0:
            progress(
                f"    `{' '.join(command[1:])}` failed (exit code {code}: {_last_line(output)}); "
                "left out of the upload"
            )
            continue
        progress(f"    done in {_duration(time.monotonic() - started)}")
        delimiter = "ALGO: " + " ".join(selection) + " " + "-" * 40
        sections.append(delimiter + "\n" + output.rstrip("\n") + "\n")
    if not sections:
        raise AgentError("every `openssl speed` run failed: nothing to upload")
    return openssl.version_line + "\n" + "".join(sections)


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 120:
        return f"{seconds} s"
    return f"{(seconds + 30) // 60} min"


def iperf3_output(host: str, *, seconds: int | None) -> str:
    """`iperf3 -c HOST -J` against a host that runs `iperf3 -s` (HOST or HOST:PORT)."""
    address, port = split_host_port(host)
    command = ["iperf3", "-c", address, "-J"]
    if port:
        command += ["-p", port]
    if seconds is not None:
        command += ["-t", str(seconds)]
    progress(f"iperf3: TCP to {host} for {_duration(seconds or 10)}")
    code, output, errors = _run(command, merge_stderr=False)
    # iperf3 -J may exit 0 and report its failure in the JSON.
    reported = _iperf3_error(output)
    if code != 0 or reported:
        reason = reported or _last_line(errors or output)
        raise AgentError(f"iperf3 to {host} failed (exit code {code}): {reason}")
    return output


def split_host_port(host: str) -> tuple:
    """`host`, `host:5201` or `[::1]:5201` -> (address, port or None)."""
    match = re.match(r"^\[(.+)\](?::(\d+))?$", host) or re.match(r"^([^:]+):(\d+)$", host)
    if match:
        return match.group(1), match.group(2)
    return host, None


def _iperf3_error(output: str) -> str | None:
    try:
        return json.loads(output).get("error")
    except (ValueError, AttributeError):
        return None


def sysbench_output(*, seconds: int | None, cpus: int) -> str:
    """`sysbench cpu run` with one thread per CPU, then with one thread."""
    threads = [cpus, 1] if cpus > 1 else [1]
    outputs = []
    for count in threads:
        command = ["sysbench", "cpu", f"--threads={count}"]
        if seconds is not None:
            command.append(f"--time={seconds}")
        progress(f"sysbench cpu, {count} threads, {_duration(seconds or 10)}")
        code, output, _ = _run(command + ["run"])
        if code != 0:
            raise AgentError(f"sysbench cpu failed (exit code {code}): {_last_line(output)}")
        outputs.append(output)
    return "\n".join(outputs)


def fio_output(directory: str, *, seconds: int | None, size: str) -> str:
    """fio random 4 KiB reads, then writes, with direct I/O on a test file in `directory`."""
    if not os.path.isdir(directory):
        raise AgentError(f"--fio {directory}: not a directory", EXIT_USAGE)
    runtime = seconds or 30
    command = [
        "fio",
        "--output-format=json",
        f"--directory={directory}",
        "--ioengine=libaio",
        "--direct=1",
        "--bs=4k",
        "--iodepth=32",
        f"--size={size}",
        f"--runtime={runtime}",
        "--time_based",
        "--unlink=1",
        "--name=randread",
        "--rw=randread",
        "--name=randwrite",
        "--stonewall",
        "--rw=randwrite",
    ]
    progress(f"fio: random reads then writes on a {size} file in {directory}, {runtime} s each")
    code, output, errors = _run(command, merge_stderr=False)
    if code != 0:
        raise AgentError(f"fio failed (exit code {code}): {_last_line(errors or output)}")
    return output


# ---- uploading ----------------------------------------------------------------------------

UPLOAD_TIMEOUT_SECONDS = 120
BACKOFF_SECONDS = 2.0
MAX_BACKOFF_SECONDS = 60.0
MAX_RETRY_AFTER_SECONDS = 300.0
SOURCE = "pricebench agent"


@dataclass
class Upload:
    """One raw output and the fields sent with it to POST /api/v1/runs/."""

    tool: str
    fields: list  # (name, value) pairs, in the order sent
    filename: str
    content: bytes


def make_upload(
    tool: str,
    output: str,
    *,
    machine: Machine,
    variant: str,
    lscpu: str,
    identity: str | None = None,
) -> Upload:
    """The upload of one tool's output: lscpu first, then the tool's own output."""
    fields = [("instance_type", machine.instance_type), ("region", machine.region)]
    if variant:
        fields.append(("variant", variant))
    fields += [
        ("measured_at", datetime.datetime.now(datetime.timezone.utc).date().isoformat()),
        ("source", SOURCE),
    ]
    if identity:
        fields.append(("identity", identity))
    where = machine.zone or machine.region
    filename = f"pricebench-agent-{tool}-{machine.instance_type}-{where}.txt"
    return Upload(tool, fields, filename, (lscpu + output).encode("utf-8"))


def multipart_body(upload: Upload) -> tuple:
    """(body, content type) of a multipart/form-data request with the fields and the file."""
    boundary = "pricebench-agent-" + uuid.uuid4().hex
    parts = []
    for name, value in upload.fields:
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
            f"{value}\r\n".encode()
        )
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="{upload.filename}"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n'.encode()
    )
    parts.append(upload.content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # A redirected POST would be replayed as a GET without its file: say so instead.
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class Server:
    """The pricebench server's API, with the token, retrying transient errors."""

    def __init__(self, url: str, token: str, *, retries: int = 5, sleep=time.sleep) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.retries = retries
        self.sleep = sleep
        self.opener = urllib.request.build_opener(_NoRedirect())

    def request(self, method: str, path: str, *, body=None, content_type=None) -> tuple:
        """(status, parsed JSON or text) of one API call; 4xx answers are returned, not raised.

        Connection errors, 5xx and 429 are retried with exponential backoff, honouring
        Retry-After; after the last attempt, AgentError.
        """
        url = self.url + path
        headers = {
            "Authorization": f"Token {self.token}",
            "Accept": "application/json",
            "User-Agent": f"pricebench-agent/{AGENT_VERSION}",
        }
        if content_type:
            headers["Content-Type"] = content_type
        for attempt in range(self.retries + 1):
            request = urllib.request.Request(url, data=body, headers=headers, method=method)
            wait = min(BACKOFF_SECONDS * 2**attempt, MAX_BACKOFF_SECONDS)
            try:
                with self.opener.open(request, timeout=UPLOAD_TIMEOUT_SECONDS) as response:
                    return response.status, _decode(response.read())
            except urllib.error.HTTPError as error:
                payload = _decode(error.read())
                if 300 <= error.code < 400:
                    location = error.headers.get("Location", "?")
                    raise AgentError(
                        f"{method} {url} was redirected ({error.code}) to {location}: "
                        "give that address as --server"
                    ) from None
                if error.code != 429 and error.code < 500:
                    return error.code, payload
                problem = f"HTTP {error.code}"
                retry_after = retry_after_seconds(error.headers.get("Retry-After"))
                if retry_after is not None:
                    wait = retry_after
            except urllib.error.URLError as error:
                if isinstance(error.reason, ssl.SSLError):
                    raise AgentError(f"{method} {url}: {error.reason}") from None
                problem = str(error.reason)
            except OSError as error:  # the connection dropped or timed out mid-answer
                problem = str(error) or type(error).__name__
            if attempt == self.retries:
                raise AgentError(f"{method} {url}: {problem}, {attempt + 1} attempts; giving up")
            progress(
                f"{method} {url}: {problem}; trying again in {_duration(wait)} "
                f"(retry {attempt + 1} of {self.retries})"
            )
            self.sleep(wait)
        raise AgentError(f"{method} {url}: no attempt was made (--retries below 0)")

    def check(self, machine: Machine) -> None:
        """Before measuring: the server answers, takes the token and knows the machine."""
        quote = urllib.parse.quote
        for what, path, name in (
            ("region", f"/api/v1/regions/{quote(machine.region)}/", machine.region),
            (
                "instance type",
                f"/api/v1/instance-types/{quote(machine.instance_type)}/",
                machine.instance_type,
            ),
        ):
            status, payload = self.request("GET", path)
            if status == 401 or status == 403:
                raise AgentError(f"{self.url} refused the token: {_message(payload)}")
            if status == 404:
                raise AgentError(
                    f"{self.url} does not know the {what} {name}"
                    + (" (its EC2 types arrive with imported prices)" if what != "region" else "")
                )
            if status != 200:
                raise AgentError(
                    f"GET {self.url}{path} answered HTTP {status}: {_message(payload)}"
                )

    def nonce(self) -> str | None:
        """A nonce from POST /api/v1/runs/nonce/ for one upload's Azure proof; None (and
        why, on stderr) when the server gives none."""
        try:
            status, payload = self.request("POST", "/api/v1/runs/nonce/")
        except AgentError as error:
            progress(f"identity: no nonce from the server ({error})")
            return None
        if status == 201 and isinstance(payload, dict) and payload.get("nonce"):
            return str(payload["nonce"])
        progress(f"identity: no nonce from the server (HTTP {status}: {_message(payload)})")
        return None

    def send(self, upload: Upload) -> dict:
        """POST the upload; the run as the server describes it (id, status, ...)."""
        body, content_type = multipart_body(upload)
        status, payload = self.request(
            "POST", "/api/v1/runs/", body=body, content_type=content_type
        )
        if status not in (200, 202) or not isinstance(payload, dict) or "id" not in payload:
            raise AgentError(
                f"the server refused the {upload.tool} upload (HTTP {status}): {_message(payload)}"
            )
        return payload

    def wait_for(self, run_id: int, *, seconds: float) -> dict:
        """The run once parsed (status `done` or `failed`), or as it is after `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            status, payload = self.request("GET", f"/api/v1/runs/{run_id}/")
            if status != 200 or not isinstance(payload, dict):
                raise AgentError(f"GET /api/v1/runs/{run_id}/ answered HTTP {status}")
            if payload.get("status") != "pending" or time.monotonic() >= deadline:
                return payload
            self.sleep(2)

    def run_page(self, run_id: int) -> str:
        """The run's page on the dashboard."""
        return f"{self.url}/runs/{run_id}/"


def retry_after_seconds(value: str | None) -> float | None:
    """Retry-After in seconds (a number or an HTTP date), capped; None when absent or bad."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return min(float(value), MAX_RETRY_AFTER_SECONDS)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    delay = (when - datetime.datetime.now(datetime.timezone.utc)).total_seconds()
    return min(max(delay, 0.0), MAX_RETRY_AFTER_SECONDS)


def _decode(data: bytes):
    text = data.decode("utf-8", "replace")
    try:
        return json.loads(text)
    except ValueError:
        return text


def _message(payload) -> str:
    """A DRF error body in one line: `field: message` pairs, or `detail`."""
    if isinstance(payload, dict):
        if set(payload) == {"detail"}:
            return str(payload["detail"])
        return "; ".join(
            f"{name}: {' '.join(map(str, value)) if isinstance(value, list) else value}"
            for name, value in payload.items()
        )
    text = " ".join(str(payload).split())
    return text[:300] + ("..." if len(text) > 300 else "")


def describe_dry_run(uploads: list, server: str | None) -> str:
    """What --dry-run prints: each upload's request, fields and file, nothing sent."""
    target = (server.rstrip("/") if server else "SERVER") + "/api/v1/runs/"
    lines = [
        f"--dry-run: nothing was sent. Each upload would be POST {target} "
        "(multipart/form-data, header Authorization: Token ...):"
    ]
    for number, upload in enumerate(uploads, start=1):
        lines.append(f"===== upload {number} of {len(uploads)}: {upload.tool} =====")
        lines += [
            f"{name}: {value[:40]}... ({len(value)} characters)"
            if name == "identity"
            else f"{name}: {value}"
            for name, value in upload.fields
        ]
        lines.append(f"file: {upload.filename} ({len(upload.content)} bytes, text/plain)")
        lines.append("----- file -----")
        lines.append(upload.content.decode("utf-8").rstrip("\n"))
        lines.append("----- end of file -----")
    return "\n".join(lines) + "\n"


# ---- the command --------------------------------------------------------------------------


def parse_arguments(argv: list | None, environ: dict) -> argparse.Namespace:
    """The command line; PRICEBENCH_SERVER and PRICEBENCH_TOKEN stand in for the flags."""
    parser = argparse.ArgumentParser(
        prog="pricebench_agent.py",
        description="Measure this EC2 instance or Fargate task and upload it to pricebench.",
    )
    parser.add_argument("--server", default=environ.get("PRICEBENCH_SERVER"), help="https://HOST")
    parser.add_argument(
        "--token", default=environ.get("PRICEBENCH_TOKEN"), help="API token for uploads"
    )
    parser.add_argument("--instance-type", help="instead of the one the metadata names")
    parser.add_argument("--region", help="instead of the one the metadata names")
    parser.add_argument("--variant", default="", help="a label for this setup (e.g. accp)")
    parser.add_argument(
        "--identity",
        choices=IDENTITY_CHOICES,
        default="auto",
        help="the cloud's signed proof of this machine to send (auto: AWS's where IMDSv2 "
        "names the machine; gcp and azure ask their metadata services; none: send none)",
    )
    parser.add_argument(
        "--algorithms",
        default=",".join(DEFAULT_ALGORITHMS),
        help="comma-separated `openssl speed` algorithms (default: %(default)s)",
    )
    parser.add_argument(
        "--seconds",
        type=_positive_int,
        help="length of each measurement (openssl: per block size or operation; default: "
        "each tool's own, 3 s per openssl block size)",
    )
    parser.add_argument("--no-openssl", action="store_true", help="skip openssl speed")
    parser.add_argument("--iperf3", metavar="HOST[:PORT]", help="also iperf3 to a server")
    parser.add_argument("--sysbench", action="store_true", help="also sysbench cpu")
    parser.add_argument("--fio", metavar="DIR", help="also fio random I/O on a file in DIR")
    parser.add_argument("--fio-size", default="1G", help="fio's test file (default: 1G)")
    parser.add_argument("--dry-run", action="store_true", help="print the uploads, send nothing")
    parser.add_argument("--retries", type=int, default=5, help="for transient errors (default 5)")
    parser.add_argument(
        "--wait",
        type=float,
        default=60,
        help="seconds to wait for the server to parse each run (default 60; 0: do not wait)",
    )
    parser.add_argument("--version", action="version", version=f"pricebench agent {AGENT_VERSION}")
    return parser.parse_args(argv)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _check_tools(args: argparse.Namespace) -> str | None:
    """The openssl binary (None with --no-openssl); AgentError for a missing tool."""
    wanted = [
        (tool, package)
        for tool, package, asked in (
            ("iperf3", "iperf3", args.iperf3),
            ("sysbench", "sysbench", args.sysbench),
            ("fio", "fio", args.fio),
        )
        if asked
    ]
    if not args.no_openssl:
        wanted.insert(0, ("openssl", "openssl"))
    if not wanted:
        raise AgentError("nothing to measure: --no-openssl and no other tool", EXIT_USAGE)
    for tool, package in wanted:
        if shutil.which(tool) is None:
            raise AgentError(
                f"{tool} is not installed: install the {package} package "
                f"(apt-get install {package}, or dnf install {package})",
                EXIT_USAGE,
            )
    return None if args.no_openssl else shutil.which("openssl")


def measure(
    args: argparse.Namespace,
    machine: Machine,
    openssl_path: str | None,
    identity: str | None = None,
) -> list:
    """Run every tool asked for; one Upload per tool, each with the machine's proof."""
    cpus = cpu_count()
    lscpu = lscpu_section()
    outputs = []
    if openssl_path:
        algorithms = [name.strip() for name in args.algorithms.split(",") if name.strip()]
        if not algorithms:
            raise AgentError("--algorithms names no algorithm", EXIT_USAGE)
        openssl = OpenSSL(openssl_path)
        outputs.append(
            (
                "openssl",
                openssl_output(openssl, algorithms=algorithms, seconds=args.seconds, cpus=cpus),
            )
        )
    if args.iperf3:
        outputs.append(("iperf3", iperf3_output(args.iperf3, seconds=args.seconds)))
    if args.sysbench:
        outputs.append(("sysbench", sysbench_output(seconds=args.seconds, cpus=cpus)))
    if args.fio:
        outputs.append(("fio", fio_output(args.fio, seconds=args.seconds, size=args.fio_size)))
    return [
        make_upload(
            tool, output, machine=machine, variant=args.variant, lscpu=lscpu, identity=identity
        )
        for tool, output in outputs
    ]


def main(argv: list | None = None, environ: dict | None = None, sleep=time.sleep) -> int:
    """The agent's command line; returns the exit status."""
    environ = dict(os.environ if environ is None else environ)
    args = parse_arguments(argv, environ)
    try:
        server = None
        if not args.dry_run:
            if not args.server or not args.token:
                raise AgentError(
                    "give --server and --token (or PRICEBENCH_SERVER and PRICEBENCH_TOKEN), "
                    "or --dry-run",
                    EXIT_USAGE,
                )
            if not re.match(r"^https?://[^/]", args.server):
                raise AgentError(f"--server {args.server}: expected http(s)://HOST", EXIT_USAGE)
            server = Server(args.server, args.token, retries=args.retries, sleep=sleep)
        openssl_path = _check_tools(args)
        machine = find_machine(
            environ=environ, instance_type=args.instance_type, region=args.region
        )
        zone = f", zone {machine.zone}" if machine.zone else ""
        progress(
            f"pricebench agent {AGENT_VERSION}: {machine.instance_type} in {machine.region}"
            f"{zone} (from {machine.found_through})"
        )
        if server is not None:
            server.check(machine)
        # Azure's proof carries a nonce the server issues for one upload: asked per upload.
        per_upload = args.identity == "azure"
        proof = None
        if per_upload:
            progress(
                "identity: Azure's attested document, asked before each upload with a nonce "
                "from the server" + (" (none in a dry run)" if server is None else "")
            )
        else:
            proof = identity_proof(
                machine, choice=args.identity, environ=environ, server=args.server
            )
            progress(f"identity: {proof.note}")
        uploads = measure(args, machine, openssl_path, proof.text if proof else None)
        if server is None:
            sys.stdout.write(describe_dry_run(uploads, args.server))
            return 0
        failed = False
        for upload in uploads:
            if per_upload:
                proof = identity_proof(
                    machine,
                    choice="azure",
                    environ=environ,
                    server=args.server,
                    nonce=server.nonce(),
                )
                progress(f"{upload.tool}: identity: {proof.note}")
                if proof.text:
                    upload.fields.append(("identity", proof.text))
            run = server.send(upload)
            verb = "uploaded" if run.get("created", True) else "already uploaded"
            progress(f"{upload.tool}: {verb} as run {run['id']}")
            if args.wait > 0 and run.get("status") == "pending":
                run = server.wait_for(run["id"], seconds=args.wait)
            failed = _report(upload, run) or failed
            print(server.run_page(run["id"]), flush=True)
        return EXIT_FAILED if failed else 0
    except AgentError as error:
        progress(f"pricebench agent: {error}")
        return error.exit_code
    except KeyboardInterrupt:
        progress("pricebench agent: interrupted; nothing more is sent")
        return 130


def _report(upload: Upload, run: dict) -> bool:
    """Say how the server parsed the run; True when it failed."""
    status = run.get("status")
    if status == "failed":
        progress(f"{upload.tool}: the server could not parse run {run['id']}: {run.get('error')}")
        return True
    if status == "done":
        results = run.get("results")
        count = f"{len(results)} results" if isinstance(results, list) else "results stored"
        cpu = f", CPU {run['cpu_model']}" if run.get("cpu_model") else ""
        verified = f", verified by {run['verified_by']}" if run.get("verified") else ""
        progress(f"{upload.tool}: run {run['id']} parsed: {count}{cpu}{verified}")
        for warning in run.get("warnings") or []:
            progress(f"    warning: {warning}")
    else:
        progress(f"{upload.tool}: run {run['id']} is {status}; its page shows when it is parsed")
    return False


if __name__ == "__main__":
    sys.exit(main())
