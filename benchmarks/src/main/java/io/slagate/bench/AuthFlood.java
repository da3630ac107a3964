package io.slagate.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Floods beside a real customer's closed loop, against a running gateway behind a trusted proxy (every connection
 * comes from 127.0.0.1, which the gateway trusts, and says who it is in X-Forwarded-For: the customer one address,
 * the attacker another). Each round has a quiet phase and one phase per kind of flood, the order reversed every other
 * round; each reports the real customer's requests, p50 and p99, the flood's answers by status, and the gateway's CPU
 * over the phase (from /proc). The customer's clients keep their connections; every flood request comes on a new one.
 * The kinds:
 * <ul>
 *   <li>{@code wrong-seq}: wrong passwords for the customer's name, one after another as fast as answered;</li>
 *   <li>{@code wrong-conc}: wrong passwords for the customer's name, FLOOD a second, each on its own thread;</li>
 *   <li>{@code malformed}: {@code Basic !!!!}, FLOOD a second;</li>
 *   <li>{@code variants}: case and whitespace variants of the attacker's own valid credential, FLOOD a second.</li>
 * </ul>
 *
 * <pre>AuthFlood PORT GATEWAY_PID SECONDS ROUNDS FLOOD_PER_SECOND CLIENTS USER PASSWORD ATTACKER ATTACKER_PASSWORD KINDS</pre>
 */
public final class AuthFlood {
    private static final String BODY = "<?xml version=\"1.0\"?><soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\">"
            + "<soapenv:Body><ns:getQuote xmlns:ns=\"urn:stock\"><ns:symbol>IBM</ns:symbol></ns:getQuote></soapenv:Body></soapenv:Envelope>";
    static final String CUSTOMER_ADDRESS = "198.51.100.1";
    static final String ATTACKER_ADDRESS = "203.0.113.7";

