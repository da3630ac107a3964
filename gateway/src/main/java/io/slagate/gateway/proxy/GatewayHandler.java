package io.slagate.gateway.proxy;

import io.slagate.gateway.classify.Classifier;
import io.slagate.gateway.classify.TwinSplit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The gateway's entry point for client requests: classification and queueing handlers of section III-A, as a list of
 * named stages ({@link IngressStage}) run in order: the customer, the class, what is refused, the quota, the arrival,
 * the trace, the request type, the deadline, the pool, the body; then the queue. A stage that waits (a credential
 * check, the body) returns, and the request resumes at the next stage on its own loop: no thread is held, and this
 * method returns at once.
 */
final class GatewayHandler extends Handler.Abstract.NonBlocking {
    private final GatewayContext context;
    private volatile Ingress.Classification classification;
    private final RefusalStage refusals;
    private final IngressStage[] stages;

    GatewayHandler(GatewayContext context, Classifier classifier, String customerHeader, long maxRequestBytes,
                   TwinSplit split) {
        this.context = context;
        this.classification = new Ingress.Classification(classifier, customerHeader, split);
        UsernameTokens tokens = context.authenticator == null ? null
                : UsernameTokens.of(context, context.authenticator.settings(), maxRequestBytes);
        this.refusals = new RefusalStage(context, maxRequestBytes);
        this.stages = new IngressStage[] {
            new AuthenticationStage(context, tokens, this),
            new ClassificationStage(),
            refusals,
            new QuotaStage(context),
            new ArrivalStage(context),
            new TracingStage(context),
            new LocalityStage(context),
            new DeadlineStage(),
            new PoolStage(context),
            new BodyStage(context, tokens, maxRequestBytes, this),
        };
    }

    /** Replaces the rules, subscriptions and customer source; requests already classified keep their class. */
    void setClassification(Classifier classifier, String customerHeader, TwinSplit split) {
        this.classification = new Ingress.Classification(classifier, customerHeader, split);
    }

    /** After this, new requests get a shutting-down fault; requests already accepted finish. */
    void stopAccepting() {
        refusals.stopAccepting();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        resume(new Ingress(request, response, callback, context.clock.getAsLong(), classification));
        return true;
    }

    /** Runs {@code in}'s stages from the one it stands at until one answers or waits; past the last, the queue. */
    void resume(Ingress in) {
        IngressStage[] s = stages;
        while (in.next < s.length) {
            if (s[in.next++].apply(in) != IngressStage.Verdict.NEXT) {
                return;
            }
        }
        GatewayExchange ex = in.exchange;
        if (ex.offer()) {
            context.dispatcher.forward(ex);
        }
    }
}
