package cn.jiguang.sdk.bean.push;

import cn.jiguang.sdk.bean.push.message.notification.NotificationMessage;
import standin.Wire;

/**
 * Stands in for jiguang-sdk 5.3.0's PushSendParam (jiguang-sdk/src/main/java/cn/jiguang/sdk/bean/
 * push/PushSendParam.java): Jackson writes the fields in declaration order, cid and options only
 * when set, then audience and platform always, then the notification (NON_NULL).
 */
public class PushSendParam {
    private Object audience;
    private Object platform;
    private NotificationMessage notification;

    public void setAudience(Object audience) {
        this.audience = audience;
    }

    public void setPlatform(Object platform) {
        this.platform = platform;
    }

    public void setNotification(NotificationMessage notification) {
        this.notification = notification;
    }

    public String toJson() {
        String json = "{\"audience\":" + Wire.quote((String) audience) + ",\"platform\":" + Wire.quote((String) platform);
        if (notification != null) json += ",\"notification\":{\"alert\":" + Wire.quote(notification.getAlert()) + "}";
        return json + "}";
    }
}
