package io.slagate.gateway.ingress;

/** The request's deadline: its class's, or the one its client asks for within it. */
final class DeadlineStage implements IngressStage {
    @Override
    public Verdict apply(Ingress in) {
        in.exchange.deadline(in.request.getHeaders());
        return Verdict.NEXT;
    }
}
