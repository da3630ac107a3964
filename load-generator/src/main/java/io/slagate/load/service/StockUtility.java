package io.slagate.load.service;

/**
 * The paper's example service (section III): quotes and trades, each spending a synthetic service
 * time. Axis2 exposes the public methods as operations (RPC style) and generates the WSDL. Axis2
 * makes one instance per request, so the work model is shared through {@link #configure}.
 */
public class StockUtility {
    private static volatile ServiceTime serviceTime = ServiceTime.paper(0.02, 0.1);

    public static void configure(ServiceTime t) {
        serviceTime = t;
    }

    public static ServiceTime serviceTime() {
        return serviceTime;
    }

    public double getQuote(String symbol) {
        serviceTime.perform("getQuote");
        return 100 + (symbol == null ? 0 : (symbol.hashCode() & 0xff) / 10.0);
    }

    public String buyShares(String symbol, int count) {
        serviceTime.perform("buyShares");
        return "bought " + count + " " + symbol;
    }

    public String sellShares(String symbol, int count) {
        serviceTime.perform("sellShares");
        return "sold " + count + " " + symbol;
    }
}
