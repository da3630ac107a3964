package io.slagate.experiment;

import io.slagate.load.service.Bookstore;
import io.slagate.load.service.ItemCache;
import io.slagate.load.service.WorkingSetModel;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed-loop clients without think time, one thread each, drawing operations from a mix with their own seeds, or
 * documents by their popularity (each request the Bookstore's {@code document} operation, the document in its
 * {@value WorkingSetModel#DOCUMENT_HEADER} header).
 */
final class ClosedLoop {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String url;
    /** The mix in force: operations and their cumulative shares, replaced whole when the mix changes. */
    private volatile Mix mix;

    private record Mix(String[] ops, double[] cumulative) {
    }
    /** The documents' cumulative popularity (null: operations from the mix). */
    private final double[] documents;
    /** Requests answered 200, measured or not (for per-second series). */
    final AtomicLong answered = new AtomicLong();
    private final int clients;
    private final long seed;
    private final List<Thread> threads = new ArrayList<>();
    private final List<Client> all = new ArrayList<>();
    private final AtomicLong errors = new AtomicLong();
    private volatile boolean measuring;
    private volatile boolean running = true;

    /** One client's draws and the response times it recorded while measuring (guarded by itself). */
    private static final class Client {
        final Random random;
        long[] took = new long[1024];
        int count;

        Client(Random random) {
            this.random = random;
        }

        synchronized void record(long nanos) {
            if (count == took.length) {
                took = Arrays.copyOf(took, count * 2);
            }
            took[count++] = nanos;
        }
    }

    ClosedLoop(String gatewayUrl, Map<String, Double> mix, int clients, long seed) {
        this(gatewayUrl, mix, null, clients, seed);
    }

    /** Clients that read documents with cumulative popularity {@code documents} (e.g. {@link ItemCache#zipfCdf}). */
    ClosedLoop(String gatewayUrl, double[] documents, int clients, long seed) {
        this(gatewayUrl, Map.of("document", 1.0), documents, clients, seed);
    }

    private ClosedLoop(String gatewayUrl, Map<String, Double> mix, double[] documents, int clients, long seed) {
        this.url = gatewayUrl + "/services/" + Bookstore.SERVICE;
        mix(mix);
        this.documents = documents;
        this.clients = clients;
        this.seed = seed;
    }

    /** From now on, operations are drawn from {@code shares}. */
    void mix(Map<String, Double> shares) {
        String[] ops = shares.keySet().toArray(String[]::new);
        double[] cumulative = new double[ops.length];
        double total = shares.values().stream().mapToDouble(Double::doubleValue).sum();
        double acc = 0;
        for (int i = 0; i < ops.length; i++) {
            acc += shares.get(ops[i]) / total;
            cumulative[i] = acc;
        }
        this.mix = new Mix(ops, cumulative);
    }

    void start() {
        for (int c = 0; c < clients; c++) {
            Client client = new Client(new Random(seed * 1000 + c));
            all.add(client);
            Thread t = new Thread(() -> loop(client), "locality-client-" + c);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    private void loop(Client client) {
        while (running) {
            String op = draw(client.random.nextDouble());
            String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                    + " xmlns:ns=\"http://service.load.slagate.io\"><soapenv:Body><ns:" + op + "><ns:who>c</ns:who></ns:" + op
                    + "></soapenv:Body></soapenv:Envelope>";
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"urn:" + op + "\"");
            if (documents != null) {
                b.header(WorkingSetModel.DOCUMENT_HEADER, Integer.toString(ItemCache.rank(documents, client.random.nextDouble())));
            }
            HttpRequest req = b.POST(HttpRequest.BodyPublishers.ofString(body)).build();
            long t0 = System.nanoTime();
            boolean counted = measuring;
            try {
                HttpResponse<Void> r = http.send(req, HttpResponse.BodyHandlers.discarding());
                long took = System.nanoTime() - t0;
                if (r.statusCode() != 200) {
                    errors.incrementAndGet();
                } else {
                    answered.incrementAndGet();
                    if (counted && measuring) {
                        client.record(took);
                    }
                }
            } catch (IOException e) {
                errors.incrementAndGet();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private String draw(double u) {
        Mix m = mix;
        String[] ops = m.ops();
        double[] cumulative = m.cumulative();
        for (int i = 0; i < cumulative.length; i++) {
            if (u < cumulative[i]) {
                return ops[i];
            }
        }
        return ops[ops.length - 1];
    }

    void measure(boolean on) {
        measuring = on;
    }

    long errors() {
        return errors.get();
    }

    /** Every response time recorded while measuring (a request counts if it started and ended within), sorted. */
    long[] latencies() {
        long[] out = new long[0];
        for (Client c : all) {
            synchronized (c) {
                int before = out.length;
                out = Arrays.copyOf(out, before + c.count);
                System.arraycopy(c.took, 0, out, before, c.count);
            }
        }
        Arrays.sort(out);
        return out;
    }

    void stop() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.join(35_000);
        }
    }
}
