package android.net;

/** Stand-in for the framework class (compile-time and JVM tests only): keeps the text as written. */
public final class Uri {
    private final String text;

    private Uri(String text) {
        this.text = text;
    }

    public static Uri parse(String text) {
        return new Uri(text);
    }

    @Override
    public String toString() {
        return text;
    }
}
