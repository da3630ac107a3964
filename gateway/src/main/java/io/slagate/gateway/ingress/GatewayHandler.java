package io.slagate.gateway.ingress;

import io.slagate.config.SlagateConfig;
import io.slagate.gateway.classify.Classifier;
import io.slagate.gateway.classify.TwinSplit;
import io.slagate.gateway.proxy.ClientHandler;
import io.slagate.gateway.proxy.GatewayContext;
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
public final class GatewayHandler extends ClientHandler {
    private final GatewayContext context;
    private volatile Ingress.Classification classification;
    private final RefusalStage refusals;
    private final IngressStage[] stages;

    public GatewayHandler(GatewayContext context, SlagateConfig config) {
        this.context = context;
        long maxRequestBytes = config.gateway().maxRequestBytes();
        this.classification = classification(config);
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

    private static Ingress.Classification classification(SlagateConfig config) {
        return new Ingress.Classification(new Classifier(config), config.classification().customerHeader(), TwinSplit.of(config));
    }

    @Override
    public void reclassify(SlagateConfig next) {
        this.classification = classification(next);
    }

    @Override
    public void stopAccepting() {
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
        in.exchange.enqueue();
    }
}
