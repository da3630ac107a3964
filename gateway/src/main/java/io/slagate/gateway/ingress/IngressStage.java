package io.slagate.gateway.ingress;

/**
 * One step of a request's way in, with one job: it lets the request go on, answers it (a refusal), or waits for
 * something (a credential check, the body) and resumes it on its own loop ({@link GatewayHandler#resume}). A new
 * per-request concern is a new stage in {@link GatewayHandler}'s list, not a new branch in the handler.
 */
interface IngressStage {
    enum Verdict {
        /** The request goes on to the next stage. */
        NEXT,
        /** The stage answered the request: nothing after it runs. */
        ANSWERED,
        /** The stage waits; whoever it waits for resumes the request, or answers it. */
        PENDING
    }

    Verdict apply(Ingress in);
}
