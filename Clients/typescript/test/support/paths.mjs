// Where the tests find the shared conformance vectors and the project's own files: the repository root is
// two levels above this package, and `shared/` sits beside the repository (`<repo>/../shared`).
import { fileURLToPath } from "node:url";
import path from "node:path";

export const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const repoDir = path.resolve(packageDir, "..", "..");
export const conformanceFile = path.resolve(repoDir, "..", "shared", "conformance", "aasa-matching.json");
export const routeVectorsFile = path.join(repoDir, "Tests", "RouteCoreTests", "Fixtures", "route-vectors.json");
export const openRPCFile = path.join(repoDir, "Schema", "registry.openrpc.json");
