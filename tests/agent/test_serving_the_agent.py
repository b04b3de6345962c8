"""`/agent.py` serves the file as kept; `/agent/` documents it; the file runs on Python 3.8."""

import ast
import html
import json
import re
import sys

from tests.agent.conftest import AGENT_PATH

# Standard-library modules that Python 3.8 does not have yet.
NEWER_THAN_38 = {"graphlib", "tomllib", "zoneinfo"}


def test_agent_py_is_the_file_byte_for_byte(client):
    response = client.get("/agent.py")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/x-python")
    assert b"".join(response.streaming_content) == AGENT_PATH.read_bytes()


def test_the_agent_imports_only_the_standard_library_of_python_3_8():
    source = AGENT_PATH.read_text()
    tree = ast.parse(source, feature_version=(3, 8))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    top_level = {name.split(".")[0] for name in imported}
    assert top_level <= set(sys.stdlib_module_names), top_level - set(sys.stdlib_module_names)
    assert not imported & NEWER_THAN_38
    assert "__future__" in top_level  # annotations stay strings: `str | None` is fine on 3.8


def page_block(page: str, block_id: str) -> str:
    match = re.search(rf'<pre class="command" id="{block_id}">(.*?)</pre>', page, re.DOTALL)
    assert match, f"no #{block_id} on the page"
    return html.unescape(match[1])


def test_the_page_shows_the_commands_with_this_servers_address(client):
    page = client.get("/agent/").content.decode()
    command = "curl -fsS http://testserver/agent.py | python3 - --server http://testserver"
    for block in ("agent-command", "ec2-user-data", "ec2-ssm", "fargate-task-definition"):
        assert command in page_block(page, block)
    assert page_block(page, "ec2-user-data").startswith("#!/bin/bash\n")
    ssm = page_block(page, "ec2-ssm")
    parameters = json.loads(re.search(r"--parameters '(.*)'", ssm)[1])
    assert parameters["commands"][0].startswith(command)


def test_the_task_definition_example_is_valid_json_for_the_size_the_page_names(agent, client):
    page = client.get("/agent/").content.decode()
    task = json.loads(page_block(page, "fargate-task-definition"))
    assert task["requiresCompatibilities"] == ["FARGATE"]
    container = task["containerDefinitions"][0]
    assert container["environment"] == [{"name": "PRICEBENCH_TOKEN", "value": "YOUR_TOKEN"}]
    architecture = task["runtimePlatform"]["cpuArchitecture"].lower()
    name = agent.fargate_size_name(
        int(task["cpu"]) / 1024, float(task["memory"]), "aarch64" if architecture == "arm64" else ""
    )
    assert name == "fargate-0.5vcpu-1gb-arm64"
    assert f"<code>{name}</code>" in page


def test_the_page_names_what_the_agent_measures_and_sends(agent, client):
    page = client.get("/agent/").content.decode()
    for algorithm in agent.DEFAULT_ALGORITHMS:
        assert f"<code>{algorithm}</code>" in page
    machine = agent.Machine("c7g.large", "us-east-1", "us-east-1a", "flags")
    upload = agent.make_upload("openssl", "", machine=machine, variant="accp", lscpu="")
    fields = re.findall(r"<tr><td><code>(\w+)</code></td>", page)
    assert fields == [name for name, _ in upload.fields] + ["file"]
    assert f"<code>{agent.SOURCE}</code>" in page
    assert 'href="/agent/"' in page  # the site's menu leads here
