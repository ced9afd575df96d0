package io.github.jiguangsandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.jiguangsandbox.junit5.JiguangSandbox;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every call of the client against the run's sandbox, each test on an app of its own. */
@JiguangSandbox
class ClientTest {
    static final String MOBILE = "13800138000";
    static final String OTHER = "13900139000";

    AppUnderTest app;

    @BeforeEach
    void pointTheAppAtTheSandbox(SandboxClient sb) {
        app = new AppUnderTest(sb);
    }

    @Test
    void aNewAppOfItsOwnWithTheBaseUrls(SandboxClient sb, SandboxServer server) {
        assertTrue(sb.appKey().matches("[0-9a-f]{24}"), sb.appKey());
        assertTrue(sb.masterSecret().matches("[0-9a-f]{24}"), sb.masterSecret());
        assertEquals(server.url(), sb.baseUrl());
        for (String base : List.of(sb.smsBaseUrl(), sb.pushBaseUrl(), sb.deviceBaseUrl(), sb.reportBaseUrl()))
            assertEquals(server.url(), base);
        assertEquals(sb.appKey(), sb.app().getString("app_key"));
        assertEquals(0, sb.messages().size(), "a new app has sent nothing");
        assertEquals(server.url() + "/_sandbox/ui/?app=" + sb.appKey(), sb.uiLink());
        assertEquals(Version.CLIENT, sb.info().getString("version"), "the client's version is the server's");
    }

    @Test
    void theSameAppInBeforeEachAndTheTest(SandboxClient sb) {
        app.sendCode(MOBILE);
        assertEquals(1, sb.messages(Map.of("mobile", MOBILE)).size());
    }

    @Test
    void theLatestCodeVerifiesOnce(SandboxClient sb) {
        AppUnderTest.Answer sent = app.sendCode(MOBILE);
        JsonObject code = sb.latestCode(MOBILE, Duration.ofSeconds(5));
        assertEquals(sent.body().getString("msg_id"), code.getString("msg_id"));
        assertTrue(code.getString("code").matches("\\d{6}"));
        assertTrue(app.verify(code.getString("msg_id"), code.getString("code")).body().getBoolean("is_valid"));
        assertEquals(50012, app.verify(code.getString("msg_id"), code.getString("code")).errorCode()); // verified code
    }

    @Test
    void noCodeYetIs90044(SandboxClient sb) {
        SandboxException err = assertThrows(SandboxException.class, () -> sb.latestCode(MOBILE));
        assertEquals(404, err.status());
        assertEquals(90044, err.code());
    }

    @Test
    void theTextsListWithItsFilters(SandboxClient sb) {
        app.sendCode(MOBILE);
        app.sendNotice(OTHER, 2, "A1");
        assertEquals(2, sb.messages().size());
        Page toOther = sb.messages(Map.of("mobile", OTHER));
        assertEquals(1, toOther.size());
        assertTrue(toOther.items().get(0).getString("content").contains("A1"));
        assertEquals("code", sb.messages(Map.of("kind", "code")).items().get(0).getString("kind"));
        long newest = sb.messages().nextAfter();
        assertTrue(sb.messages(Map.of("after", newest)).isEmpty());
        assertEquals(1, sb.messages(Map.of("limit", 1)).size());
    }

    @Test
    void theNextTextAfterTheLastOne(SandboxClient sb) {
        app.sendNotice(MOBILE, 2, "N1");
        assertTrue(sb.nextMessage(Map.of("mobile", MOBILE)).getString("content").contains("N1"));
        app.sendNotice(MOBILE, 2, "N2");
        assertTrue(sb.nextMessage(Map.of("mobile", MOBILE)).getString("content").contains("N2"));
    }

    @Test
    void waitingInVainFailsWithWhatDidArrive(SandboxClient sb) {
        app.sendNotice(OTHER, 2, "ELSEWHERE");
        NothingArrived err = assertThrows(NothingArrived.class,
            () -> sb.nextMessage(Map.of("mobile", MOBILE), Duration.ofMillis(300)));
        assertTrue(err.getMessage().contains("\"mobile\":\"" + MOBILE + "\""), err.getMessage());
        assertTrue(err.getMessage().contains("ELSEWHERE"), err.getMessage());
        assertEquals(OTHER, err.arrived().get(0).getString("mobile"));
    }

    @Test
    void theJournalSaysWhy(SandboxClient sb) {
        assertEquals(50013, app.sendNotice(MOBILE, 99, "J1").errorCode()); // invalid temp_id
        JsonObject refused = sb.nextRequest(Map.of("status", 403));
        assertEquals("/v1/messages", refused.getString("path"));
        assertEquals(50013, refused.getInt("code"));
        assertTrue(refused.getString("reason").contains("template 99"), refused.getString("reason"));
        assertEquals(1, sb.requests(Map.of("code", 50013)).size());
    }

    @Test
    void theClockExpiresACode(SandboxClient sb) {
        app.sendCode(MOBILE);
        JsonObject code = sb.latestCode(MOBILE);
        long before = sb.clock().getLong("now");
        JsonObject moved = sb.advanceClock(Duration.ofMillis(300_001)); // template 1: valid for 300 s
        assertTrue(moved.getLong("now") >= before + 300_001);
        assertEquals(50011, app.verify(code.getString("msg_id"), code.getString("code")).errorCode()); // expired
        SandboxException back = assertThrows(SandboxException.class, () -> sb.setClock(Instant.ofEpochMilli(before)));
        assertEquals(90053, back.code());
        assertEquals(409, back.status());
    }

