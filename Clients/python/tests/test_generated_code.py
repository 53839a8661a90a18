"""The generated client code (scripts/generate-clients) is current, and the check really notices a change of
the API description."""

import shutil
import subprocess
import sys

from conftest import REPO

GENERATOR = REPO / "scripts" / "generate-clients"
OUTPUTS = ["Clients/typescript/src/generated/api.ts", "Clients/python/routeregistry/_schema.py",
           "Clients/python/routeregistry/_methods.py"]


def check(root):
    return subprocess.run([sys.executable, str(root / "scripts" / "generate-clients"), "--check"],
                          capture_output=True, text=True, timeout=60)


def test_generated_files_are_current():
    result = check(REPO)
    assert result.returncode == 0, result.stderr


def test_a_changed_description_makes_them_stale(tmp_path):
    (tmp_path / "scripts").mkdir()
    shutil.copy(GENERATOR, tmp_path / "scripts" / "generate-clients")
    (tmp_path / "Schema").mkdir()
    text = (REPO / "Schema" / "registry.openrpc.json").read_text()
    for output in OUTPUTS:
        (tmp_path / output).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / output, tmp_path / output)
    (tmp_path / "Schema" / "registry.openrpc.json").write_text(text)
    assert check(tmp_path).returncode == 0
    # A renamed param (method tables) and a renamed field (types).
    changed = text.replace('"name": "pageToken"', '"name": "cursor"').replace('"displayName"', '"title"')
    (tmp_path / "Schema" / "registry.openrpc.json").write_text(changed)
    result = check(tmp_path)
    assert result.returncode == 1
    for output in OUTPUTS:
        assert output in result.stderr
