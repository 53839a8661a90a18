import Foundation

/// Without libFuzzer: runs every file of the given corpus directories (or single files) through a target.
/// Reaching the end means no input trapped; the test suite runs this over `Fuzz/corpus/<target>`.
enum CorpusReplay {
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "--list" {
            print(FuzzTarget.all.map(\.name).joined(separator: "\n"))
            return 0
        }
        guard arguments.count >= 2, let target = FuzzTarget.named(arguments[0]) else {
            let names = FuzzTarget.all.map(\.name).joined(separator: "|")
            FileHandle.standardError.write(Data("usage: routereg-fuzz \(names) FILE_OR_DIR...\n".utf8))
            return 2
        }
        var count = 0
        for path in arguments.dropFirst() {
            guard let files = inputs(at: path) else {
                FileHandle.standardError.write(Data("routereg-fuzz: cannot read \(path)\n".utf8))
                return 1
            }
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("routereg-fuzz: cannot read \(file)\n".utf8))
                    return 1
                }
                target.run([UInt8](data))
                count += 1
            }
        }
        print("\(target.name): \(count) inputs replayed, none crashed")
        return 0
    }

    /// The regular files under `path` (sorted, recursively), or `path` itself when it is a file.
    private static func inputs(at path: String) -> [String]? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return [path] }
        guard let names = FileManager.default.subpaths(atPath: path) else { return nil }
        return names.sorted().map { path + "/" + $0 }.filter {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &directory) && !directory.boolValue
        }
    }
}
