package io.github.jiguangsandbox;

import java.util.List;

/**
 * One answer of a control-plane list: its items (newest first) and {@code next_after}, the seq to
 * pass as {@code after} to see only what is newer (docs/control-plane.md "The lists' filters").
 */
public final class Page {
    private final List<JsonObject> items;
    private final long nextAfter;
    private final JsonObject json;

    Page(JsonObject json, String key) {
        this.json = json;
        this.items = json.getObjects(key);
        this.nextAfter = json.has("next_after") ? json.getLong("next_after") : 0;
    }

    public List<JsonObject> items() {
        return items;
    }

    public long nextAfter() {
        return nextAfter;
    }

    /** The answer as it came (a callbacks page also carries {@code callback_url}). */
    public JsonObject json() {
        return json;
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }

    public int size() {
        return items.size();
    }

    @Override
    public String toString() {
        return json.toString();
    }
}