    @Test
    void faultsArmListAndClear(SandboxClient sb) {
        JsonObject armed = sb.armFault(Fault.on("/v1/codes").code(50019));
        assertEquals(1, armed.getInt("remaining"));
        sb.armFault(Map.of("path", "/v3/push", "code", 1030, "times", 2));
        assertEquals(2, sb.faults().size());
        AppUnderTest.Answer failed = app.sendCode(MOBILE);
        assertEquals(500, failed.status());
        assertEquals(50019, failed.errorCode());
        assertEquals(200, app.sendCode(MOBILE).status());
        assertEquals(1, sb.clearFaults());
        assertTrue(sb.faults().isEmpty());
        SandboxException typo = assertThrows(SandboxException.class, () -> sb.armFault(Fault.on("/v1/mesages").code(50019)));
        assertEquals(90020, typo.code());
        assertTrue(typo.getMessage().contains("/v1/mesages"), typo.getMessage());
    }

    @Test
    void aHandsetReplies(SandboxClient sb) {
        sb.reply(MOBILE, "TD");
        Page replies = sb.replies(Map.of("mobile", MOBILE));
        assertEquals("TD", replies.items().get(0).getString("content"));
    }

    @Test
    void aDeviceGetsAPushAndOpensIt(SandboxClient sb) {
        JsonObject device = sb.registerDevice(Map.of("platform", "android", "alias", "buyer42"));
        String rid = device.getString("registration_id");
        assertTrue(sb.devices().stream().anyMatch(d -> rid.equals(d.getString("registration_id"))));
        AppUnderTest.Answer sent = app.push("{\"platform\":\"all\",\"audience\":{\"alias\":[\"buyer42\"]},\"notification\":{\"alert\":\"shipped\"}}");
        assertEquals(200, sent.status(), sent.body().toString());
        JsonObject got = sb.nextPush(Map.of("registration_id", rid));
        assertEquals(sent.body().getString("msg_id"), got.getString("msg_id"));
        assertEquals("buyer42", got.getString("alias"));
        assertEquals(1, sb.pushes(Map.of("alias", "buyer42")).size());
        JsonObject click = sb.click(got.getString("msg_id"), rid);
        assertEquals(rid, click.getString("registration_id"));
        sb.setOnline(rid, false);
        assertFalse(sb.devices().stream().filter(d -> rid.equals(d.getString("registration_id"))).findFirst().orElseThrow().getBoolean("online"));
    }

    @Test
    void theReviewerDecides(SandboxClient sb) {
        Map<String, String> appointment = Map.of("service", "体检", "time", "9:30");
        assertEquals(50020, app.send(MOBILE, 4, appointment).errorCode()); // template 4 is under review
        assertEquals(1, sb.approveTemplate(4).getInt("status"));
        assertEquals(200, app.send(MOBILE, 4, appointment).status());
        sb.rejectTemplate(2, "no order numbers");
        assertEquals(50021, app.sendNotice(MOBILE, 2, "R3").errorCode()); // template not pass
        assertTrue(sb.nextRequest(Map.of("code", 50021)).getString("reason").contains("no order numbers"));
        assertEquals(2, sb.rejectSign(1, "not a company name").getInt("status"));
        assertEquals(1, sb.approveSign(1).getInt("status"));
    }

    @Test
    void resetEmptiesTheApp(SandboxClient sb) {
        app.sendCode(MOBILE);
        sb.advanceClock(Duration.ofHours(1));
        sb.patchApp(Map.of("balances", Map.of("industry", 5)));
        JsonObject reset = sb.reset();
        assertEquals(0, reset.getObject("clock").getLong("offset_ms"));
        assertEquals(10000, reset.getObject("balances").getLong("industry"));
        assertTrue(sb.messages().isEmpty());
    }

    @Test
    void exportAndImportAnotherApp(SandboxClient sb, SandboxServer server) {
        app.sendNotice(MOBILE, 99, "X1");
        String document = sb.exportApp();
        JsonObject parsed = Json.parseObject(document);
        assertEquals("jiguang-sandbox/app", parsed.getString("format"));
        assertEquals(sb.appKey(), parsed.getString("app_key"));
        sb.deleteApp(); // a document's ids belong to one app of a sandbox: the first goes
        SandboxClient other = server.createApp();
        try {
            assertTrue(other.importApp(document).getBoolean("imported"));
            assertEquals(50013, other.requests(Map.of("code", 50013)).items().get(0).getInt("code"));
        } finally {
            other.deleteApp();
        }
    }

    @Test
    void markStartsTheNextCallsFromNow(SandboxClient sb) {
        app.sendNotice(MOBILE, 2, "OLD");
        long seq = sb.mark();
        assertTrue(seq > 0);
        app.sendNotice(MOBILE, 2, "NEW");
        assertTrue(sb.nextMessage(Map.of("mobile", MOBILE)).getString("content").contains("NEW"));
    }

    @Test
    void appsDoNotSeeEachOther(SandboxClient sb, SandboxServer server) {
        SandboxClient other = server.createApp();
        try {
            assertNotEquals(sb.appKey(), other.appKey());
            new AppUnderTest(other).sendCode(MOBILE);
            assertTrue(sb.messages().isEmpty());
            assertEquals(1, other.messages().size());
        } finally {
            other.deleteApp();
        }
    }
}
