package cn.jiguang.sdk.bean.push;

/** Stands in for jiguang-sdk 5.3.0's PushSendResult: sendno and msg_id as Strings (Lombok's getters). */
public class PushSendResult {
    private final String sendNo;
    private final String messageId;

    public PushSendResult(String sendNo, String messageId) {
        this.sendNo = sendNo;
        this.messageId = messageId;
    }

    public String getSendNo() {
        return sendNo;
    }

    public String getMessageId() {
        return messageId;
    }
}
