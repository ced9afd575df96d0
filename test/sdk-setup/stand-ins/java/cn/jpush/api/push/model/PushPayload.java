package cn.jpush.api.push.model;

import java.security.SecureRandom;
import standin.Wire;

/**
 * Stands in for jpush-client 3.7.8's PushPayload.alertAll (src/main/java/cn/jpush/api/push/model/
 * PushPayload.java, Notification.java, Options.java): platform and audience "all", a notification
 * whose toJSON writes ai_opportunity before the alert, and, no options being set, Options.sendno()
 * (a random sendno, apns_production false, classification 0), written by Gson in that order.
 */
public class PushPayload {
    private static final SecureRandom RANDOM = new SecureRandom();
    private final String alert;
    private final int sendno;

    private PushPayload(String alert) {
        this.alert = alert;
        // ServiceHelper.generateSendno(): MIN 100000, MAX Integer.MAX_VALUE
        this.sendno = RANDOM.nextInt(Integer.MAX_VALUE - 100000) + 100000;
    }

    public static PushPayload alertAll(String alert) {
        return new PushPayload(alert);
    }

    @Override
    public String toString() {
        return "{\"platform\":\"all\",\"audience\":\"all\",\"notification\":{\"ai_opportunity\":false,\"alert\":"
            + Wire.quote(alert) + "},\"options\":{\"sendno\":" + sendno + ",\"apns_production\":false,\"classification\":0}}";
    }
}