    private AuthFlood() {
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    static byte[] request(String authorization, String forwardedFor, boolean close) {
        return ("POST /services/StockUtility HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml; charset=utf-8\r\n"
                + "SOAPAction: \"urn:getQuote\"\r\nAuthorization: " + authorization + "\r\nX-Forwarded-For: " + forwardedFor + "\r\n"
                + (close ? "Connection: close\r\n" : "") + "Content-Length: " + BODY.length() + "\r\n\r\n" + BODY)
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Reads one response (headers and a Content-Length body); its status. */
    static int readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            head.append((char) b);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                break;
            }
        }
        if (b < 0) {
            throw new IOException("closed");
        }
        String h = head.toString();
        int status = Integer.parseInt(h.substring(9, 12));
        int i = h.toLowerCase().indexOf("content-length:");
        int len = i < 0 ? 0 : Integer.parseInt(h.substring(i + 15, h.indexOf('\r', i)).trim());
        in.readNBytes(len);
        return status;
    }

    static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime + stime (fields 14 and 15)
    }

    /** The flood's credential for its {@code n}th request of {@code kind}. */
    static String credential(String kind, long n, String user, String attacker, String attackerPassword) {
        return switch (kind) {
            case "malformed" -> "Basic !!!!";
            case "variants" -> variant(n, basic(attacker, attackerPassword));
            default -> basic(user, "wrong-" + n);
        };
    }

    /** One of 32 spellings of a valid credential: 24 of its scheme's case (one credential), 8 with blanks or bad base64. */
    static String variant(long n, String valid) {
        int k = (int) (n % 32);
        String token = valid.substring(6);
        if (k < 24) {
            StringBuilder scheme = new StringBuilder();
            for (int i = 0; i < 5; i++) {
                char c = "basic".charAt(i);
                scheme.append((k & 1 << i) != 0 ? Character.toUpperCase(c) : c);
            }
            return scheme + " " + token;
        }
        String[] odd = {"Basic  " + token, "Basic\t" + token, "Basic " + token + " x", "Basic " + token.replace("=", ""),
            "Basic " + token + "==", "Basic =" + token, "Basic " + token + "\t", "BASIC  " + token};
        return odd[k - 24];
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        long pid = Long.parseLong(args[1]);
        int seconds = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        int floodRate = Integer.parseInt(args[4]);
        int clients = Integer.parseInt(args[5]);
        Flood f = new Flood(port, args[6], args[8], args[9], floodRate);
        List<String> phases = new ArrayList<>(List.of("quiet"));
        phases.addAll(List.of(args[10].split(",")));
        byte[] good = request(basic(args[6], args[7]), CUSTOMER_ADDRESS, false);
        System.out.println("phase round ok p50_ms p99_ms customer_errors flood_sent flood_401 flood_throttled flood_200 flood_other"
                + " gateway_cpu_ms_per_s");
        phase(port, pid, 5, "quiet", f, clients, good, 0); // warm-up, discarded
        for (int r = 1; r <= rounds; r++) {
            List<String> order = new ArrayList<>(phases);
            if (r % 2 == 0) {
                java.util.Collections.reverse(order);
            }
            for (String kind : order) {
                phase(port, pid, seconds, kind, f, clients, good, r);
            }
        }
    }

    /** The attacker: who it claims, its own valid credential, how fast it sends; what it got back. */
    private static final class Flood {
        final int port;
        final String user;
        final String attacker;
        final String attackerPassword;
        final int rate;
        final AtomicLong sent = new AtomicLong();
        final AtomicLong s401 = new AtomicLong();
        final AtomicLong throttled = new AtomicLong();
        final AtomicLong s200 = new AtomicLong();
        final AtomicLong other = new AtomicLong();

        Flood(int port, String user, String attacker, String attackerPassword, int rate) {
            this.port = port;
            this.user = user;
            this.attacker = attacker;
            this.attackerPassword = attackerPassword;
            this.rate = rate;
        }

        void reset() {
            for (AtomicLong a : new AtomicLong[] {sent, s401, throttled, s200, other}) {
                a.set(0);
            }
        }

        /** One flood request on a new connection, its answer counted. */
        void send(String kind) {
            byte[] req = request(credential(kind, sent.incrementAndGet(), user, attacker, attackerPassword), ATTACKER_ADDRESS, true);
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
                s.setSoTimeout(5000);
                s.getOutputStream().write(req);
                int st = readResponse(s.getInputStream());
                (st == 401 ? s401 : st == 200 ? s200 : st == 429 || st == 500 ? throttled : other).incrementAndGet();
            } catch (IOException e) {
                other.incrementAndGet();
            }
        }
    }

    private static void phase(int port, long pid, int seconds, String kind, Flood f, int clients, byte[] good, int round)
            throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        List<long[]> lat = new ArrayList<>();
        AtomicLong errors = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(clients + 64);
        for (int c = 0; c < clients; c++) {
            long[] mine = new long[2_000_000];
            lat.add(mine);
            pool.execute(() -> closedLoop(port, good, running, mine, errors));
        }
        f.reset();
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        if (kind.equals("wrong-seq")) {
            pool.execute(() -> {
                while (running.get()) {
                    f.send(kind);
                }
            });
        } else if (!kind.equals("quiet")) {
            ticker.scheduleAtFixedRate(() -> pool.execute(() -> f.send(kind)), 0, 1_000_000L / f.rate, TimeUnit.MICROSECONDS);
        }
        long t0 = cpuTicks(pid);
        Thread.sleep(seconds * 1000L);
        long t1 = cpuTicks(pid);
        running.set(false);
        ticker.shutdownNow();
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.SECONDS);
        long total = 0;
        for (long[] l : lat) {
            total += l[0];
        }
        long[] all = new long[(int) total];
        int k = 0;
        for (long[] l : lat) {
            System.arraycopy(l, 1, all, k, (int) l[0]);
            k += (int) l[0];
        }
        Arrays.sort(all);
        double p50 = all.length == 0 ? Double.NaN : all[all.length / 2] / 1e6;
        double p99 = all.length == 0 ? Double.NaN : all[(int) Math.min(all.length - 1, Math.ceil(all.length * 0.99) - 1)] / 1e6;
        double hz = 100.0; // CLK_TCK on Linux
        System.out.printf("%s %d %d %.3f %.3f %d %d %d %d %d %d %.1f%n", round == 0 ? "warm-up" : kind, round, all.length, p50, p99,
                errors.get(), f.sent.get(), f.s401.get(), f.throttled.get(), f.s200.get(), f.other.get(), (t1 - t0) / hz * 1000 / seconds);
    }

    /** One client of the real customer: a kept connection, one request at a time; latencies from index 1, the count at 0. */
    private static void closedLoop(int port, byte[] request, AtomicBoolean running, long[] lat, AtomicLong errors) {
        while (running.get()) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
                s.setSoTimeout(10_000);
                s.setTcpNoDelay(true);
                OutputStream out = s.getOutputStream();
                InputStream in = new java.io.BufferedInputStream(s.getInputStream());
                while (running.get()) {
                    long t = System.nanoTime();
                    out.write(request);
                    int st = readResponse(in);
                    long d = System.nanoTime() - t;
                    if (st != 200) {
                        errors.incrementAndGet();
                        continue;
                    }
                    int i = (int) ++lat[0];
                    if (i < lat.length) {
                        lat[i] = d;
                    } else {
                        lat[0]--;
                    }
                }
            } catch (IOException e) {
                errors.incrementAndGet();
            }
        }
    }
}
