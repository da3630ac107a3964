package io.slagate.bus.message;

import java.util.List;

/**
 * A gateway's counts toward its classes' objectives, each a running total since {@code epochMillis} (when the gateway's
 * ledger began: a restart begins a new one). Totals, not an interval's increments, so that a report lost, repeated or
 * late changes nothing: the writer takes the difference from the last total it stored, and a report it missed is
 * carried by the next. A report names the rows that changed since the gateway's last report and, now and then, the
 * others again; at most {@value #MAX_ROWS} rows and {@value #MAX_NAME_CHARS} characters of names, the rest in the
 * reports after.
 */
public record SlaTally(long epochMillis, List<Row> rows) {
    /** Rows per report: 4,000 rows of about 80 characters stay well within a bus message. */
    public static final int MAX_ROWS = 4_000;
    /** The longest customer or class name a row may carry. */
    public static final int MAX_NAME = 256;
    /**
     * The largest running total a row may carry: a year of 30,000 requests a second, and far enough below a long's range
     * that no sum of a store's rows overflows.
     */
    public static final long MAX_COUNT = 1_000_000_000_000_000L;
    /** The characters of names a tally's rows may carry in all, which keeps its message within the bus's limit. */
    public static final int MAX_NAME_CHARS = 400_000;

    /** One customer's and class's totals: the requests that counted, and of them those answered within the goal. */
    public record Row(String customer, String className, long requests, long good) {
        public Row {
            if (customer == null || className == null || customer.length() > MAX_NAME || className.length() > MAX_NAME) {
                throw new IllegalArgumentException("an SLA row needs a customer and a class of at most " + MAX_NAME + " characters");
            }
            if (customer.indexOf('\u0000') >= 0 || className.indexOf('\u0000') >= 0) {
                throw new IllegalArgumentException("an SLA row's names cannot hold NUL (no store keeps it)");
            }
            if (requests > MAX_COUNT) {
                throw new IllegalArgumentException("an SLA row's total " + requests + " is beyond " + MAX_COUNT);
            }
            if (requests < 0 || good < 0 || good > requests) {
                throw new IllegalArgumentException("an SLA row needs 0 ≤ good ≤ requests, not good " + good + " of " + requests);
            }
        }
    }

    public SlaTally {
        rows = rows == null ? List.of() : List.copyOf(rows);
        if (rows.size() > MAX_ROWS) {
            throw new IllegalArgumentException("an SLA tally of " + rows.size() + " rows, at most " + MAX_ROWS);
        }
        long chars = rows.stream().mapToLong(r -> r.customer().length() + r.className().length()).sum();
        if (chars > MAX_NAME_CHARS) {
            throw new IllegalArgumentException("an SLA tally's names hold " + chars + " characters, at most " + MAX_NAME_CHARS);
        }
    }
}
