"""The agent is a standalone file, not a package: tests load it from its path."""

import importlib.util
import io
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

AGENT_PATH = Path(__file__).resolve().parents[2] / "agent" / "pricebench_agent.py"


def load_agent():
    """The agent module, loaded once per test session."""
    module = sys.modules.get("pricebench_agent")
    if module is None:
        spec = importlib.util.spec_from_file_location("pricebench_agent", AGENT_PATH)
        module = importlib.util.module_from_spec(spec)
        # dataclasses look their module up in sys.modules while the class is made.
        sys.modules["pricebench_agent"] = module
        spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def agent():
    return load_agent()


@pytest.fixture
def token():
    """An upload token for the agent, with c7g.large known."""
    from benchmarks.models import InstanceType

    InstanceType.objects.get_or_create(name="c7g.large")
    printed = io.StringIO()
    call_command("create_upload_token", "agent", stdout=printed, stderr=io.StringIO())
    return printed.getvalue().strip()
