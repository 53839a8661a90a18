import RegistryAPI
import HTTPServing
import JSONRPC
import RouteCore

/// The test methods, described as the registry's are (`RPCMethodDescriptor`): a dispatcher serves nothing
/// else.
extension TestMethods {
    enum Echo: RPCMethodDescriptor {
        static let name = "Test.Echo"
        static let access = Access.public
        typealias Input = EchoInput
        typealias Output = EchoOutput
    }

    enum Nested: RPCMethodDescriptor {
        static let name = "Test.Nested"
        static let access = Access.public
        typealias Input = NestedInput
        typealias Output = EchoOutput
    }

    enum NotFound: RPCMethodDescriptor {
        static let name = "Test.NotFound"
        static let access = Access.public
        typealias Input = Empty
        typealias Output = Empty
    }

    enum BadField: RPCMethodDescriptor {
        static let name = "Test.BadField"
        static let access = Access.public
        typealias Input = Empty
        typealias Output = Empty
    }

    enum Crash: RPCMethodDescriptor {
        static let name = "Test.Crash"
        static let access = Access.public
        typealias Input = Empty
        typealias Output = Empty
    }

    enum BadOutput: RPCMethodDescriptor {
        static let name = "Test.BadOutput"
        static let access = Access.public
        typealias Input = Empty
        typealias Output = NotANumber
    }

    enum Sleep: RPCMethodDescriptor {
        static let name = "Test.Sleep"
        static let access = Access.public
        typealias Input = DelayInput
        typealias Output = EchoOutput
    }

    enum SlowWrite: RPCMethodDescriptor {
        static let name = "Test.SlowWrite"
        static let access = Access.releaser
        typealias Input = DelayInput
        typealias Output = EchoOutput
    }

    enum Read: RPCMethodDescriptor {
        static let name = "Test.Read"
        static let access = Access.reader
        typealias Input = Empty
        typealias Output = WhoAmI
    }

    enum Release: RPCMethodDescriptor {
        static let name = "Test.Release"
        static let access = Access.releaser
        typealias Input = Empty
        typealias Output = WhoAmI
    }

    enum Admin: RPCMethodDescriptor {
        static let name = "Test.Admin"
        static let access = Access.admin
        typealias Input = Empty
        typealias Output = WhoAmI
    }

    enum Public: RPCMethodDescriptor {
        static let name = "Test.Public"
        static let access = Access.public
        typealias Input = Empty
        typealias Output = WhoAmI
    }

    enum Later: RPCMethodDescriptor {
        static let name = "Test.Later"
        static let access = Access.public
        typealias Input = DelayInput
        typealias Output = EchoOutput
    }

    enum Now: RPCMethodDescriptor {
        static let name = "Test.Now"
        static let access = Access.public
        typealias Input = EchoInput
        typealias Output = EchoOutput
    }

    enum LaterFail: RPCMethodDescriptor {
        static let name = "Test.LaterFail"
        static let access = Access.public
        typealias Input = DelayInput
        typealias Output = EchoOutput
    }

    enum Hold: RPCMethodDescriptor {
        static let name = "Test.Hold"
        static let access = Access.public
        typealias Input = Empty
        typealias Output = EchoOutput
    }
}
