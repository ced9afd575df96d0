package io.github.jiguangsandbox;

import java.util.List;
import java.util.Map;

/**
 * Nothing matching arrived within the wait of a {@code next…()} call. An {@link AssertionError}, so a
 * test that waited in vain fails (not errs), and its message lists what did arrive in that list
 * after the same seq, whatever the filter: the text to another mobile, the push to another device,
 * the request refused for a reason.
 */
public class NothingArrived extends AssertionError {
    private static final long serialVersionUID = 1L;
    private final transient List<JsonObject> arrived;

    NothingArrived(String list, Map<String, ?> filter, long after, long waitedMs, List<JsonObject> arrived) {
        super(describe(list, filter, after, waitedMs, arrived));
        this.arrived = List.copyOf(arrived);
    }

    /** What arrived in the list after the same seq, whatever the filter (newest first, at most 20). */
    public List<JsonObject> arrived() {
        return arrived;
    }

    private static String describe(String list, Map<String, ?> filter, long after, long waitedMs, List<JsonObject> arrived) {
        StringBuilder text = new StringBuilder()
            .append("nothing in ").append(list).append(" matching ").append(Json.write(filter))
            .append(" after seq ").append(after).append(" within ").append(waitedMs).append(" ms");
        if (arrived.isEmpty()) return text.append("; nothing else arrived there either").toString();
        text.append("; what did arrive there (newest first):");
        for (JsonObject item : arrived) text.append("\n  ").append(Json.abbreviate(item.toString(), 300));
        return text.toString();
    }
}
