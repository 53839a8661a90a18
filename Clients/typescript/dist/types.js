// The registry's JSON shapes, as Schema/registry.openrpc.json defines them. Output shapes carry the
// server-assigned fields (`name`, `etag`, times); inputs accept them and the server ignores them.
export {};
