package io.github.jiguangsandbox;

/** The client's version: the sandbox's own (its package.json), so a client and a server of one release agree. */
public final class Version {
    private Version() {}

    public static final String CLIENT = "0.1.0";

    /** "0.1" of "0.1.0": what must agree with the sandbox's for the calls to mean the same. */
    static String majorMinor(String version) {
        String[] parts = version.split("\\.");
        return parts.length < 2 ? version : parts[0] + "." + parts[1];
    }
}
