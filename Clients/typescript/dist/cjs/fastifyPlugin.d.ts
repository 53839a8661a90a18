import type { Answer } from "./aasaResponse.js";
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
export declare type FastifyPluginLike = (instance: FastifyInstanceLike, options: unknown, done: (error?: Error) => void) => void;
/** Builds the plugin over `respond`, which answers every request for a document path. */
export declare function fastifyPlugin(kinds: readonly DocumentKind[], respond: (method: string, path: string, headers: FastifyRequestLike["headers"]) => Answer): FastifyPluginLike;
