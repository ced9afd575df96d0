package cn.jpush.api;

import cn.jiguang.common.ClientConfig;
import cn.jiguang.common.connection.HttpProxy;
import cn.jiguang.common.connection.NativeHttpClient;
import cn.jpush.api.push.PushResult;
import cn.jpush.api.push.model.PushPayload;
import standin.Wire;

/**
 * Stands in for jpush-client 3.7.8's JPushClient (jpush/jpush-api-java-client,
 * src/main/java/cn/jpush/api/JPushClient.java and push/PushClient.java): the push host and path
 * are read from the ClientConfig when the client is built; sendPush posts the payload's JSON to
 * host + "/v3/push" with "Basic base64(appKey:masterSecret)".
 */
public class JPushClient {
    private final String pushUrl;
    private final NativeHttpClient http;

    public JPushClient(String masterSecret, String appKey, HttpProxy proxy, ClientConfig conf) {
        this.pushUrl = (String) conf.get(ClientConfig.PUSH_HOST_NAME) + conf.get(ClientConfig.PUSH_PATH);
        this.http = new NativeHttpClient(Wire.basic(appKey, masterSecret));
    }

    public PushResult sendPush(PushPayload pushPayload) throws Exception {
        Wire.Answer answer = http.sendPost(pushUrl, pushPayload.toString());
        return PushResult.from(answer);
    }
}
