package android.content.pm;

/** Stand-in for the framework class (compile-time and JVM tests only). */
public class ActivityInfo {
    public String packageName;
}
