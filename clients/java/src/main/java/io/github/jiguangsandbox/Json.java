package io.github.jiguangsandbox;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON as the control plane speaks it (RFC 8259), read into plain Java values and written from
 * them: objects are {@link JsonObject}s (in the order the keys came), arrays {@code List<Object>},
 * strings, {@code Long} (or {@code BigInteger}, {@code Double} for a number with a fraction or an
 * exponent), {@code Boolean} and {@code null}. The JDK has no JSON reader, and the client takes no
 * dependency; this one only has to read what the sandbox answers and write what it is sent.
 */
public final class Json {
    private Json() {}

    /** Reads one JSON value; anything after it but white space is an error. */
    public static Object parse(String text) {
        Reader reader = new Reader(text);
        reader.space();
        Object value = reader.value();
        reader.space();
        if (reader.at < text.length()) throw reader.error("unexpected text after the value");
        return value;
    }

    /** Reads a JSON object (the control plane's answers all are one). */
    public static JsonObject parseObject(String text) {
        Object value = parse(text);
        if (value instanceof JsonObject) return (JsonObject) value;
        throw new IllegalArgumentException("not a JSON object: " + abbreviate(text, 200));
    }

    /**
     * Writes a value: a {@code Map} (keys as strings), an {@code Iterable} or array, a {@code
     * CharSequence}, a {@code Number}, a {@code Boolean}, {@code null}, or a {@link JsonObject}.
     */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "…";
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof JsonObject) {
            write(((JsonObject) value).asMap(), out);
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                if (!first) out.append(',');
                first = false;
                string(String.valueOf(entry.getKey()), out);
                out.append(':');
                write(entry.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof Iterable) {
            out.append('[');
            boolean first = true;
            for (Object item : (Iterable<?>) value) {
                if (!first) out.append(',');
                first = false;
                write(item, out);
            }
            out.append(']');
        } else if (value instanceof Object[]) {
            write(java.util.Arrays.asList((Object[]) value), out);
        } else if (value instanceof CharSequence || value instanceof Character || value instanceof Enum) {
            string(value.toString(), out);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalArgumentException("JSON has no " + d);
            out.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d));
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else {
            throw new IllegalArgumentException("cannot write a " + value.getClass().getName() + " as JSON");
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
            }
        }
        out.append('"');
    }

    private static final class Reader {
        final String text;
        int at;

        Reader(String text) {
            this.text = text;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("JSON: " + what + " at offset " + at + " of " + abbreviate(text, 200));
        }

        void space() {
            while (at < text.length()) {
                char c = text.charAt(at);
                if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
                at++;
            }
        }

        char peek() {
            if (at >= text.length()) throw error("unexpected end");
            return text.charAt(at);
        }

        void expect(char c) {
            if (peek() != c) throw error("expected '" + c + "'");
            at++;
        }

        Object value() {
            char c = peek();
            switch (c) {
                case '{': return object();
                case '[': return array();
                case '"': return string();
                case 't': return word("true", Boolean.TRUE);
                case 'f': return word("false", Boolean.FALSE);
                case 'n': return word("null", null);
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) return number();
                    throw error("unexpected '" + c + "'");
            }
        }

        Object word(String word, Object value) {
            if (!text.startsWith(word, at)) throw error("expected " + word);
            at += word.length();
            return value;
        }

        JsonObject object() {
            expect('{');
            Map<String, Object> map = new LinkedHashMap<>();
            space();
            if (peek() == '}') {
                at++;
                return new JsonObject(map);
            }
            while (true) {
                space();
                String key = string();
                space();
                expect(':');
                space();
                map.put(key, value());
                space();
                if (peek() == ',') {
                    at++;
                    continue;
                }
                expect('}');
                return new JsonObject(map);
            }
        }

        List<Object> array() {
            expect('[');
            List<Object> list = new ArrayList<>();
            space();
            if (peek() == ']') {
                at++;
                return Collections.unmodifiableList(list);
            }
            while (true) {
                space();
                list.add(value());
                space();
                if (peek() == ',') {
                    at++;
                    continue;
                }
                expect(']');
                return Collections.unmodifiableList(list);
            }
        }

        String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = peek();
                at++;
                if (c == '"') return out.toString();
                if (c < 0x20) throw error("control character in a string");
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = peek();
                at++;
                switch (e) {
                    case '"': out.append('"'); break;
                    case '\\': out.append('\\'); break;
                    case '/': out.append('/'); break;
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'n': out.append('\n'); break;
                    case 'r': out.append('\r'); break;
                    case 't': out.append('\t'); break;
                    case 'u':
                        if (at + 4 > text.length()) throw error("short \\u escape");
                        try {
                            out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        } catch (NumberFormatException err) {
                            throw error("bad \\u escape");
                        }
                        at += 4;
                        break;
                    default: throw error("bad escape \\" + e);
                }
            }
        }

        Object number() {
            int start = at;
            if (peek() == '-') at++;
            boolean integral = true;
            while (at < text.length()) {
                char c = text.charAt(at);
                if (c >= '0' && c <= '9') {
                    at++;
                } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                    integral = false;
                    at++;
                } else {
                    break;
                }
            }
            String literal = text.substring(start, at);
            try {
                if (!integral) return new BigDecimal(literal).doubleValue();
                BigInteger big = new BigInteger(literal);
                return big.bitLength() < 64 ? (Object) big.longValue() : big;
            } catch (NumberFormatException err) {
                throw error("bad number " + literal);
            }
        }
    }
}
