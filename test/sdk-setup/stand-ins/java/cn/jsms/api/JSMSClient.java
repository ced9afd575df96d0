package cn.jsms.api;

import cn.jiguang.common.connection.HttpProxy;
import cn.jiguang.common.connection.NativeHttpClient;
import cn.jsms.api.common.JSMSConfig;
import cn.jsms.api.common.model.SMSPayload;
import standin.Wire;

/**
 * Stands in for jsms-client 1.2.10's JSMSClient and SMSClient (src/main/java/cn/jsms/api/
 * JSMSClient.java, common/SMSClient.java): the host and path are read from the config when the
 * client is built; sendSMSCode posts the payload's Gson JSON with jiguang-common's NativeHttpClient.
 */
public class JSMSClient {
    private final String codesUrl;
    private final NativeHttpClient http;

    public JSMSClient(String masterSecret, String appkey, HttpProxy proxy, JSMSConfig conf) {
        this.codesUrl = (String) conf.get(JSMSConfig.API_HOST_NAME) + conf.get(JSMSConfig.CODE_PATH);
        this.http = new NativeHttpClient(Wire.basic(appkey, masterSecret));
    }

    public SendSMSResult sendSMSCode(SMSPayload payload) throws Exception {
        Wire.Answer answer = http.sendPost(codesUrl, payload.toString());
        return new SendSMSResult(Wire.field(answer.body, "msg_id"), answer.status);
    }
}
