"""What `publish_release` decides and prints, shared by the blocking and the asyncio client so both publish with
the same semantics: a lint finding of a `fail_on` severity fails the job, and nothing is printed unless an
`out` stream is given."""

from __future__ import annotations

import time
from typing import Any, Mapping, Optional, Sequence, TextIO

from ._methods import AnyVersion, _v
from .errors import LintFailure, Status, error_for


def release_name(app: str, platform: str, version: AnyVersion) -> str:
    """`badoo ios 5.12.0`, as `LintFailure` and the report name the release."""
    return f"{app} {platform} {_v(version)}"


def deadline(timeout: Optional[float]) -> Optional[float]:
    """When the whole publish (preview and publish) must be over, on the monotonic clock; None for no timeout."""
    return None if timeout is None else time.monotonic() + timeout


def remaining(release: str, deadline: Optional[float]) -> Optional[float]:
    """The time left for the publish itself; DeadlineExceeded, before anything is sent, once there is none."""
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise error_for(Status.DEADLINE_EXCEEDED, None, f"publish_release {release}: the deadline passed before "
                        "the publish was sent (nothing was published)", method="Releases.Publish")
    return left


def check_lint(release: str, result: Mapping[str, Any], fail_on: Sequence[str], published: bool) -> None:
    """Raises `LintFailure` when the preview's or publish's lint has a finding of a `fail_on` severity."""
    findings = list(result.get("lint") or [])
    if any(f.get("severity") in fail_on for f in findings):
        raise LintFailure(release, findings, fail_on, published=published, result=result)


def report(release: str, result: Mapping[str, Any], out: Optional[TextIO]) -> None:
    """Prints the release's state, each domain's resulting revision and the lint findings to `out`, if any."""
    if out is None:
        return
    state = (result.get("release") or {}).get("state", "?")
    print(f"published {release}: {state}", file=out)
    for ref in result.get("revisions") or []:
        changed = "new revision" if ref.get("changed") else "unchanged"
        print(f"  {ref.get('host')} {ref.get('kind', 'aasa')} revision {ref.get('revision')} "
              f"({changed}) etag {ref.get('etag')}", file=out)
    for finding in result.get("lint") or []:
        route = f" [route {finding['route']}]" if finding.get("route") else ""
        print(f"  lint {finding.get('severity')} {finding.get('code')}{route}: {finding.get('message')}", file=out)
