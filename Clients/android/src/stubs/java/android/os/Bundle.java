package android.os;

import java.util.HashMap;
import java.util.Map;

/** Stand-in for the framework class (compile-time and JVM tests only). */
public final class Bundle {
    /** What was put, for tests. */
    public final Map<String, Object> values = new HashMap<>();

    public void putBinder(String key, IBinder value) {
        values.put(key, value);
    }

    public boolean containsKey(String key) {
        return values.containsKey(key);
    }
}
