"""The agent is a standalone file, not a package: tests load it from its path."""

import importlib.util
import sys
from pathlib import Path

import pytest

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
