"""Where `Client.from_env` finds the server and token: the same places, in the same order, as the `routereg`
CLI (Sources/routereg/CLI/ClientSettings.swift), so a machine set up for one works for the other."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Dict, Mapping, Optional

DEFAULT_SERVER = "http://127.0.0.1:8080"


def config_path(environ: Mapping[str, str]) -> Optional[Path]:
    """`$ROUTEREG_CONFIG`, else `$XDG_CONFIG_HOME/routereg/config.json`, else `~/.config/routereg/config.json`."""
    if environ.get("ROUTEREG_CONFIG"):
        return Path(environ["ROUTEREG_CONFIG"])
    if environ.get("XDG_CONFIG_HOME"):
        return Path(environ["XDG_CONFIG_HOME"]) / "routereg" / "config.json"
    if environ.get("HOME"):
        return Path(environ["HOME"]) / ".config" / "routereg" / "config.json"
    return None


def read_config(environ: Mapping[str, str]) -> Dict[str, str]:
    """The config file's `server` and `token`; empty when there is no file, ValueError when it is malformed."""
    path = config_path(environ)
    if path is None or not path.exists():
        return {}
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f'config file {path}: expected {{"server": "...", "token": "..."}} ({error})') from None
    if not isinstance(content, dict) or any(
            not isinstance(content.get(key), (str, type(None))) for key in ("server", "token")):
        raise ValueError(f'config file {path}: expected {{"server": "...", "token": "..."}}')
    return {key: content[key] for key in ("server", "token") if content.get(key)}


def resolve_settings(environ: Optional[Mapping[str, str]] = None) -> Dict[str, Optional[str]]:
    """`server` and `token`: the environment first, then the config file, then the default server."""
    env = os.environ if environ is None else environ
    config = read_config(env)
    return {
        "server": env.get("ROUTEREG_SERVER") or config.get("server") or DEFAULT_SERVER,
        "token": env.get("ROUTEREG_TOKEN") or config.get("token") or None,
    }
