package io.slagate.load.service;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.axis2.context.MessageContext;

/**
 * The paper's example service (section III): quotes and trades, each spending a synthetic service
 * time. Axis2 exposes the public methods as operations (RPC style) and generates the WSDL. Axis2
 * makes one instance per request, so the work model is shared through {@link #configure}.
 */
public class StockUtility {
    private static volatile ServiceTime serviceTime = ServiceTime.paper(0.02, 0.1);
    /** The worker pool of {@link ServiceTime#workers}, or null when unbounded. */
    private static volatile Semaphore workers;

    private static final AtomicInteger executing = new AtomicInteger();
    private static final AtomicInteger peak = new AtomicInteger();

    public static void configure(ServiceTime t) {
        workers = t.workers() > 0 ? new Semaphore(t.workers(), true) : null;
        serviceTime = t;
        peak.set(0);
    }

    /** The most requests that executed at once since the last {@link #configure} (all servers of this JVM together). */
    public static int peakExecuting() {
        return peak.get();
    }

    /** One request's work: on its server's knobs when it has them (a BackendServer), else after the JVM's pool. */
    private static void perform(String operation) {
        MessageContext mc = MessageContext.getCurrentMessageContext();
        Object knobs = mc == null ? null : mc.getConfigurationContext().getProperty(ServerKnobs.PROPERTY);
        if (knobs instanceof ServerKnobs k) {
            k.perform(serviceTime, operation);
            return;
        }
        Semaphore pool = workers;
        if (pool == null) {
            serviceTime.perform(operation);
            return;
        }
        pool.acquireUninterruptibly();
        try {
            peak.accumulateAndGet(executing.incrementAndGet(), Math::max);
            serviceTime.perform(operation);
        } finally {
            executing.decrementAndGet();
            pool.release();
        }
    }

    public static ServiceTime serviceTime() {
        return serviceTime;
    }

    public double getQuote(String symbol) {
        perform("getQuote");
        return 100 + (symbol == null ? 0 : (symbol.hashCode() & 0xff) / 10.0);
    }

    public String buyShares(String symbol, int count) {
        perform("buyShares");
        return "bought " + count + " " + symbol;
    }

    public String sellShares(String symbol, int count) {
        perform("sellShares");
        return "sold " + count + " " + symbol;
    }
}
