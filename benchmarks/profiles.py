"""Workload profiles: one score for a kind of work, the weighted geometric mean of a few
benchmarks, each normalised to its median across the instance types measured with it.

The one place profiles are defined (docs/benchmarks.md explains each choice). A member is a
benchmark with every parameter fixed, so that it names one series per machine: a value, or
`VCPUS` for a parameter that follows the machine's size (openssl's `processes`, one per vCPU).
The members are what the profile's workload runs, among the benchmarks Spare Cores ran on
(nearly) every type, whole-machine figures (every vCPU busy), so that a profile ranks hundreds
of types. A type lacking one member is left out of the profile's ranking and listed with what
it lacks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from benchmarks.errors import DomainError

# A parameter's value in a member meaning "the machine's vCPU count": Spare Cores ran openssl
# with one process per vCPU, so each type's whole-machine figure has its own `processes`.
VCPUS = "vcpus"
# The model file Spare Cores ran llama.cpp with, as `llama-bench:*` results name it.
LLAMA_7B = "llama-7b.Q4_K_M.gguf"


@dataclass(frozen=True)
class Member:
    """One benchmark of a profile, its parameters all fixed (a value, or VCPUS), and its weight."""

    benchmark: str
    weight: float
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        shown = ", ".join(f"{name}={value}" for name, value in sorted(self.params.items()))
        return f"{self.benchmark} ({shown})" if shown else self.benchmark

    @property
    def per_vcpu(self) -> tuple[str, ...]:
        """The parameters whose value is each machine's vCPU count."""
        return tuple(name for name, value in self.params.items() if value == VCPUS)

    def measures(self, params: dict[str, Any], vcpus: Any) -> bool:
        """Whether a series of the member's benchmark with `params`, on a machine with `vcpus`,
        is this member's series."""
        wanted = {name: vcpus if value == VCPUS else value for name, value in self.params.items()}
        return params == wanted


@dataclass(frozen=True)
class Profile:
    key: str
    name: str
    description: str
    members: tuple[Member, ...]

    @property
    def total_weight(self) -> float:
        return sum(member.weight for member in self.members)


PROFILES = (
    Profile(
        "cpu-integer",
        "CPU integer",
        "Integer work on every core: PassMark's integer maths and sorting, and compiling "
        "code (Geekbench's Clang, all cores).",
        (
            Member("passmark:cpu-integer-math", 0.5),
            Member("geekbench:clang", 0.3, {"cores": "multi"}),
            Member("passmark:cpu-sorting", 0.2),
        ),
    ),
    Profile(
        "crypto",
        "Crypto",
        "Encryption and hashing on every core, as TLS and disk encryption run them: "
        "OpenSSL's AES-256 and SHA-256 and SHA-512 on 16 KiB blocks, one process per vCPU.",
        (
            Member("openssl:aes-256-cbc", 0.5, {"block_size": 16384, "processes": VCPUS}),
            Member("openssl:sha256", 0.3, {"block_size": 16384, "processes": VCPUS}),
            Member("openssl:sha512", 0.2, {"block_size": 16384, "processes": VCPUS}),
        ),
    ),
    Profile(
        "compression",
        "Compression",
        "Compressing data on every core: PassMark's compression test and Geekbench's file "
        "compression (all cores).",
        (
            Member("passmark:cpu-compression", 0.5),
            Member("geekbench:file-compression", 0.5, {"cores": "multi"}),
        ),
    ),
    Profile(
        "memory-bandwidth",
        "Memory bandwidth",
        "Moving data through memory: PassMark's memory mark, large reads and threaded bandwidth.",
        (
            Member("passmark:memory-mark", 0.4),
            Member("passmark:me-read-l", 0.3),
            Member("passmark:me-threaded", 0.3),
        ),
    ),
    Profile(
        "memory-beyond-cache",
        "Memory beyond the caches",
        "A working set of 128 MiB, past every cache: Spare Cores' membench read bandwidth with "
        "a thread per vCPU, and the latency of one load.",
        (
            Member("membench:read", 0.5, {"size_kb": 131072, "threads": VCPUS}),
            Member("membench:latency", 0.5, {"size_kb": 131072}),
        ),
    ),
    Profile(
        "web-serving",
        "Web serving",
        "Serving static files over HTTP with 8 threads and 16 connections (Spare Cores' "
        "static_web test): small and medium responses.",
        (
            Member("static_web:http", 0.7, {"connections": 16, "size": 1024, "threads": 8}),
            Member("static_web:http", 0.3, {"connections": 16, "size": 16384, "threads": 8}),
        ),
    ),
    Profile(
        "key-value",
        "Key-value store",
        "Redis SET from one client thread, without and with pipelining.",
        (
            Member("redis:set", 0.5, {"pipeline": 1, "threads": 1}),
            Member("redis:set", 0.5, {"pipeline": 16, "threads": 1}),
        ),
    ),
    Profile(
        "llm-inference",
        "LLM inference (CPU)",
        "A 7B Llama model (4-bit, llama-7b.Q4_K_M.gguf) on the CPU with llama.cpp, a thread per "
        "vCPU: generating 128 tokens and reading a 128-token prompt. GPU serving: llm-serving/.",
        (
            Member(
                "llama-bench:generate",
                0.6,
                {"gpu_layers": 0, "model": LLAMA_7B, "threads": VCPUS, "tokens": 128},
            ),
            Member(
                "llama-bench:prompt",
                0.4,
                {"gpu_layers": 0, "model": LLAMA_7B, "threads": VCPUS, "tokens": 128},
            ),
        ),
    ),
)
BY_KEY = {profile.key: profile for profile in PROFILES}


def get_profile(key: str) -> Profile:
    """The profile named `key`; a DomainError naming the valid keys otherwise."""
    try:
        return BY_KEY[key]
    except KeyError:
        raise DomainError(
            f"unknown profile {key[:60]!r}; choose from {', '.join(BY_KEY)}", field="profile"
        ) from None
