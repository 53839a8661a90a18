package android.content.pm;

import android.content.Intent;

/** Stand-in for the framework class (compile-time and JVM tests only). */
public abstract class PackageManager {
    public static final int MATCH_DEFAULT_ONLY = 0x00010000;

    public abstract ResolveInfo resolveActivity(Intent intent, int flags);
}
