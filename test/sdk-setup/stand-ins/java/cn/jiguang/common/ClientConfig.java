package cn.jiguang.common;

import java.util.HashMap;

/**
 * Stands in for jiguang-common 1.2.x's ClientConfig (jpush/jiguang-java-client-common,
 * src/main/java/cn/jiguang/common/ClientConfig.java): one map per JVM, the vendor's hosts by
 * default, the setters the docs use. JSMSConfig and JPushConfig write into the same map.
 */
public class ClientConfig extends HashMap<String, Object> {
    public static final String DEVICE_HOST_NAME = "device.host.name";
    public static final String PUSH_HOST_NAME = "push.host.name";
    public static final String PUSH_PATH = "push.path";
    public static final String REPORT_HOST_NAME = "report.host.name";
    public static final String SCHEDULE_HOST_NAME = "schedule.host.name";

    private static final ClientConfig instance = new ClientConfig();

    private ClientConfig() {
        put(DEVICE_HOST_NAME, "https://device.jpush.cn");
        put(PUSH_HOST_NAME, "https://api.jpush.cn");
        put(PUSH_PATH, "/v3/push");
        put(REPORT_HOST_NAME, "https://report.jpush.cn");
        put(SCHEDULE_HOST_NAME, "https://api.jpush.cn");
    }

    public static ClientConfig getInstance() {
        return instance;
    }

    public void setDeviceHostName(String hostName) {
        put(DEVICE_HOST_NAME, hostName);
    }

    public void setPushHostName(String hostName) {
        put(PUSH_HOST_NAME, hostName);
    }

    public void setReportHostName(String hostName) {
        put(REPORT_HOST_NAME, hostName);
    }

    public void setScheduleHostName(String hostName) {
        put(SCHEDULE_HOST_NAME, hostName);
    }
}
