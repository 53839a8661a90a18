import { DOCUMENT_PATHS } from "./aasaResponse.js";
/** Builds the plugin over `respond`, which answers every request for a document path. */
export function fastifyPlugin(kinds, respond) {
    return (instance, _options, done) => {
        for (const [path, kind] of Object.entries(DOCUMENT_PATHS)) {
            if (!kinds.includes(kind))
                continue;
            instance.all(path, (request, reply) => {
                const result = respond(request.method, path, request.headers);
                reply.code(result.status);
                for (const [name, value] of result.headers)
                    reply.header(name, value);
                return reply.send(result.body ?? "");
            });
        }
        done();
    };
}
