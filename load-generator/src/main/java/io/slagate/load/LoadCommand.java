package io.slagate.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The {@code slagate load} command line, parsed into a {@link LoadSpec}; mistakes are reported by option name. */
public final class LoadCommand {
    public static final String USAGE = """
            usage: slagate load --class NAME:OPERATION[:USER[:TARGET]] ... --phase DURATION:N1,N2,... ... [options]

              --class NAME:OPERATION[:USER[:TARGET]]
                                 a class of clients (repeat for each): results name, SOAP operation (sent as
                                 SOAPAction urn:OPERATION), HTTP Basic user (the customer; - for none), the
                                 response-time target drawn on the charts (e.g. 2s)
              --phase DURATION:N1,N2,...
                                 a phase (repeat, in order): its length and, per class in --class order, the
                                 number of closed-loop clients (or requests/s with --open)
              --target URL       the gateway (default http://127.0.0.1:8080)
              --service PATH     the SOAP endpoint (default /services/StockUtility)
              --stats URL        the gateway's admin /stats, read every second for weights and queues
                                 (default http://127.0.0.1:8081/stats; "none" to skip)
              --open             open loop: Poisson arrivals instead of closed-loop clients
              --think DURATION   mean exponential think time (default 1s)
              --warmup DURATION  not counted in the summary (default 0s)
              --seed N           seed of every random stream (default 1)
              --timeout DURATION a request's timeout (default 60s)
              --soap12           send SOAP 1.2 instead of 1.1
              --out DIR          where samples.csv, summary.json and the charts go (default results/load)
            """;

    private LoadCommand() {
    }

    public static LoadSpec parse(List<String> args) {
        String target = "http://127.0.0.1:8080";
        String service = "/services/StockUtility";
        String stats = "http://127.0.0.1:8081/stats";
        boolean open = false;
        boolean soap12 = false;
        Duration think = Duration.ofSeconds(1);
        Duration warmup = Duration.ZERO;
        Duration timeout = Duration.ofSeconds(60);
        long seed = 1;
        Path out = Path.of("results", "load");
        List<String[]> classArgs = new ArrayList<>();
        List<LoadSpec.Phase> phases = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--open" -> open = true;
                case "--soap12" -> soap12 = true;
                default -> {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException(a.startsWith("--") ? a + " needs a value" : "unexpected argument " + a);
                    }
                    String v = args.get(++i);
                    switch (a) {
                        case "--class" -> classArgs.add(v.split(":", -1));
                        case "--phase" -> phases.add(phase(v));
                        case "--target" -> target = v.replaceAll("/+$", "");
                        case "--service" -> service = v.startsWith("/") ? v : "/" + v;
                        case "--stats" -> stats = "none".equals(v) ? null : v;
                        case "--think" -> think = duration(a, v);
                        case "--warmup" -> warmup = duration(a, v);
                        case "--timeout" -> timeout = duration(a, v);
                        case "--seed" -> seed = number(a, v);
                        case "--out" -> out = Path.of(v);
                        default -> throw new IllegalArgumentException("unknown option " + a);
                    }
                }
            }
        }
        List<LoadSpec.ClassSpec> classes = new ArrayList<>();
        for (String[] c : classArgs) {
            if (c.length < 2 || c[0].isEmpty() || c[1].isEmpty()) {
                throw new IllegalArgumentException("--class " + String.join(":", c) + ": write NAME:OPERATION[:USER[:TARGET]]");
            }
            String user = c.length > 2 && !c[2].isEmpty() && !"-".equals(c[2]) ? c[2] : null;
            Duration t = c.length > 3 && !c[3].isEmpty() ? duration("--class " + c[0] + " target", c[3]) : null;
            classes.add(new LoadSpec.ClassSpec(c[0], c[1], user, soap12, t));
        }
        if (classes.isEmpty()) {
            throw new IllegalArgumentException("at least one --class is needed");
        }
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("at least one --phase is needed");
        }
        return new LoadSpec(target, service, stats, classes, phases, open, think, warmup, seed, timeout, out);
    }

    private static LoadSpec.Phase phase(String v) {
        int colon = v.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("--phase " + v + ": write DURATION:N1,N2,... e.g. 60s:5,5");
        }
        Duration d = duration("--phase", v.substring(0, colon));
        List<Double> load = new ArrayList<>();
        for (String n : v.substring(colon + 1).split(",")) {
            try {
                double x = Double.parseDouble(n.trim());
                if (!(x >= 0)) {
                    throw new NumberFormatException();
                }
                load.add(x);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--phase " + v + ": \"" + n + "\" is not a number ≥ 0");
            }
        }
        return new LoadSpec.Phase(d, load);
    }

    private static long number(String option, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " " + v + ": not a whole number");
        }
    }

    /** 250ms, 5s, 2m, 1h, or an ISO-8601 duration. */
    public static Duration duration(String option, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.endsWith("ms")) {
                return Duration.ofNanos((long) (Double.parseDouble(s.substring(0, s.length() - 2)) * 1e6));
            }
            if (s.endsWith("s")) {
                return Duration.ofNanos((long) (Double.parseDouble(s.substring(0, s.length() - 1)) * 1e9));
            }
            if (s.endsWith("m")) {
                return Duration.ofNanos((long) (Double.parseDouble(s.substring(0, s.length() - 1)) * 60e9));
            }
            if (s.endsWith("h")) {
                return Duration.ofNanos((long) (Double.parseDouble(s.substring(0, s.length() - 1)) * 3600e9));
            }
            return Duration.parse(v);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(option + " " + v + ": not a duration; write e.g. 250ms, 5s, 2m");
        }
    }
}
