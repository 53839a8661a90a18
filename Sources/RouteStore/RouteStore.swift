/// The RouteStore module; see DESIGN.md §5 for its place among the layers.
public enum RouteStoreModule {}
