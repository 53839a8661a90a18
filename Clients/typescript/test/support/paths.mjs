// Where the tests find the conformance vectors and the project's own files: the repository root is two levels
// above this package. The repository keeps its own copy of the conformance vectors; `shared/` may sit beside the
// repository (`<repo>/../shared`), and then the copy must equal its original byte for byte.
import { fileURLToPath } from "node:url";
import path from "node:path";

export const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const repoDir = path.resolve(packageDir, "..", "..");
export const conformanceFile = path.join(repoDir, "Tests", "Conformance", "aasa-matching.json");
export const upstreamConformanceFile = path.resolve(repoDir, "..", "shared", "conformance", "aasa-matching.json");
export const routeVectorsFile = path.join(repoDir, "Tests", "RouteCoreTests", "Fixtures", "route-vectors.json");
export const openRPCFile = path.join(repoDir, "Schema", "registry.openrpc.json");
