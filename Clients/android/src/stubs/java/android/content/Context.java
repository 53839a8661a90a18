package android.content;

import android.content.pm.PackageManager;

/** Stand-in for the framework class (compile-time and JVM tests only). */
public abstract class Context {
    public abstract String getPackageName();

    public abstract PackageManager getPackageManager();

    public abstract void startActivity(Intent intent);
}
