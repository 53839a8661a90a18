"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.fastifyPlugin = void 0;
const aasaResponse_js_1 = require("./aasaResponse.js");
/** Builds the plugin over `respond`, which answers every request for a document path. */
function fastifyPlugin(kinds, respond) {
    return (instance, _options, done) => {
        for (const [path, kind] of Object.entries(aasaResponse_js_1.DOCUMENT_PATHS)) {
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
exports.fastifyPlugin = fastifyPlugin;
