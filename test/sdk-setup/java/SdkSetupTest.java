import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cn.jiguang.sdk.bean.push.PushSendResult;
import cn.jpush.api.push.PushResult;
import cn.jsms.api.SendSMSResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/sdk-setup.md's Java snippets (written beside this file by test/sdk-setup/sdk-setup.test.ts,
 * as the page shows them), each run against the sandbox at SANDBOX with its own app. What the SDK
 * returns is checked here; what the sandbox received, by the test that runs this one.
 */
class SdkSetupTest {
    static final String SANDBOX = System.getenv("SANDBOX");
    static final String APP_KEY = System.getenv("JIGUANG_APP_KEY");
    static final String MASTER_SECRET = System.getenv("JIGUANG_MASTER_SECRET");

    /** The SDK's answer, for the test that runs this one to hold against the journal. */
    static void report(String msgId) throws Exception {
        Files.writeString(Path.of(System.getenv("SDK_SETUP_RESULT")), "{\"msg_id\":\"" + msgId + "\"}");
    }

    @Test
    void jpushApiJavaClient() throws Exception {
        PushResult result = JPushThroughTheSandbox.push(SANDBOX, APP_KEY, MASTER_SECRET);
        assertTrue(result.msg_id > 0, "msg_id, read as a long");
        assertTrue(result.sendno >= 100000, "our sendno, echoed");
        assertEquals(200, result.statusCode);
        report(Long.toString(result.msg_id));
    }

    @Test
    void jsmsApiJavaClient() throws Exception {
        SendSMSResult result = JsmsThroughTheSandbox.sendCode(SANDBOX, APP_KEY, MASTER_SECRET);
        assertTrue(result.getMessageId().matches("\\d+"), result.getMessageId());
        assertEquals(200, result.getResponseCode());
        report(result.getMessageId());
    }

    @Test
    void jiguangSdkJava() throws Exception {
        PushSendResult result = JiguangSdkThroughTheSandbox.push(SANDBOX, APP_KEY, MASTER_SECRET);
        assertTrue(result.getMessageId().matches("\\d+"), result.getMessageId());
        report(result.getMessageId());
    }
}
