"""A campaign's short links created from Python against the real `routereg serve` (collected only when ROUTEREG_BIN
is set): the batch's answer is lost after the server committed it, create_link sends it again with the one
requestId and gets the first outcome, so every link exists once; a rerun of the pipeline returns the same links."""
import asyncio
import json
import secrets

from routeregistry import AlreadyExists, AsyncClient, Client
from routeregistry._transport import _MaybeSent

import pytest

from test_scenario_server import server  # noqa: F401  (the module's registry)


def test_create_link_survives_a_lost_answer_and_a_rerun(server):  # noqa: F811
    suffix = secrets.token_hex(4)
    app, web, go = f"badoo-{suffix}", f"m.badoo-{suffix}.com", f"go.badoo-{suffix}.com"
    admin = Client(server["url"], token=server["admin_token"], timeout=60)
    admin.apps_create({"id": app, "ios": {"appIds": ["ABCDE12345.com.badoo.Badoo"]}})
    admin.domains_create({"host": web, "apps": [app]})
    admin.domains_create({"host": go, "apps": [app], "links": True})

    pipeline = Client(server["url"], token=server["admin_token"], timeout=60, retries=0)
    original = pipeline._transport._post
    sent = []

    def lossy(body, timeout):
        status, payload = original(body, timeout)
        if b'"Links.BatchCreate"' in body:
            sent.append(body)
            if len(sent) == 1:
                raise _MaybeSent("connection reset after the server answered")
        return status, payload

    pipeline._transport._post = lossy
    campaign = [{"target": f"https://{web}/u/1", "code": "summer-1", "preview": {"title": "Summer"}},
                {"target": f"https://{web}/u/2", "code": "summer-2"},
                {"target": f"https://{web}/u/3"}]
    links = pipeline.create_link(app, campaign, f"campaign-{suffix}", backoff=0.01)
    assert len(sent) == 2, "the lost batch was sent again"
    assert {json.loads(b)["params"]["requestId"] for b in sent} == {f"campaign-{suffix}"}, "with the one requestId"
    assert [link["target"] for link in links] == [link["target"] for link in campaign]
    assert [link["shortUrl"] for link in links[:2]] == [f"https://{go}/summer-1", f"https://{go}/summer-2"]
    assert len(list(admin.iter_items("Links.List", app=app))) == 3, "written once"

    # The pipeline runs again with its key: the first links, none new; the asyncio client the same.
    assert [link["code"] for link in admin.create_link(app, campaign, f"campaign-{suffix}")] == [
        link["code"] for link in links]

    async def rerun():
        async with AsyncClient(server["url"], token=server["admin_token"], timeout=60) as c:
            return await c.create_link(app, campaign, f"campaign-{suffix}")

    assert [link["code"] for link in asyncio.run(rerun())] == [link["code"] for link in links]
    assert len(list(admin.iter_items("Links.List", app=app))) == 3
    # Without the key it is a new write, and the custom codes are taken.
    with pytest.raises(AlreadyExists):
        admin.create_link(app, campaign[:1])
    one = admin.create_link(app, {"target": f"https://{web}/u/9"}, f"one-{suffix}")
    assert admin.create_link(app, {"target": f"https://{web}/u/9"}, f"one-{suffix}")["code"] == one["code"]
