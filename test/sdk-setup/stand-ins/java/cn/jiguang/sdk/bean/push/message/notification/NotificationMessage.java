package cn.jiguang.sdk.bean.push.message.notification;

/** Stands in for jiguang-sdk 5.3.0's NotificationMessage: Jackson writes alert, and the platform parts only when set (NON_NULL). */
public class NotificationMessage {
    private String alert;

    public void setAlert(String alert) {
        this.alert = alert;
    }

    public String getAlert() {
        return alert;
    }
}
