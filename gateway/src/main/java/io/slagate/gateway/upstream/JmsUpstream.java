package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.GatewayContext;
import io.slagate.gateway.proxy.UpstreamExchange;

import io.slagate.gateway.soap.FaultReason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** SOAP over JMS: the send runs off the event loop, since it can block (broker flow control, a reconnect). */
final class JmsUpstream implements Upstream {
    private static final Logger LOG = LoggerFactory.getLogger(JmsUpstream.class);

    private final GatewayContext context;
    private final JmsDispatcher jms;

    JmsUpstream(GatewayContext context, JmsDispatcher jms) {
        this.context = context;
        this.jms = jms;
    }

    @Override
    public void send(UpstreamExchange ex) {
        context.executor.execute(() -> {
            try {
                jms.send(ex);
            } catch (RuntimeException e) {
                LOG.warn("{} P2S could not be sent", ex, e);
                ex.fault(FaultReason.SERVER_FAILED);
            }
        });
    }
}
