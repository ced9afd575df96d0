package cn.jsms.api;

/** Stands in for jsms-client 1.2.10's SendSMSResult (src/main/java/cn/jsms/api/SendSMSResult.java): msg_id as a String. */
public class SendSMSResult {
    private final String msg_id;
    private final int responseCode;

    SendSMSResult(String msgId, int responseCode) {
        this.msg_id = msgId;
        this.responseCode = responseCode;
    }

    public String getMessageId() {
        return msg_id;
    }

    public int getResponseCode() {
        return responseCode;
    }
}
