/// The app-side client; see Clients/swift/README.md.
public enum RouteRegistryClientModule {}
