package io.slagate.gateway.ingress;

import io.slagate.gateway.proxy.FaultAnswers;
import io.slagate.gateway.proxy.GatewayContext;

import io.slagate.gateway.quota.Quotas;
import io.slagate.gateway.soap.FaultReason;

/**
 * A request over its customer's quota (its own, else its grade's) is answered at once with the time to retry: never
 * queued, never an arrival of its class (its utility and the manager's load figures do not see it), never sent to a
 * server. Checked only for a request that is one (a malformed request spends no quota and makes no bucket).
 */
final class QuotaStage implements IngressStage {
    private final GatewayContext context;

    QuotaStage(GatewayContext context) {
        this.context = context;
    }

    @Override
    public Verdict apply(Ingress in) {
        Quotas quotas = context.quotas;
        if (in.refused != null || quotas == null || !quotas.any()) {
            return Verdict.NEXT;
        }
        String key = quotas.ownKey(in.customer); // the grade only when the customer has no quota of its own
        if (key == null) {
            key = quotas.gradeKey(in.customer, in.classification.classifier().grade(in.customer, in.service));
        }
        long waitNanos = key == null ? 0 : quotas.tryAcquire(key, in.now);
        if (waitNanos <= 0) {
            return Verdict.NEXT;
        }
        int retryAfter = (int) Math.min(3600, Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L));
        FaultAnswers.write(context, in.response, in.callback, in.version, FaultReason.QUOTA_EXCEEDED,
                context.classNames[in.cls], retryAfter);
        if (context.accessLog != null) {
            context.accessLog.refused(in.request, in.response, in.customer, context.classNames[in.cls], in.operation,
                    FaultReason.QUOTA_EXCEEDED);
        }
        return Verdict.ANSWERED;
    }
}
