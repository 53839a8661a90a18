package android.app;

import android.content.Context;
import android.content.Intent;

/** Stand-in for the framework class (compile-time and JVM tests only). */
public abstract class Activity extends Context {
    private Intent intent;

    public Intent getIntent() {
        return intent;
    }

    public void setIntent(Intent intent) {
        this.intent = intent;
    }

    public abstract void finish();
}
