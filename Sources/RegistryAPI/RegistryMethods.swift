import Foundation
import JSONBytes
import JSONRPC
import RegistryService
import RouteCore

/// The registry's method table: every descriptor of `API.all` bound to its use case, plus `rpc.discover`.
public enum RegistryMethods {
    /// Builds the table over `service`.
    public static func table(_ service: RegistryService, openRPC: [UInt8]) -> [RPCMethod] {
        canOpen(service, check: CanOpenFlatParams.check, getTable: CanOpenFlatParams.getTable) + [
            RPCMethod(API.AppsCreate.self) { ctx, input in
                try service.createApp(
                    input.app, shareNames: input.shareNames ?? false, by: caller(ctx, input))
            },
            RPCMethod(API.AppsGet.self) { _, input in try service.getApp(input.app) },
            RPCMethod(API.AppsList.self) { ctx, input in try service.listApps(input, within: ctx.scope) },
            RPCMethod(API.AppsUpdate.self) { ctx, input in
                try service.updateApp(
                    input.app, etag: input.etag, shareNames: input.shareNames ?? false,
                    by: caller(ctx, input))
            },
            RPCMethod(API.AppsDelete.self) { ctx, input in
                try service.deleteApp(input.app, etag: input.etag, by: caller(ctx, input))
                return Empty()
            },
            RPCMethod(API.DomainsCreate.self) { ctx, input in
                try service.createDomain(input.domain, by: caller(ctx, input))
            },
            RPCMethod(API.DomainsGet.self) { _, input in try service.getDomainWithBudget(input.host) },
            RPCMethod(API.DomainsList.self) { ctx, input in
                try service.listDomains(app: input.app, input.page, within: ctx.scope)
            },
            RPCMethod(API.DomainsDelete.self) { ctx, input in
                try service.deleteDomain(input.host, etag: input.etag, by: caller(ctx, input))
                return Empty()
            },
            RPCMethod(API.RoutesCreate.self) { ctx, input in
                try service.createRoute(
                    input.route, app: input.app, before: input.before, by: caller(ctx, input))
            },
            RPCMethod(API.RoutesBatchCreate.self) { ctx, input in
                try service.createRoutes(
                    input.routes, app: input.app, before: input.before, by: caller(ctx, input))
            },
            RPCMethod(API.RoutesGet.self) { _, input in try service.getRoute(app: input.app, id: input.route) },
            RPCMethod(API.RoutesList.self) { _, input in
                try service.listRoutes(
                    app: input.app, input.page)
            },
            RPCMethod(API.RoutesUpdate.self) { ctx, input in
                try service.updateRoute(input.route, app: input.app, etag: input.etag, by: caller(ctx, input))
            },
            RPCMethod(API.RoutesDelete.self) { ctx, input in
                try service.deleteRoute(
                    app: input.app, id: input.route, etag: input.etag, by: caller(ctx, input))
                return Empty()
            },
            RPCMethod(API.RoutesReorder.self) { ctx, input in
                API.RoutesReorder.Output(
                    routes: try service.reorderRoutes(
                        app: input.app, order: input.order, by: caller(ctx, input)))
            },
            RPCMethod(API.RoutesSwitchOff.self) { ctx, input in
                try switchRoute(service, off: true, input, by: caller(ctx, input))
            },
            RPCMethod(API.RoutesSwitchOn.self) { ctx, input in
                let switchOn = API.RoutesSwitchOff.Params(
                    app: input.app, route: input.route, platform: input.platform, versions: input.versions)
                return try switchRoute(
                    service, off: false, WriteRequest(switchOn, requestID: input.requestID), by: caller(ctx, input))
            },
            RPCMethod(API.ManifestsPlan.self) { _, input in
                try service.planManifest(input.manifest, prune: input.prune ?? false)
            },
            RPCMethod(API.ManifestsApply.self) { ctx, input in
                try service.applyManifest(input.params, by: caller(ctx, input))
            },
            RPCMethod(API.ReleasesCreate.self) { ctx, input in
                try service.createRelease(input.params, by: caller(ctx, input))
            },
            RPCMethod(API.ReleasesPublish.self) { ctx, input in
                try service.changeRelease(input.params, to: .live, by: caller(ctx, input))
            },
            RPCMethod(API.ReleasesRetire.self) { ctx, input in
                try service.changeRelease(input.params, to: .retired, by: caller(ctx, input))
            },
            RPCMethod(API.ReleasesGet.self) { _, input in try service.getRelease(input) },
            RPCMethod(API.ReleasesList.self) { _, input in
                try service.listReleases(input)
            },
            RPCMethod(API.AssociationsGet.self) { _, input in try service.association(input) },
            RPCMethod(API.AssociationsListRevisions.self) { _, input in
                try service.listRevisions(input)
            },
            RPCMethod(API.AssociationsDiff.self) { _, input in try service.diff(input) },
            RPCMethod(API.AssociationsDelivery.self) { _, input in try service.delivery(input) },
            RPCMethod(API.AssociationsPreview.self) { _, input in try service.preview(input) },
            RPCMethod.deferred(API.AssociationsWatch.self) { _, input, completion in
                service.watch(input) { result in
                    switch result {
                    case .success(let output): completion.succeed(output)
                    case .failure(let error): completion.fail(error)
                    }
                }
            },
            RPCMethod(API.MatrixGet.self, encoder: MatrixJSON.encoder) { _, input in
                try service.matrix(app: input.app, platform: input.platform)
            },
            RPCMethod(API.TokensCreate.self) { ctx, input in
                try service.createToken(input.token, by: caller(ctx), creator: ctx.registryPrincipal)
            },
            RPCMethod(API.TokensList.self) { ctx, input in try service.listTokens(input, within: ctx.scope) },
            RPCMethod(API.TokensRevoke.self) { ctx, input in
                try service.revokeToken(input.id, by: caller(ctx, input))
            },
            RPCMethod(API.TokensWhoAmI.self) { ctx, _ in
                // Only reached with a valid token (the method is not public), so the principal is there.
                guard let principal = ctx.registryPrincipal else {
                    throw RegistryError(.unauthenticated, "a valid bearer token is required")
                }
                return API.TokensWhoAmI.Output(
                    id: principal.id, role: principal.role, apps: principal.apps,
                    expiresAt: principal.expiresAt.map(RegistryService.timestamp))
            },
            RPCMethod(API.AuditList.self) { ctx, input in
                try service.listAudit(input, within: ctx.scope)
            },
            RPCMethod.discover(openRPCDocument: openRPC),
        ] + links(service)
    }

