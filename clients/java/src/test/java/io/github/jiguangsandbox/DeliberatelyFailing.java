package io.github.jiguangsandbox;

import io.github.jiguangsandbox.junit5.JiguangSandbox;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A test that fails on purpose, run only by {@link FailureReportTest} in a run of its own (its name
 * matches neither the console launcher's nor Surefire's patterns, so a normal run leaves it out).
 */
@JiguangSandbox
class DeliberatelyFailing {
    @Test
    void expectsATextThatNeverCame(SandboxClient sb) {
        // refused: the app has no template 99 (50013), so no text goes out…
        new AppUnderTest(sb).sendNotice("13800138000", 99, "LOST");
        // …and waiting for one fails the test
        sb.nextMessage(Map.of("mobile", "13800138000"), Duration.ofMillis(200));
    }
}
