import RegistryAPI
import HTTPServing
import JSONRPC
import RouteCore

/// The test methods reach no app: a scoped token's check has nothing to refuse.
protocol UnscopedTestMethod: RPCMethodDescriptor {}

extension UnscopedTestMethod {
    static func scope(_ _: Input) -> CallScope { .unscoped }
}

/// The test methods, described as the registry's are (`RPCMethodDescriptor`): a dispatcher serves nothing
/// else.
extension TestMethods {
    enum Echo: UnscopedTestMethod {
        static let name = "Test.Echo"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = EchoInput
        typealias Output = EchoOutput
    }

    enum Nested: UnscopedTestMethod {
        static let name = "Test.Nested"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = NestedInput
        typealias Output = EchoOutput
    }

    enum NotFound: UnscopedTestMethod {
        static let name = "Test.NotFound"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = Empty
        typealias Output = Empty
    }

    enum BadField: UnscopedTestMethod {
        static let name = "Test.BadField"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = Empty
        typealias Output = Empty
    }

    enum Crash: UnscopedTestMethod {
        static let name = "Test.Crash"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = Empty
        typealias Output = Empty
    }

    enum BadOutput: UnscopedTestMethod {
        static let name = "Test.BadOutput"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = Empty
        typealias Output = NotANumber
    }

    enum Sleep: UnscopedTestMethod {
        static let name = "Test.Sleep"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = DelayInput
        typealias Output = EchoOutput
    }

    enum SlowWrite: UnscopedTestMethod {
        static let name = "Test.SlowWrite"
        static let access = Access.releaser
        static let traits = MethodTraits.write(changesSnapshot: false)
        typealias Input = DelayInput
        typealias Output = EchoOutput
    }

    enum Read: UnscopedTestMethod {
        static let name = "Test.Read"
        static let access = Access.reader
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = Empty
        typealias Output = WhoAmI
    }

    enum Release: UnscopedTestMethod {
        static let name = "Test.Release"
        static let access = Access.releaser
        static let traits = MethodTraits.write(changesSnapshot: false)
        typealias Input = Empty
        typealias Output = WhoAmI
    }

    enum Admin: UnscopedTestMethod {
        static let name = "Test.Admin"
        static let access = Access.admin
        static let traits = MethodTraits.write(changesSnapshot: false)
        typealias Input = Empty
        typealias Output = WhoAmI
    }

    enum Public: UnscopedTestMethod {
        static let name = "Test.Public"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = Empty
        typealias Output = WhoAmI
    }

    enum Later: UnscopedTestMethod {
        static let name = "Test.Later"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = DelayInput
        typealias Output = EchoOutput
    }

    enum Now: UnscopedTestMethod {
        static let name = "Test.Now"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = EchoInput
        typealias Output = EchoOutput
    }

    enum LaterFail: UnscopedTestMethod {
        static let name = "Test.LaterFail"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = DelayInput
        typealias Output = EchoOutput
    }

    enum Hold: UnscopedTestMethod {
        static let name = "Test.Hold"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        typealias Input = Empty
        typealias Output = EchoOutput
    }
}
