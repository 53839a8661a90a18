export type { AASAComponent, AASADocument, App, AppOutput, AuditEntry, CanOpenRule, CanOpenScope, CanOpenTable, Decision, DiffRule, DocumentKind, Domain, DomainOutput, ErrorData, Host, IOSAppID, Identifier, LintFinding, MatchDefaults, MatchDefaultsOutput, MatrixCell, MatrixRow, NextPageToken, PageSize, PageToken, Platform, QueryPattern, Release, ReleaseEventResult, ReleaseState, RevisionInfo, RevisionRef, Role, Route, RouteAction, RouteOutput, RuleDiff, SwitchedOff, SwitchedOffOutput, Token, URLPattern, URLPatternOutput, Version, VersionRange, VersionRangeOutput, AssetlinksDocument, Etag, } from "./generated/api.js";
/** A generated `apple-app-site-association` or `assetlinks.json` document, as served (any JSON object or list). */
export declare type AssociationDocument = Record<string, unknown> | unknown[];
/** One AASA rule as it appears in a document (used by diffs). */
export declare type AASARule = Record<string, unknown>;
/** Paging params of list methods. */
export interface PageParams {
    pageSize?: number;
    pageToken?: string;
}
/** Paging result of list methods: "" or absent when there are no more pages. */
export interface Page {
    nextPageToken?: string;
}
