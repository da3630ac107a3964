package io.slagate.experiment.twin;

import java.util.PriorityQueue;
import java.util.function.LongSupplier;

/**
 * Time in the twin: a calendar of events run in time order, ties in the order they were scheduled, so a run
 * is a function of its seed alone. Its clock, in nanoseconds, is what the production classes read instead
 * of {@code System.nanoTime}; nothing waits, an event's time is simply the clock's next value.
 */
public final class VirtualTime implements LongSupplier {
    private record Event(long at, long order, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(order, o.order);
        }
    }

    private final PriorityQueue<Event> calendar = new PriorityQueue<>();
    private long now;
    private long scheduled;

    @Override
    public long getAsLong() {
        return now;
    }

    public long now() {
        return now;
    }

    public double seconds() {
        return now / 1e9;
    }

    /** Runs {@code action} at {@code atNanos} (not before now). */
    public void at(long atNanos, Runnable action) {
        if (atNanos < now) {
            throw new IllegalArgumentException("an event in the past: " + atNanos + " < " + now);
        }
        calendar.add(new Event(atNanos, scheduled++, action));
    }

    public void after(long delayNanos, Runnable action) {
        at(now + delayNanos, action);
    }

    /** Runs {@code action} at {@code firstNanos} and every {@code periodNanos} after, for as long as the run lasts. */
    public void every(long firstNanos, long periodNanos, Runnable action) {
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("a period must be positive: " + periodNanos);
        }
        at(firstNanos, new Runnable() {
            private long next = firstNanos;

            @Override
            public void run() {
                action.run();
                next += periodNanos;
                at(next, this);
            }
        });
    }

    /** Runs every event due up to {@code endNanos}, then stands the clock there. */
    public void runUntil(long endNanos) {
        while (!calendar.isEmpty() && calendar.peek().at <= endNanos) {
            Event e = calendar.poll();
            now = e.at;
            e.action.run();
        }
        now = Math.max(now, endNanos);
    }

    public static long nanos(double seconds) {
        return Math.round(seconds * 1e9);
    }
}
