package io.slagate.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The {@code servers:} section: each server's id, URL, concurrency (or {@code auto}) and pools. */
final class ServersSection {
    private ServersSection() {
    }

    static List<ServerConfig> servers(ConfigNode top) {
        List<ServerConfig> out = new ArrayList<>();
        List<ConfigNode> list = top.list("servers");
        if (list.isEmpty() && !top.problemAlreadyAt("servers")) {
            top.missing("servers", "at least one server is required: - {id: s1, url: http://127.0.0.1:9001, concurrency: 10}");
        }
        Set<String> ids = new HashSet<>();
        for (ConfigNode s : list) {
            String id = s.requiredString("id");
            if (id != null && !ConfigLoader.NAME.matcher(id).matches()) {
                s.problem("id", id, "must be 1-64 letters, digits, '.', '_' or '-'");
            } else if (id != null && !ids.add(id)) {
                s.problem("id", id, "is used by another server; server ids must be unique");
            }
            URI url = url(s);
            AutoConcurrency auto = autoConcurrency(s, url);
            // with auto, the gateways hold min until the manager decides: its first window measures the baseline there
            int n = auto != null ? auto.min() : s.child("concurrency").isObject() ? 10 : s.integer("concurrency", 10, 1, 100_000);
            String pool = s.string("pool", "default");
            if (pool != null && !ConfigLoader.NAME.matcher(pool).matches()) {
                s.problem("pool", pool, "must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
            }
            String healthPath = s.string("healthPath", "/");
            if (healthPath != null && !healthPath.startsWith("/")) {
                s.problem("healthPath", healthPath, "must start with '/'");
            }
            List<String> may = new ArrayList<>();
            for (ConfigNode p : s.list("pools")) {
                String name = p.asString();
                if (name != null && !may.contains(name)) {
                    may.add(name);
                }
            }
            if (!may.isEmpty() && pool != null) {
                if (s.child("pool").isMissing()) {
                    pool = may.get(0); // with pools alone, the first is where it starts
                } else if (!may.contains(pool)) {
                    s.problem("pools", may, "must include its pool (" + pool + "): the pool it serves at start");
                }
                may.remove(pool);
                may.add(0, pool);
            }
            out.add(new ServerConfig(id, url, n, pool, healthPath, auto, may));
        }
        return out;
    }

    /**
     * {@code concurrency: auto}, or {@code concurrency: {auto: true, min: 1, max: 200, start: 10}}; null for a
     * fixed N_s. Not on a JMS server: its reply time includes the broker's queueing, which a limit cannot tell
     * from the server's own, so the knee it would find is the broker's as much as the server's.
     */
    static AutoConcurrency autoConcurrency(ConfigNode s, URI url) {
        ConfigNode c = s.child("concurrency");
        boolean scalar = !c.isMissing() && !c.isObject() && "auto".equals(c.text());
        if (!scalar && !c.isObject()) {
            return null;
        }
        int min = 1;
        int max = AutoConcurrency.DEFAULT_MAX;
        int start = 1;
        if (c.isObject()) {
            if (!c.bool("auto", false)) {
                c.problemHere("a mapping here is the automatic N_s: {auto: true, min: 1, max: 200, start: 10}; for a fixed N_s write a number");
                return null;
            }
            min = c.integer("min", 1, 1, 100_000);
            max = c.integer("max", AutoConcurrency.DEFAULT_MAX, 1, 100_000);
            start = c.integer("start", min, 1, 100_000);
            if (max < min) {
                c.problem("max", max, "is below min (" + min + ")");
                return null;
            }
            if (start < min || start > max) {
                c.problem("start", start, "must lie within [min, max] = [" + min + ", " + max + "]");
                return null;
            }
        }
        if (url != null && "jms".equals(url.getScheme())) {
            s.problem("concurrency", "auto", "is not available on a JMS server (" + url + "): its reply times include the broker's"
                    + " queueing, which the limit cannot tell from the server's own; give a number");
            return null;
        }
        return new AutoConcurrency(min, max, start);
    }

    static URI url(ConfigNode s) {
        String text = s.requiredString("url");
        if (text == null) {
            return null;
        }
        if (text.startsWith("jms:")) {
            // SOAP over JMS (RFC 6167's jms URI, "queue" variant): the queue on the bus's broker
            if (!text.matches("jms:queue:[A-Za-z0-9_.\\-]+")) {
                s.problem("url", text, "a JMS server is jms:queue:NAME (letters, digits, '.', '_', '-'), on the broker of bus.url");
                return null;
            }
            return URI.create(text);
        }
        try {
            URI u = new URI(text);
            if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
                s.problem("url", text, "must be an absolute http:// or https:// URL with a host, or jms:queue:NAME");
                return null;
            }
            if (u.getQuery() != null || u.getFragment() != null) {
                s.problem("url", text, "must not have a query or fragment; the request's own path and query are appended");
                return null;
            }
            return u;
        } catch (URISyntaxException e) {
            s.problem("url", text, "is not a URL: " + e.getReason());
            return null;
        }
    }
}
