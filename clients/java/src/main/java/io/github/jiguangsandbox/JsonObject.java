package io.github.jiguangsandbox;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A JSON object of an answer (an item of a list, the app, a clock…), read with typed getters:
 * {@code code.getString("code")}, {@code message.getLong("seq")}. Keys are the control plane's
 * (docs/control-plane.md), snake_case as on the wire. {@link #toString()} is its JSON.
 */
public final class JsonObject {
    private final Map<String, Object> map;

    JsonObject(Map<String, Object> map) {
        this.map = Collections.unmodifiableMap(map);
    }

    /** The value under {@code key} as read: a String, Long, Double, Boolean, JsonObject, List or null. */
    public Object get(String key) {
        return map.get(key);
    }

    public boolean has(String key) {
        return map.containsKey(key);
    }

    /** True when the key is absent or null. */
    public boolean isNull(String key) {
        return map.get(key) == null;
    }

    /** A string (a number is given as its text); null when absent or null. */
    public String getString(String key) {
        Object value = map.get(key);
        return value == null ? null : value instanceof String ? (String) value : Json.write(value);
    }

    public long getLong(String key) {
        return number(key).longValue();
    }

    public int getInt(String key) {
        return Math.toIntExact(getLong(key));
    }

    public double getDouble(String key) {
        return number(key).doubleValue();
    }

    public boolean getBoolean(String key) {
        Object value = required(key);
        if (value instanceof Boolean) return (Boolean) value;
        throw new ClassCastException("\"" + key + "\" is not a boolean: " + Json.write(value));
    }

    /** A nested object; null when absent or null. */
    public JsonObject getObject(String key) {
        Object value = map.get(key);
        if (value == null || value instanceof JsonObject) return (JsonObject) value;
        throw new ClassCastException("\"" + key + "\" is not an object: " + Json.write(value));
    }

    /** A nested array as read; empty when absent or null. */
    public List<Object> getList(String key) {
        Object value = map.get(key);
        if (value == null) return List.of();
        if (value instanceof List) return castList(value);
        throw new ClassCastException("\"" + key + "\" is not an array: " + Json.write(value));
    }

    /** A nested array of objects (a list's items); empty when absent or null. */
    public List<JsonObject> getObjects(String key) {
        List<JsonObject> objects = new ArrayList<>();
        for (Object item : getList(key)) {
            if (!(item instanceof JsonObject)) throw new ClassCastException("\"" + key + "\" holds a non-object");
            objects.add((JsonObject) item);
        }
        return Collections.unmodifiableList(objects);
    }

    /** The keys and values, in the order they came. */
    public Map<String, Object> asMap() {
        return map;
    }

    @Override
    public String toString() {
        return Json.write(map);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof JsonObject && ((JsonObject) other).map.equals(map);
    }

    @Override
    public int hashCode() {
        return map.hashCode();
    }

    private Object required(String key) {
        Object value = map.get(key);
        if (value == null) throw new NoSuchElementException("\"" + key + "\" is absent or null in " + this);
        return value;
    }

    private Number number(String key) {
        Object value = required(key);
        if (value instanceof Number) return (Number) value;
        throw new ClassCastException("\"" + key + "\" is not a number: " + Json.write(value));
    }

    @SuppressWarnings("unchecked")
    private static List<Object> castList(Object value) {
        return (List<Object>) value;
    }
}
