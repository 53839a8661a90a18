// Fastify hands handlers its own request and reply objects (the Node ones are `request.raw` / `reply.raw`,
// usable only after `reply.hijack()`), so the AASA handler offers a plugin that registers the document paths
// as Fastify routes and answers through the reply API. The structural types name only what the plugin
// uses, so the package needs no `fastify` dependency.
import type { Answer } from "./aasaResponse.js";
import { DOCUMENT_PATHS } from "./aasaResponse.js";
import type { DocumentKind } from "./types.js";

/** The part of a Fastify request the plugin reads. */
export interface FastifyRequestLike {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The part of a Fastify reply the plugin writes (each call returns the reply, as Fastify's do). */
export interface FastifyReplyLike {
  code(statusCode: number): FastifyReplyLike;
  header(name: string, value: string): FastifyReplyLike;
  send(payload?: string): FastifyReplyLike;
}

/** The part of a Fastify instance the plugin uses: `all` registers a route for every HTTP method. */
export interface FastifyInstanceLike {
  all(path: string, handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => unknown): unknown;
}

/** A Fastify plugin: `fastify.register(aasa.fastify)`. */
export type FastifyPluginLike = (instance: FastifyInstanceLike, options: unknown, done: (error?: Error) => void) => void;

/** Builds the plugin over `respond`, which answers every request for a document path. */
export function fastifyPlugin(
  kinds: readonly DocumentKind[],
  respond: (method: string, path: string, headers: FastifyRequestLike["headers"]) => Answer,
): FastifyPluginLike {
  return (instance, _options, done) => {
    for (const [path, kind] of Object.entries(DOCUMENT_PATHS)) {
      if (!kinds.includes(kind)) continue;
      instance.all(path, (request, reply) => {
        const result = respond(request.method, path, request.headers);
        reply.code(result.status);
        for (const [name, value] of result.headers) reply.header(name, value);
        return reply.send(result.body ?? "");
      });
    }
    done();
  };
}
