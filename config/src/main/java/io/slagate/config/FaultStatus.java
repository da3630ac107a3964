package io.slagate.config;


/**
 * The HTTP status that carries a gateway-generated SOAP Fault.
 *
 * <p>{@link #WSI} (the default) follows the WS-I Basic Profile: a SOAP 1.1 fault travels with 500,
 * and a SOAP 1.2 fault with 500 for a Receiver fault or 400 for a Sender fault (SOAP 1.2 part 2,
 * HTTP binding), because common SOAP client stacks parse a fault body only under those statuses.
 * {@link #HTTP} uses statuses with HTTP semantics (503, 502, 504, 413, 400) for clients and load
 * balancers that act on them.
 */
public enum FaultStatus {
    WSI,
    HTTP;

    static FaultStatus parse(String s) {
        return switch (s) {
            case "wsi" -> WSI;
            case "http" -> HTTP;
            default -> null;
        };
    }
}
