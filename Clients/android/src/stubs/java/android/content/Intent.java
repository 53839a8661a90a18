package android.content;

import android.net.Uri;
import android.os.Bundle;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Stand-in for the framework class (compile-time and JVM tests only): records what is set. */
public class Intent {
    public static final String ACTION_VIEW = "android.intent.action.VIEW";
    public static final String CATEGORY_BROWSABLE = "android.intent.category.BROWSABLE";
    public static final int FLAG_ACTIVITY_NEW_TASK = 0x10000000;

    private final String action;
    private final Uri data;
    private String packageName;
    private int flags;
    private final Set<String> categories = new HashSet<>();
    private Bundle extras;
    private final Map<String, String> stringExtras = new HashMap<>();

    public Intent(String action, Uri data) {
        this.action = action;
        this.data = data;
    }

    public String getAction() {
        return action;
    }

    public Uri getData() {
        return data;
    }

    public Intent addCategory(String category) {
        categories.add(category);
        return this;
    }

    public Set<String> getCategories() {
        return categories;
    }

    public Intent setPackage(String packageName) {
        this.packageName = packageName;
        return this;
    }

    public String getPackage() {
        return packageName;
    }

    public Intent addFlags(int flags) {
        this.flags |= flags;
        return this;
    }

    public int getFlags() {
        return flags;
    }

    public Intent putExtras(Bundle extras) {
        this.extras = extras;
        return this;
    }

    public Bundle getExtras() {
        return extras;
    }

    public Intent putExtra(String name, String value) {
        stringExtras.put(name, value);
        return this;
    }

    public String getStringExtra(String name) {
        return stringExtras.get(name);
    }
}
