package cn.jsms.api.common;

import cn.jiguang.common.ClientConfig;

/**
 * Stands in for jsms-client 1.2.10's JSMSConfig (jpush/jsms-api-java-client,
 * src/main/java/cn/jsms/api/common/JSMSConfig.java): it writes the JSMS host and paths into
 * jiguang-common's ClientConfig singleton, and reads them from it.
 */
public class JSMSConfig {
    public static final String API_HOST_NAME = "sms.api.host.name";
    public static final String CODE_PATH = "sms.code.path";

    private static final ClientConfig clientConfig = ClientConfig.getInstance();
    private static final JSMSConfig instance = new JSMSConfig();

    public JSMSConfig() {
        clientConfig.put(API_HOST_NAME, "https://api.sms.jpush.cn");
        clientConfig.put(CODE_PATH, "/v1/codes");
    }

    public static JSMSConfig getInstance() {
        return instance;
    }

    public ClientConfig getClientConfig() {
        return clientConfig;
    }

    public Object get(String key) {
        return clientConfig.get(key);
    }
}