    /// The links service's methods.
    static func links(_ service: RegistryService) -> [RPCMethod] {
        [
            RPCMethod(API.LinksCreate.self) { ctx, input in
                try service.createLink(input.link, app: input.app, by: caller(ctx, input))
            },
            RPCMethod(API.LinksBatchCreate.self) { ctx, input in
                API.LinksBatchCreate.Output(
                    links: try service.createLinks(input.links, app: input.app, by: caller(ctx, input)))
            },
            RPCMethod(API.LinksGet.self) { _, input in try service.getLink(domain: input.domain, code: input.code) },
            RPCMethod(API.LinksList.self) { ctx, input in
                try service.listLinks(input, within: ctx.scope)
            },
            RPCMethod(API.LinksUpdate.self) { ctx, input in
                try service.updateLink(input.link, etag: input.etag, by: caller(ctx, input))
            },
            RPCMethod(API.LinksDelete.self) { ctx, input in
                try service.deleteLink(
                    domain: input.domain, code: input.code, etag: input.etag, by: caller(ctx, input))
                return Empty()
            },
            RPCMethod(API.LinksResolve.self) { _, input in try service.resolveLink(input) },
            RPCMethod(API.LinksStats.self) { _, input in try service.linkStats(domain: input.domain, code: input.code)
            },
            RPCMethod(API.LinksQRCode.self) { _, input in try ShortLinkQRCodes.describe(input, in: service) },
            RPCMethod(API.WebhooksCreate.self) { ctx, input in
                try service.createWebhook(input.webhook, app: input.app, by: caller(ctx, input))
            },
            RPCMethod(API.WebhooksList.self) { _, input in
                API.WebhooksList.Output(webhooks: try service.listWebhooks(app: input.app))
            },
            RPCMethod(API.WebhooksDelete.self) { ctx, input in
                try service.deleteWebhook(app: input.app, id: input.id, by: caller(ctx, input))
                return Empty()
            },
            RPCMethod(API.WebhooksDeliveries.self) { _, input in
                API.WebhooksDeliveries.Output(deliveries: try service.webhookDeliveries(app: input.app, id: input.id))
            },
        ]
    }

    /// `CanOpen.Check` and `CanOpen.GetTable`, each with its one encoder and the flat readers of its plain
    /// params given (nil: every call decoded by the codec; the test holding both ways equal uses it).
    static func canOpen(
        _ service: RegistryService, check: FlatParams<API.CanOpenCheck.Input>?,
        getTable: FlatParams<API.CanOpenGetTable.Input>?
    ) -> [RPCMethod] {
        [
            RPCMethod(
                API.CanOpenGetTable.self, answer: CanOpenTableJSON.Answer.self, encoder: CanOpenTableJSON.encoder,
                flatParams: getTable
            ) { _, input in try CanOpenTableJSON.Answer(service.canOpenTableJSON(input)) },
            RPCMethod(API.CanOpenCheck.self, encoder: DecisionJSON.encoder, flatParams: check) { _, input in
                try service.check(input)
            },
        ]
    }

    /// The caller of a write without an idempotency key: who (the audit actor), the HTTP request id, the
    /// deadline, the token's apps and role.
    private static func caller(_ context: RPCContext) -> Caller {
        Caller(
            actor: context.principal?.id ?? "anonymous", requestID: context.requestID, deadline: context.deadline,
            apps: context.scope, role: context.registryPrincipal?.role)
    }

    /// The caller of an idempotent write: `caller(_:)` with the input's key (`API.RequestID`; its form was
    /// checked by the document's schema before the handler) and, when there is one, the fingerprint of the
    /// params sent with it, so the store refuses the key reused for another call.
    private static func caller(_ context: RPCContext, _ input: some IdempotentInput) throws -> Caller {
        var keyed = caller(context)
        if let key = input.requestID {
            keyed.idempotencyKey = key
            keyed.paramsFingerprint = try input.paramsFingerprint()
        }
        return keyed
    }

    private static func switchRoute(
        _ service: RegistryService, off: Bool, _ input: API.RoutesSwitchOff.Input, by caller: Caller
    ) throws -> RouteResource {
        try service.switchRoute(
            off: off, app: input.app, id: input.route, platform: input.platform, versions: input.versions,
            reason: input.reason, by: caller)
    }
}
