"""The local matcher against every shared conformance case (recorded against Apple's swcutil) and every
case of the project's own vectors file, read from where they live."""

import json

import pytest

from conftest import CONFORMANCE, PROJECT_VECTORS, UPSTREAM_CONFORMANCE
from routeregistry.matcher import AASADocumentError, evaluate, explain


def _load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


SHARED = _load(CONFORMANCE)
PROJECT = _load(PROJECT_VECTORS)
CASES = [("shared:" + c["name"], c) for c in SHARED["cases"]] + [
    ("project:" + c["name"], c) for c in PROJECT["cases"]
]


def test_vector_files_have_the_conformance_shape():
    assert len(SHARED["cases"]) >= 60
    assert isinstance(PROJECT["cases"], list)
    for _, case in CASES:
        assert {"name", "aasa", "appId", "url", "domain", "expect"} <= set(case)
        assert case["expect"] in ("match", "exclude", "no_match")
    names = [name for name, _ in CASES]
    assert len(names) == len(set(names)), "case names must be unique"


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[n for n, _ in CASES])
def test_conformance(case):
    got = evaluate(case["aasa"], case["appId"], case["url"], case["domain"])
    assert got == case["expect"], explain(case["aasa"], case["appId"], case["url"], case["domain"]).reason


DOC = {
    "applinks": {
        "details": [
            {"appIDs": ["ABCDE12345.com.example.other"], "components": [{"/": "/*"}]},
            {
                "appIDs": ["ABCDE12345.com.example.app"],
                "components": [
                    {"?": {"ul_fallback": "?*"}, "exclude": True},
                    {"/": "/u/*"},
                    {"/": "/a%2Fb"},
                    {"/": "/x/y", "percentEncoded": False},
                ],
            },
        ]
    }
}
APP = "ABCDE12345.com.example.app"


def test_explain_names_the_deciding_detail_and_rule():
    result = explain(DOC, APP, "https://example.com/u/1", "example.com")
    assert (result.outcome, result.detail_index, result.rule_index) == ("match", 1, 1)
    assert result.rule == {"/": "/u/*"}


def test_fallback_marker_needs_a_value():
    assert evaluate(DOC, APP, "https://example.com/u/1?ul_fallback=1", "example.com") == "exclude"
    assert evaluate(DOC, APP, "https://example.com/u/1?ul_fallback=", "example.com") == "match"
    assert evaluate(DOC, APP, "https://example.com/u/1?ul_fallback", "example.com") == "match"


def test_encoded_slash_compares_as_written_or_decoded():
    assert evaluate(DOC, APP, "https://example.com/a%2Fb", "example.com") == "match"
    assert evaluate(DOC, APP, "https://example.com/x%2Fy", "example.com") == "match"
    assert evaluate(DOC, APP, "https://example.com/x/y", "example.com") == "match"


def test_only_web_urls_and_the_serving_host_match():
    assert evaluate(DOC, APP, "badoo://u/1", "example.com") == "no_match"
    assert evaluate(DOC, APP, "not a url", "example.com") == "no_match"
    assert evaluate(DOC, APP, "https://user@Example.COM.:443/u/1", "example.com") == "match"
    assert evaluate(DOC, APP, "https://example.com.evil.test/u/1", "example.com") == "no_match"


def test_details_listing_the_app_are_read_in_order():
    doc = {"applinks": {"details": [
        {"appIDs": [APP], "components": [{"/": "/a/*"}]},
        {"appIDs": [APP], "components": [{"/": "/b/*", "exclude": True}]},
    ]}}
    assert evaluate(doc, APP, "https://example.com/b/1", "example.com") == "exclude"


def test_malformed_documents_are_refused_with_the_place():
    with pytest.raises(AASADocumentError, match=r"components\[0\]\[\"/\"\] is not a string"):
        evaluate({"applinks": {"details": [{"appIDs": [APP], "components": [{"/": 3}]}]}}, APP,
                 "https://example.com/", "example.com")
    with pytest.raises(AASADocumentError, match="applinks.details is neither"):
        evaluate({"applinks": {"details": 3}}, APP, "https://example.com/", "example.com")


def test_unknown_variable_is_literal_text():
    doc = {"applinks": {"details": [{"appIDs": [APP], "components": [{"/": "/$(nope)/x"}]}]}}
    assert evaluate(doc, APP, "https://example.com/$(nope)/x", "example.com") == "match"
    assert evaluate(doc, APP, "https://example.com/a/x", "example.com") == "no_match"


def test_lang_and_region_fold_when_case_insensitive():
    doc = {"applinks": {"details": [{"appIDs": [APP], "components": [
        {"/": "/$(lang)-$(region)/*", "caseSensitive": False}]}]}}
    assert evaluate(doc, APP, "https://example.com/EN-gb/x", "example.com") == "match"
    assert evaluate(doc, APP, "https://example.com/xx-gb/x", "example.com") == "no_match"


def test_user_variable_alternatives_of_different_shapes():
    doc = {"applinks": {"substitutionVariables": {"v": ["a", "a/b*", "?z"]},
                        "details": [{"appIDs": [APP], "components": [{"/": "/$(v)/x/*"}]}]}}
    for path, expected in [("/a/x", "match"), ("/a/bzz/x/1", "match"), ("/qz/x", "match"), ("/z/x", "no_match"),
                           ("/a/b/x/", "match"), ("/ab/x", "no_match"), ("/a/xy", "no_match")]:
        assert evaluate(doc, APP, "https://example.com" + path, "example.com") == expected, path


def test_repeated_stars_are_one_star_so_a_final_slash_double_star_is_a_subpath_tail():
    # Found by differential fuzzing against the Swift matcher (RouteCore), which this one agrees with.
    doc = {"applinks": {"details": [{"appIDs": [APP], "components": [{"/": "/*?/**"}]}]}}
    assert evaluate(doc, APP, "https://example.com/x", "example.com") == "match"
    assert evaluate(doc, APP, "https://example.com/x/y", "example.com") == "match"
    assert evaluate(doc, APP, "https://example.com/", "example.com") == "no_match"


def test_port_is_dropped_from_the_authority_whatever_follows_the_colon():
    doc = {"applinks": {"details": [{"appIDs": [APP], "components": [{"/": "/"}]}]}}
    assert evaluate(doc, APP, "https://example.com:443%c3%a9gb", "example.com") == "match"


def test_conformance_copy_is_byte_identical_to_the_shared_file():
    if not UPSTREAM_CONFORMANCE.exists():
        pytest.skip("../shared/conformance/aasa-matching.json is absent (a clone on its own)")
    assert CONFORMANCE.read_bytes() == UPSTREAM_CONFORMANCE.read_bytes(), (
        "Tests/Conformance/aasa-matching.json differs from ../shared: copy it again"
    )
