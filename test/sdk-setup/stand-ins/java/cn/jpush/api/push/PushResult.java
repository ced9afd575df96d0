package cn.jpush.api.push;

import standin.Wire;

/**
 * Stands in for jpush-client 3.7.8's PushResult (src/main/java/cn/jpush/api/push/PushResult.java):
 * Gson reads msg_id into a long and sendno into an int, so both must be numbers that fit.
 */
public class PushResult {
    public long msg_id;
    public int sendno;
    public int statusCode;
    public String rateLimitQuota;

    public static PushResult from(Wire.Answer answer) {
        PushResult result = new PushResult();
        result.msg_id = Long.parseLong(Wire.field(answer.body, "msg_id"));
        result.sendno = Integer.parseInt(Wire.field(answer.body, "sendno"));
        result.statusCode = answer.status;
        result.rateLimitQuota = answer.headers.get("x-rate-limit-limit");
        return result;
    }

    public int getRateLimitQuota() {
        return Integer.parseInt(rateLimitQuota);
    }
}
