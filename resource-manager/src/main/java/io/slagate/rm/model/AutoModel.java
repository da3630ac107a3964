package io.slagate.rm.model;


/**
 * Picks a model per flow from what is observed: the closed population model where the flow queues
 * for its slots (its response time exceeds its service time by over {@value #QUEUEING_FRACTION} of it,
 * so its population can be calibrated), open M/M/m where it does not (or no population reproduces
 * it), and the paper's M/M/1 where the gateway reports no service time. What it picked is reported
 * with every decision ({@link #nameFor}).
 */
public final class AutoModel implements ResponseTimeModel {
    static final double QUEUEING_FRACTION = 0.05;
    private final ClosedPopulationModel closed = new ClosedPopulationModel();
    private final ErlangCModel open = new ErlangCModel();
    private final MM1Model mm1 = new MM1Model();

    @Override
    public String name() {
        return "auto";
    }

    @Override
    public String nameFor(FlowObservation o) {
        return pick(o).name();
    }

    @Override
    public double predictSeconds(FlowObservation o, double w) {
        return pick(o).predictSeconds(o, w);
    }

    @Override
    public double floorSeconds(FlowObservation o) {
        return pick(o).floorSeconds(o);
    }

    @Override
    public double predictQuantileSeconds(FlowObservation o, double w, double p) {
        return pick(o).predictQuantileSeconds(o, w, p);
    }

    private ResponseTimeModel pick(FlowObservation o) {
        if (o.isEmpty() || !o.hasServiceTime()) {
            return mm1;
        }
        boolean queues = o.responseSeconds() - o.serviceSeconds() > QUEUEING_FRACTION * o.serviceSeconds();
        return queues && closed.population(o) != null ? closed : open;
    }
}
