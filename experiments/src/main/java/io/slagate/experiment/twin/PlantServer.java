package io.slagate.experiment.twin;

import java.util.ArrayList;
import java.util.List;

/**
 * A simulated server. A request brings its work in seconds at speed 1; the server serves it by its discipline:
 * <ul>
 *   <li>{@code DELAY}: every request at once, each at the server's speed (no worker limit: the paper's backend,
 *   where the gateway's cap N_s is the only limit);</li>
 *   <li>{@code PS}: processor sharing over {@code processors}: each of n requests at speed·min(1, processors/n);</li>
 *   <li>{@code FCFS}: {@code processors} workers taking requests in arrival order.</li>
 * </ul>
 * A change of speed (a slowdown) applies at once to the work left of every request in service.
 */
public final class PlantServer {
    public enum Discipline { DELAY, PS, FCFS }

    /** Work left at or below this (seconds) is done: the completion event's time is rounded up to a nanosecond. */
    private static final double DONE = 1e-9;

    private static final class Job {
        double remaining;
        final Runnable done;

        Job(double remaining, Runnable done) {
            this.remaining = remaining;
            this.done = done;
        }
    }

    private final VirtualTime time;
    private final Discipline discipline;
    private final int processors;
    private final List<Job> jobs = new ArrayList<>();
    private double speed = 1;
    private long last;
    /** The completion event in the calendar; an older one finds its token changed and does nothing. */
    private long token;

    public PlantServer(VirtualTime time, Discipline discipline, int processors) {
        if (processors < 1) {
            throw new IllegalArgumentException("a server needs at least one processor: " + processors);
        }
        this.time = time;
        this.discipline = discipline;
        this.processors = processors;
        this.last = time.now();
    }

    /** A request of {@code work} seconds starts; {@code done} runs when it completes. */
    public void start(double work, Runnable done) {
        advance();
        jobs.add(new Job(Math.max(0, work), done));
        reschedule();
    }

    /** From now on the server works at {@code speed} (1: as measured; 0.5: twice as slow). */
    public void speed(double speed) {
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("a speed must be positive and finite: " + speed);
        }
        advance();
        this.speed = speed;
        reschedule();
    }

    public int inService() {
        return jobs.size();
    }

    private double rate(int i, int n) {
        return switch (discipline) {
            case DELAY -> speed;
            case PS -> speed * Math.min(1.0, processors / (double) n);
            case FCFS -> i < processors ? speed : 0;
        };
    }

    private void advance() {
        long now = time.now();
        double dt = (now - last) / 1e9;
        last = now;
        if (dt <= 0) {
            return;
        }
        int n = jobs.size();
        for (int i = 0; i < n; i++) {
            Job j = jobs.get(i);
            j.remaining -= rate(i, n) * dt;
        }
    }

    private void reschedule() {
        long mine = ++token;
        int n = jobs.size();
        double soonest = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double r = rate(i, n);
            if (r > 0) {
                soonest = Math.min(soonest, Math.max(0, jobs.get(i).remaining) / r);
            }
        }
        if (soonest == Double.POSITIVE_INFINITY) {
            return;
        }
        time.after((long) Math.ceil(soonest * 1e9), () -> {
            if (token == mine) {
                complete();
            }
        });
    }

    private void complete() {
        advance();
        List<Runnable> finished = new ArrayList<>(1);
        for (int i = 0; i < jobs.size(); ) {
            Job j = jobs.get(i);
            if (j.remaining <= DONE) {
                jobs.remove(i);
                finished.add(j.done);
            } else {
                i++;
            }
        }
        reschedule();
        for (Runnable r : finished) {
            r.run();
        }
    }
}
