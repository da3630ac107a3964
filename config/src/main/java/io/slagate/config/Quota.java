package io.slagate.config;

/**
 * A subscription quota: at most {@code ratePerSecond} requests per second across every gateway, with
 * bursts of up to {@code burst} requests above the steady pace.
 *
 * @param text          the rate as written ({@code 100/s}, {@code 6000/min}), for messages
 */
public record Quota(double ratePerSecond, int burst, String text) {
    /** The key of the bucket a customer's requests draw on: its own quota, or its grade's (one bucket per customer). */
    public static String customerKey(String customer) {
        return "customer:" + (customer == null ? "-" : customer);
    }

    public static String gradeKey(String grade, String customer) {
        return "grade:" + grade + ":" + (customer == null ? "-" : customer);
    }
}
