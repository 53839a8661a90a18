"""`python -m routeregistry`: a few commands for CI jobs and shells.

    python -m routeregistry publish APP PLATFORM VERSION [--fail-on error,warning] [--no-preview]
    python -m routeregistry call METHOD ['{"json": "params"}']
    python -m routeregistry match AASA.json APP_ID URL DOMAIN

The server and token come from ROUTEREG_SERVER / ROUTEREG_TOKEN (or --server / --token). Exit status: 0 on
success, 1 on an API or lint failure (with a readable message on stderr), 2 on bad usage; `match` exits 0
for "match" and 1 otherwise, printing the outcome and the deciding rule.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional

from . import Client, LintFailure, RouteRegistryError
from .matcher import AASADocumentError, explain, parse_document


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m routeregistry", description="RouteRegistry client commands")
    parser.add_argument("--server", help="registry base URL (default: $ROUTEREG_SERVER or http://127.0.0.1:8080)")
    parser.add_argument("--token", help="bearer token (default: $ROUTEREG_TOKEN)")
    commands = parser.add_subparsers(dest="command", required=True)

    publish = commands.add_parser("publish", help="publish a release; fail on lint findings")
    publish.add_argument("app")
    publish.add_argument("platform", choices=["ios", "android"])
    publish.add_argument("version")
    publish.add_argument("--fail-on", default="error", help="comma-separated severities that fail (default: error)")
    publish.add_argument("--no-preview", action="store_true", help="publish without the dry run first")

    call = commands.add_parser("call", help="call any method; prints the JSON result")
    call.add_argument("method")
    call.add_argument("params", nargs="?", default="{}", help="params as a JSON object")

    match = commands.add_parser("match", help="evaluate a URL against an AASA file locally")
    match.add_argument("aasa", help="path of an apple-app-site-association file")
    match.add_argument("app_id")
    match.add_argument("url")
    match.add_argument("domain")

    args = parser.parse_args(argv)
    if args.command == "match":
        return _match(args)
    overrides = {key: value for key, value in (("server", args.server), ("token", args.token)) if value}
    client = Client.from_env(**overrides)
    try:
        if args.command == "publish":
            fail_on = tuple(s.strip() for s in args.fail_on.split(",") if s.strip())
            client.publish_release(args.app, args.platform, args.version, fail_on=fail_on,
                                   preview=not args.no_preview, out=sys.stdout)
            return 0
        try:
            params = json.loads(args.params)
        except ValueError as error:
            parser.error(f"params are not JSON: {error}")
        if not isinstance(params, dict):
            parser.error("params must be a JSON object")
        print(json.dumps(client.call(args.method, **params), indent=2, sort_keys=True))
        return 0
    except LintFailure as failure:
        print(str(failure), file=sys.stderr)
        return 1
    except RouteRegistryError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


def _match(args: argparse.Namespace) -> int:
    try:
        with open(args.aasa, "rb") as f:
            document = parse_document(f.read())
        result = explain(document, args.app_id, args.url, args.domain)
    except (OSError, ValueError) as error:
        kind = "invalid AASA" if isinstance(error, AASADocumentError) else "cannot read the AASA file"
        print(f"error: {kind}: {error}", file=sys.stderr)
        return 2
    print(result.outcome)
    if result.rule is not None:
        print(f"rule: {json.dumps(result.rule, sort_keys=True)} (detail {result.detail_index}, "
              f"rule {result.rule_index})")
    else:
        print(f"reason: {result.reason}")
    return 0 if result.outcome == "match" else 1


if __name__ == "__main__":
    sys.exit(main())
