/** What an `apple-app-site-association` document says about a URL for an app, as iOS decides it. */
export declare type MatchOutcome = "match" | "exclude" | "no_match";
/**
 * Evaluates `url` against the AASA document `aasa` served by `domain`, for the app `appId`
 * (`TEAMID.bundle.id`), exactly as iOS does: the rules of every `details` entry listing the app are
 * walked in order and the first that matches decides (`exclude` for an exclusion rule, `match` otherwise);
 * `no_match` when none matches, when the URL's host is not `domain`, or when the app is not listed.
 *
 * Both the modern `components` form and the legacy forms (`paths` with `NOT ` exclusions, and `details`
 * as a dictionary keyed by app ID) are understood. A web page can use this to decide whether to offer an
 * "open in app" button.
 */
export declare function evaluate(aasa: unknown, appId: string, url: string, domain: string): MatchOutcome;
