package io.slagate.gateway.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A misbehaving server and the load that exposes it: each answer names the request it
 * answers (its {@code X-Req} header), and 50 ms after it the server writes a second, forged, complete
 * answer on the same connection. {@link #run} sends numbered requests and counts, per request, whether
 * it got its own answer, another request's (crossed), or the forged one.
 */
public final class StrayAnswers {
    public static final String FORGED_BODY = "<forged/>";
    private static final Pattern ID = Pattern.compile("X-Req: (\\d+)");

    /** What the clients got. */
    public record Outcome(int own, int crossed, int forged) {
    }

    private StrayAnswers() {
    }

    /** Makes {@code b} answer each request with its id, then write a forged answer 50 ms later. */
    public static void misbehave(ScriptedBackend b) {
        b.answerWith(head -> {
            Matcher m = ID.matcher(head);
            String body = "<answer>" + (m.find() ? m.group(1) : "none") + "</answer>";
            return "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
        });
        b.strayAfterEachAnswer("HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: " + FORGED_BODY.length()
                + "\r\n\r\n" + FORGED_BODY, 50);
    }

    /** Sends {@code requests} requests, {@code concurrency} at a time; {@code rawRequest} makes request n with header X-Req: n. */
    public static Outcome run(int port, int requests, int concurrency, IntFunction<String> rawRequest) throws Exception {
        int[] counts = new int[3];
        ExecutorService clients = Executors.newFixedThreadPool(concurrency);
        try {
            List<Future<Integer>> all = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                int n = i;
                all.add(clients.submit(() -> {
                    String body = RawHttp.exchange(port, rawRequest.apply(n)).body();
                    return body.equals("<answer>" + n + "</answer>") ? 0 : body.startsWith("<answer>") ? 1
                            : body.equals(FORGED_BODY) ? 2 : -1;
                }));
            }
            for (Future<Integer> f : all) {
                int k = f.get(60, TimeUnit.SECONDS);
                if (k >= 0) {
                    counts[k]++;
                }
            }
        } finally {
            clients.shutdownNow();
        }
        return new Outcome(counts[0], counts[1], counts[2]);
    }
}
