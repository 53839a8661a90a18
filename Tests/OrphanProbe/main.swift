// A stand-in for a test process that dies mid-run: it starts what tests start (a throwaway PostgreSQL cluster
// through RegistryTesting, and `routereg serve` through Spawn), prints their process ids, and waits to be
// killed. `OrphanTests` kills it with SIGKILL or SIGSEGV and checks that nothing it started survives.
import Foundation
import ProcessSpawn
import RegistryTesting

guard CommandLine.arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: routereg-orphan-probe ROUTEREG_BINARY SCRATCH_DIRECTORY\n".utf8))
    exit(2)
}
let binary = CommandLine.arguments[1]
let scratch = CommandLine.arguments[2]

do {
    let cluster = try TestPostgres.privateCluster()
    let serverLog = scratch + "/serve.out"
    let server = try Spawn(
        binary,
        [
            "serve", "--listen", "127.0.0.1:0", "--database-url", cluster.url, "--data-dir", scratch + "/data",
            "--no-delivery-watch",
            "--quiet",
        ],
        environment: Spawn.currentEnvironment().filter { $0.key != "DATABASE_URL" },
        standardOutput: .file(serverLog), standardError: .standardOutput
    ).start()
    let deadline = ContinuousClock.now + .seconds(90)
    while !((try? String(contentsOfFile: serverLog, encoding: .utf8)) ?? "").contains("listening on ") {
        guard server.isRunning, ContinuousClock.now < deadline else {
            print("error: routereg serve did not start")
            exit(1)
        }
        usleep(20_000)
    }
    let report = "routereg \(server.pid)\npostgres \(cluster.postmasterPID ?? 0)\ncluster \(cluster.directory)\nready\n"
    FileHandle.standardOutput.write(Data(report.utf8))
    while true { sleep(60) }
} catch {
    print("error: \(error)")
    exit(1)
}
