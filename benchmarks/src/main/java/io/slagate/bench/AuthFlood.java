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
 * A wrong-password flood beside a real customer's closed loop, against a running gateway: phases without and
 * with the flood in ABBA order, each reporting the real customer's requests, p50 and p99, the flood's answers by
 * status, and the gateway's CPU over the phase (from /proc). The customer's clients keep their connections;
 * every flood request comes on a new one (the gateway closes a connection after a client fault).
 *
 * <pre>AuthFlood PORT GATEWAY_PID SECONDS ROUNDS FLOOD_PER_SECOND CLIENTS USER PASSWORD</pre>
 */
public final class AuthFlood {
    private static final String BODY = "<?xml version=\"1.0\"?><soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\">"
            + "<soapenv:Body><ns:getQuote xmlns:ns=\"urn:stock\"><ns:symbol>IBM</ns:symbol></ns:getQuote></soapenv:Body></soapenv:Envelope>";

    private AuthFlood() {
    }

    static byte[] request(String user, String password, boolean close) {
        String auth = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return ("POST /services/StockUtility HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml; charset=utf-8\r\n"
                + "SOAPAction: \"urn:getQuote\"\r\nAuthorization: Basic " + auth + "\r\n" + (close ? "Connection: close\r\n" : "")
                + "Content-Length: " + BODY.length() + "\r\n\r\n" + BODY).getBytes(StandardCharsets.UTF_8);
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

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        long pid = Long.parseLong(args[1]);
        int seconds = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        int floodRate = Integer.parseInt(args[4]);
        int clients = Integer.parseInt(args[5]);
        String user = args[6];
        String password = args[7];
        byte[] good = request(user, password, false);
        System.out.println("phase round flood ok p50_ms p99_ms customer_errors flood_sent flood_401 flood_429 flood_other gateway_cpu_ms_per_s");
        phase(port, pid, 5, false, 0, clients, good, user, "warm-up", 0); // discarded
        for (int r = 1; r <= rounds; r++) {
            boolean[] order = r % 2 == 1 ? new boolean[] {false, true} : new boolean[] {true, false};
            for (boolean flood : order) {
                phase(port, pid, seconds, flood, floodRate, clients, good, user, flood ? "flood" : "quiet", r);
            }
        }
    }

    private static void phase(int port, long pid, int seconds, boolean flood, int floodRate, int clients, byte[] good,
                              String user, String name, int round) throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        List<long[]> lat = new ArrayList<>();
        AtomicLong errors = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(clients + 8);
        for (int c = 0; c < clients; c++) {
            long[] mine = new long[2_000_000];
            lat.add(mine);
            pool.execute(() -> closedLoop(port, good, running, mine, errors));
        }
        AtomicLong sent = new AtomicLong();
        AtomicLong s401 = new AtomicLong();
        AtomicLong s429 = new AtomicLong();
        AtomicLong other = new AtomicLong();
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        if (flood) {
            long periodMicros = 1_000_000L / floodRate;
            AtomicLong n = new AtomicLong();
            ticker.scheduleAtFixedRate(() -> {
                byte[] wrong = request(user, "wrong-" + n.incrementAndGet(), true);
                sent.incrementAndGet();
                pool.execute(() -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
                        s.setSoTimeout(5000);
                        s.getOutputStream().write(wrong);
                        int st = readResponse(s.getInputStream());
                        (st == 401 ? s401 : st == 429 || st == 500 ? s429 : other).incrementAndGet();
                    } catch (IOException e) {
                        other.incrementAndGet();
                    }
                });
            }, 0, periodMicros, TimeUnit.MICROSECONDS);
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
        System.out.printf("%s %d %s %d %.3f %.3f %d %d %d %d %d %.1f%n", name, round, flood ? floodRate : 0, all.length, p50, p99,
                errors.get(), sent.get(), s401.get(), s429.get(), other.get(), (t1 - t0) / hz * 1000 / seconds);
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
