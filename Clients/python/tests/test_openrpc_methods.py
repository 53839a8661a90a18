"""The client's method list and signatures agree with Schema/registry.openrpc.json."""

import inspect
import re

import pytest

from routeregistry import METHODS, AsyncClient, Client, python_name


def snake(name):
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


def test_method_list_equals_the_openrpc_document(openrpc):
    assert sorted(METHODS) == sorted(m["name"] for m in openrpc["methods"])


@pytest.mark.parametrize("cls", [Client, AsyncClient])
def test_every_method_has_a_client_method_with_the_documented_params(openrpc, cls):
    for method in openrpc["methods"]:
        function = getattr(cls, python_name(method["name"]), None)
        assert function is not None, f"{cls.__name__} has no {python_name(method['name'])} for {method['name']}"
        assert inspect.iscoroutinefunction(function) == (cls is AsyncClient)
        signature = inspect.signature(function)
        # Every method also takes a keyword-only per-call deadline.
        assert signature.parameters["timeout"].kind is inspect.Parameter.KEYWORD_ONLY
        params = {name: p for name, p in signature.parameters.items() if name not in ("self", "timeout")}
        documented = {snake(p["name"]): p.get("required", False) for p in method["params"]}
        assert set(params) == set(documented), method["name"]
        for name, required in documented.items():
            has_default = params[name].default is not inspect.Parameter.empty
            assert has_default != required, f"{method['name']}: {name} required={required}"


def test_only_reads_are_retried_after_sending(openrpc):
    # What a method does is the document's x-effect (the server's tests tie it to each method's traits):
    # only reads are retried after the request went out.
    for method in openrpc["methods"]:
        assert method["x-effect"] in ("read", "write"), method["name"]
        assert METHODS[method["name"]] == (method["x-effect"] == "read"), method["name"]
    # A releaser's read (the dry-run preview) and an admin's read (the token list) are reads all the same.
    assert METHODS["Associations.Preview"] and METHODS["Tokens.List"]
    assert not METHODS["Links.Create"] and not METHODS["Routes.Update"]


def test_python_names():
    assert python_name("CanOpen.GetTable") == "can_open_get_table"
    assert python_name("Links.QRCode") == "links_qr_code"
    assert python_name("Tokens.WhoAmI") == "tokens_who_am_i"
    assert python_name("Associations.ListRevisions") == "associations_list_revisions"
    assert python_name("rpc.discover") == "rpc_discover"
