package cn.jiguang.common.connection;

/** Stands in for jiguang-common's HttpProxy: the type of the clients' `proxy` argument (null here). */
public class HttpProxy {
}
