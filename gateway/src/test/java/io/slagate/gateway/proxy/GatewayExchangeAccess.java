package io.slagate.gateway.proxy;


/** Test access to the exchange's package-private parsing. */
public final class GatewayExchangeAccess {
    private GatewayExchangeAccess() {
    }

    public static long parseMillis(String s) {
        return GatewayExchange.parseMillis(s);
    }
}
