/// The RegistryService module; see DESIGN.md §5 for its place among the layers.
public enum RegistryServiceModule {}
