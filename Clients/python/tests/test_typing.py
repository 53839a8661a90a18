"""The package is typed for its users: installed (here: found on PYTHONPATH, which mypy treats the same way),
`mypy --strict` accepts a consumer that uses typed results and refuses one that misuses them. Without
py.typed, mypy would skip the package ("missing library stubs or py.typed marker") and every result is Any."""

import re
import shutil
import subprocess
import sys

from conftest import CLIENT_DIR

GOOD = '''
import asyncio
from typing import List, Optional

from routeregistry import AsyncClient, Client, InvalidArgument, NotFound, RegistryError
from routeregistry.matcher import evaluate
from routeregistry.types import AppOutput, Decision


def fallback(client: Client, url: str) -> Optional[str]:
    decision: Decision = client.can_open_check("badoo", "ios", "5.11.0", url, timeout=2.5)
    if decision["decision"] == "open_in_browser":
        return decision.get("fallbackUrl")
    return None


def app_ids(client: Client) -> List[str]:
    try:
        app: AppOutput = client.apps_get("badoo")
    except NotFound:
        return []
    except InvalidArgument as error:
        raise SystemExit(str(error.details))
    ios = app.get("ios")
    return list(ios["appIds"]) if ios else []


def opens(client: Client, url: str) -> bool:
    document = client.associations_get("m.badoo.com")["document"]
    return isinstance(document, dict) and evaluate(document, "ABCDE12345.com.badoo.Badoo", url, "m.badoo.com") == "match"


async def revisions(host: str) -> List[int]:
    async with AsyncClient.from_env() as client:
        page = await client.associations_list_revisions(host, page_size=10)
        return [r["revision"] for r in page["revisions"] if "revision" in r]


async def route_ids(app: str) -> List[str]:
    async with AsyncClient.from_env() as client:
        return [route["id"] async for route in client.iter_routes(app)]


async def publish(version: str) -> bool:
    async with AsyncClient.from_env() as client:
        result = await client.publish_release("badoo", "ios", version, fail_on=("error", "warning"), timeout=60)
        return any(r.get("changed") for r in result["revisions"])


def main() -> None:
    with Client.from_env(timeout=5) as client:
        print(fallback(client, "https://m.badoo.com/l/a/42"), app_ids(client))
    print(asyncio.run(revisions("m.badoo.com")), asyncio.run(publish("5.12.0")), asyncio.run(route_ids("badoo")))
    assert issubclass(NotFound, RegistryError)
'''

BAD = '''
from routeregistry import Client

def misuse(client: Client) -> int:
    decision = client.can_open_check("badoo", "ios", "5.11.0", "https://m.badoo.com/")
    client.routes_switch_off("badoo", "r", "windows", ["5.0"])
    return decision["reason"]
'''


def run_mypy(tmp_path, source):
    site = tmp_path / "site"
    shutil.copytree(CLIENT_DIR / "routeregistry", site / "routeregistry",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "consumer.py").write_text(source)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
         "consumer.py"],
        cwd=tmp_path, env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
        timeout=120)
    return result.returncode, result.stdout + result.stderr


def test_a_strict_consumer_type_checks(tmp_path):
    code, output = run_mypy(tmp_path, GOOD)
    assert code == 0, output


def test_mypy_sees_the_real_types(tmp_path):
    code, output = run_mypy(tmp_path, BAD)
    assert code == 1, output
    assert '"windows"' in output or "windows" in output, output  # Platform is Literal["ios", "android"]
    assert "Incompatible return value type" in output, output  # reason is a Literal of strings, not an int
    assert "py.typed" not in output, output


def test_the_package_itself_passes_mypy_strict(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
         "routeregistry"], cwd=CLIENT_DIR, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_readme_examples_pass_mypy_strict(tmp_path):
    # A CI job copies the README's scripts into a typed code base: they must pass the same strict check.
    readme = (CLIENT_DIR / "README.md").read_text(encoding="utf-8")
    examples = re.findall(r"<!-- example: ([\w.]+) -->\s*```python\n(.*?)```", readme, re.S)
    assert [name for name, _ in examples] == ["publish_release.py", "more.py"]
    for name, source in examples:
        code, output = run_mypy(tmp_path / name.removesuffix(".py"), source)
        assert code == 0, f"{name}: {output}"


def test_an_installed_package_keeps_py_typed_and_every_subpackage():
    # What pip installs is what pyproject.toml lists: the marker must be package data, and each package listed.
    import tomllib
    config = tomllib.loads((CLIENT_DIR / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "py.typed" in config["package-data"]["routeregistry"]
    assert (CLIENT_DIR / "routeregistry" / "py.typed").is_file()
    packages = {str(init.parent.relative_to(CLIENT_DIR)).replace("/", ".")
                for init in (CLIENT_DIR / "routeregistry").rglob("__init__.py")}
    assert set(config["packages"]) == packages
