package io.slagate.gateway.testing;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server that writes a forged, complete answer 50 ms after each answer to a request whose path
 * asks for {@code ?mode=late_tail}, and the load that exposes where that answer lands: clients
 * alternating a late_tail request with a good one. Every answer, real or forged, names the request
 * it belongs to ({@code X-Req: client.kind.n}), so a client can tell its own answer from another
 * client's, and client k being customer c(k mod 2), another customer's.
 */
public final class LateTail {
    private static final Pattern REQ = Pattern.compile("X-Req: (\\S+)");
    private static final Pattern ANSWER = Pattern.compile("<(answer|forged)>(\\S+?)</");

    /**
     * What the clients got: answers of their own, of another client, of another customer, anything else,
     * and every answer that was not the request's own (a stray of its own client's earlier request too).
     */
    public record Outcome(int own, int crossedClients, int crossedCustomers, int other, int notOwn) {
    }

    private LateTail() {
    }

    /** Makes {@code b} answer each request with its id, and write a forged answer 50 ms after answers to late_tail requests. */
    public static void misbehave(ScriptedBackend b) {
        misbehave(b, 50);
    }

    /**
     * As {@link #misbehave(ScriptedBackend)}, the forged answer {@code delayMillis} after the real one (the
     * server reads nothing on that connection meanwhile, as a server busy writing its stray would).
     */
    public static void misbehave(ScriptedBackend b, long delayMillis) {
        answerOwnId(b);
        b.strayAfterAnswersTo(head -> {
            if (!head.startsWith("POST ") || !head.substring(0, head.indexOf('\r')).contains("mode=late_tail")) {
                return null;
            }
            return answer("forged", id(head));
        }, delayMillis);
    }

    /** Makes {@code b} answer each request with its id, and nothing else. */
    public static void answerOwnId(ScriptedBackend b) {
        b.answerWith(head -> answer("answer", id(head)));
    }

    /** The answer to a request head that carries its own id ({@code X-Req}): {@code <answer>id</answer>}. */
    public static String ownAnswer(String head) {
        return answer("answer", id(head));
    }

    private static String answer(String tag, String id) {
        String body = "<" + tag + ">" + id + "</" + tag + ">";
        return "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private static String id(String head) {
        Matcher m = REQ.matcher(head);
        return m.find() ? m.group(1) : "none";
    }

    /**
     * {@code clients} clients, each sending {@code goodPerClient} pairs of a late_tail request and a
     * good one to {@code path}, every request on its own connection ({@code Connection: close}).
     */
    public static Outcome run(int port, String path, int clients, int goodPerClient, String body) throws Exception {
        return run(port, path, clients, goodPerClient, body, false);
    }

    /** As {@link #run(int, String, int, int, String)}; with {@code keepAlive} each client sends all its requests on one connection. */
    public static Outcome run(int port, String path, int clients, int goodPerClient, String body, boolean keepAlive) throws Exception {
        AtomicInteger[] counts = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
        eachClient(clients, client -> {
            try (Socket socket = keepAlive ? RawHttp.open(port, 30_000) : null) {
                oneClient(port, socket, path, client, goodPerClient, body, counts);
            }
        });
        return new Outcome(counts[0].get(), counts[1].get(), counts[2].get(), counts[3].get(), counts[4].get());
    }

    /**
     * {@code clients} clients, each on its own keep-alive connection sending {@code perClient} requests with their own
     * ids ({@code X-Req}) to {@code path}; returns how many answers were the request's own.
     */
    public static int ownAnswersOnKeepAlive(int port, String path, int clients, int perClient, String body) throws Exception {
        AtomicInteger own = new AtomicInteger();
        eachClient(clients, client -> {
            try (Socket socket = RawHttp.open(port, 15_000)) {
                for (int n = 0; n < perClient; n++) {
                    String reqId = client + ".ka." + n;
                    socket.getOutputStream().write(RawHttp.post(path, "X-Req: " + reqId + "\r\n", body).getBytes(StandardCharsets.ISO_8859_1));
                    if (RawHttp.read(socket.getInputStream()).body().equals("<answer>" + reqId + "</answer>")) {
                        own.incrementAndGet();
                    }
                }
            }
        });
        return own.get();
    }

    /** One client's work, given its index. */
    private interface ClientWork {
        void run(int client) throws Exception;
    }

    /** Runs {@code work} for clients 0 … {@code clients} − 1 at once, each on its own thread; returns when all have ended. */
    private static void eachClient(int clients, ClientWork work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int k = 0; k < clients; k++) {
                int client = k;
                all.add(pool.submit(() -> {
                    work.run(client);
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Counts: own, crossed clients, crossed customers, other, not its own (any answer that was not this request's). */
    private static void oneClient(int port, Socket socket, String path, int client, int pairs, String body, AtomicInteger[] counts)
            throws IOException {
        String headers = "Authorization: Basic " + Base64.getEncoder().encodeToString(("c" + client % 2 + ":pw")
                .getBytes(StandardCharsets.UTF_8)) + (socket != null ? "\r\n" : "\r\nConnection: close\r\n");
        for (int n = 0; n < pairs; n++) {
            for (String kind : new String[] {"tail", "good"}) {
                String reqId = client + "." + kind + "." + n;
                String to = kind.equals("tail") ? path + "?mode=late_tail" : path;
                String raw = RawHttp.post(to, headers + "X-Req: " + reqId + "\r\n", body);
                String got = socket != null ? exchange(socket, raw) : RawHttp.exchange(port, raw).body();
                Matcher m = ANSWER.matcher(got);
                if (!m.find()) {
                    counts[3].incrementAndGet();
                } else if (m.group(1).equals("answer") && m.group(2).equals(reqId)) {
                    counts[0].incrementAndGet();
                } else {
                    counts[4].incrementAndGet();
                    int from = Integer.parseInt(m.group(2).substring(0, m.group(2).indexOf('.')));
                    if (from != client) {
                        counts[1].incrementAndGet();
                    }
                    if (from % 2 != client % 2) {
                        counts[2].incrementAndGet();
                    }
                }
            }
        }
    }

    private static String exchange(Socket socket, String raw) throws IOException {
        socket.getOutputStream().write(raw.getBytes(StandardCharsets.ISO_8859_1));
        return RawHttp.read(socket.getInputStream()).body();
    }
}
