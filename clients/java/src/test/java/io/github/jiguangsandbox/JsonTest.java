package io.github.jiguangsandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON reader and writer, on what the control plane answers and is sent. */
class JsonTest {
    @Test
    void readsAnAnswer() {
        JsonObject page = Json.parseObject(
            " {\"messages\":[{\"seq\":7,\"content\":\"您的验证码为123456\\u3002\\n\",\"code\":null,\"temp_para\":{\"a\":\"\\\"b\\\"\"}}],"
                + "\"next_after\":9007199254740993,\"ok\":true,\"ratio\":-1.5e2} ");
        JsonObject item = page.getObjects("messages").get(0);
        assertEquals(7, item.getLong("seq"));
        assertEquals("您的验证码为123456。\n", item.getString("content"));
        assertNull(item.getString("code"));
        assertTrue(item.isNull("code"));
        assertEquals("\"b\"", item.getObject("temp_para").getString("a"));
        assertEquals(9007199254740993L, page.getLong("next_after")); // beyond a double's integers
        assertTrue(page.getBoolean("ok"));
        assertEquals(-150.0, page.getDouble("ratio"));
    }

    @Test
    void keepsNumbersBeyondLong() {
        assertEquals(new BigInteger("123456789012345678901234567890"), Json.parse("123456789012345678901234567890"));
    }

    @Test
    void writesWhatItReadsBack() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mobile", "13800138000");
        body.put("temp_id", 1);
        body.put("temp_para", Map.of("order", "A\"1\\\n"));
        body.put("tags", List.of("vip", "tag1"));
        body.put("online", false);
        body.put("gone", null);
        String text = Json.write(body);
        assertEquals("{\"mobile\":\"13800138000\",\"temp_id\":1,\"temp_para\":{\"order\":\"A\\\"1\\\\\\n\"},"
            + "\"tags\":[\"vip\",\"tag1\"],\"online\":false,\"gone\":null}", text);
        assertEquals(text, Json.parseObject(text).toString());
    }

    @Test
    void refusesWhatIsNotJson() {
        for (String bad : List.of("", "{", "{\"a\":}", "[1,]", "tru", "\"\\x\"", "{} x", "<html>"))
            assertThrows(IllegalArgumentException.class, () -> Json.parse(bad), bad);
    }
}
