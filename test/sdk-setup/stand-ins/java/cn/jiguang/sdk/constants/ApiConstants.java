package cn.jiguang.sdk.constants;

/** Stands in for jiguang-sdk 5.3.0's ApiConstants (jpush/jiguang-sdk-java, jiguang-sdk/src/main/java/cn/jiguang/sdk/constants/ApiConstants.java). */
public interface ApiConstants {
    interface Audience {
        String ALL = "all";
    }

    interface Platform {
        String ALL = "all";
    }
}
