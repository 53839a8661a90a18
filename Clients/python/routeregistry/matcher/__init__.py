"""Apple's apple-app-site-association matching, re-implemented locally.

`evaluate(aasa, app_id, url, domain)` answers what iOS does with `url` for an installed app `app_id`, the
AASA document `aasa` having been fetched from `domain`: ``"match"`` (the app opens it), ``"exclude"``
(an exclude rule decided: the browser) or ``"no_match"`` (no rule matched, or the host or app is not
covered: the browser).

It follows the same semantics as RouteRegistry's Swift matcher (ARCHITECTURE.md "Matching semantics"), tested against
the shared conformance vectors recorded against Apple's swcutil:

- details listing the app are read in document order; within them the first matching rule decides, and an
  exclude rule stops the scan;
- a component the rule does not name matches anything; a component absent from the URL counts as empty;
- ``*`` matches any run of characters (none, and ``/``, included), ``?`` exactly one, ``?*`` at least one;
- paths: the pattern's leading ``/`` is optional, trailing slashes are ignored on both sides, repeated
  slashes collapse, so ``/buy/*`` matches ``/buy`` but not ``/buyer`` and ``/`` matches an empty path;
- a string query pattern matches the whole query; a dictionary checks only the items it names (a missing
  item is empty, every occurrence of a repeated name must match, a valueless item is empty), and a
  dictionary holding any non-string value is ignored altogether;
- ``percentEncoded`` true (default) compares the URL as written (hex case matters, ``%2F`` is no
  separator); false percent-decodes the URL first; ``caseSensitive`` defaults to true; a rule's own
  setting wins over its detail's ``defaults``, which win over the top-level ``defaults``;
- substitution variables: ``$(alpha)``, ``$(upper)``, ``$(lower)``, ``$(alnum)``, ``$(digit)``,
  ``$(xdigit)`` (one ASCII character each), ``$(lang)`` (ISO 639-1), ``$(region)`` (ISO 3166-1 alpha-2)
  and the document's own lists, whose values may hold wildcards; an unknown ``$(name)`` is literal text;
- the legacy ``paths`` form (``NOT `` marks an exclusion; path only, case-sensitive, as written) and the
  legacy dictionary form ``{appID: {"paths": [...]}}``.

Standard library only.
"""

from ._document import AASADocumentError, Evaluation, evaluate, explain
from ._strict import parse_document
from ._url import LinkURL, parse_url

__all__ = [
    "evaluate", "explain", "Evaluation", "AASADocumentError", "LinkURL", "parse_url", "parse_document",
]
