package android.content;

/** Stand-in for the framework class (compile-time and JVM tests only). */
public class ActivityNotFoundException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ActivityNotFoundException(String message) {
        super(message);
    }
}
