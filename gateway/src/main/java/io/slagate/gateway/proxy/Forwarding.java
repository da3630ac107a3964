package io.slagate.gateway.proxy;

/** Where an admitted exchange goes: its server's leg, on its own loop (the dispatcher). */
public interface Forwarding {
    /** Sends the admitted {@code ex} to the server it was given. */
    void forward(UpstreamExchange ex);
}
