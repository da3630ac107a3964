package io.slagate.load.service;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * A synthetic server's admin endpoint for its knobs (the backend tier a tuner adjusts through an HTTP
 * adapter, as Active Harmony tuned its tiers): {@code GET /admin/knobs} answers them as JSON; {@code PUT
 * /admin/knobs/NAME} with a whole number as the body sets one (204), and anything else is refused with 400 and why,
 * the setting unchanged. Knobs: {@code workers}, {@code contentionKnee}, {@code processors}, {@code connectionCost}, and with the Bookstore {@code cacheItems}.
 */
final class KnobsServlet extends HttpServlet {
    private final ServerKnobs knobs;
    private final ItemCache cache;

    KnobsServlet(ServerKnobs knobs, ItemCache cache) {
        this.knobs = knobs;
        this.cache = cache;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("application/json");
        resp.getWriter().printf(Locale.ROOT, "{\"workers\":%d,\"contentionKnee\":%d,\"processors\":%d,\"connectionCost\":%d%s}%n",
                knobs.workers(), knobs.contentionKnee(), knobs.processors(), knobs.connectionCost(),
                cache == null ? "" : ",\"cacheItems\":" + cache.capacity());
    }

    @Override
    protected void doPut(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String name = req.getPathInfo() == null ? "" : req.getPathInfo().replaceFirst("^/", "");
        byte[] body = req.getInputStream().readNBytes(32);
        String text = new String(body, StandardCharsets.US_ASCII).trim();
        int value;
        try {
            value = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            refuse(resp, "the body must be a whole number, not \"" + text.replaceAll("[^0-9A-Za-z.-]", "?") + "\"");
            return;
        }
        try {
            switch (name) {
                case "workers" -> knobs.workers(value);
                case "contentionKnee" -> knobs.contentionKnee(value);
                case "processors" -> knobs.processors(value);
                case "connectionCost" -> knobs.connectionCost(value);
                case "cacheItems" -> {
                    if (cache == null) {
                        refuse(resp, "this server has no Bookstore cache");
                        return;
                    }
                    cache.capacity(value);
                }
                default -> {
                    refuse(resp, "no knob \"" + name.replaceAll("[^0-9A-Za-z.-]", "?") + "\"; knobs: workers, contentionKnee, processors, connectionCost"
                            + (cache == null ? "" : ", cacheItems"));
                    return;
                }
            }
        } catch (IllegalArgumentException e) {
            refuse(resp, e.getMessage());
            return;
        }
        resp.setStatus(204);
    }

    private static void refuse(HttpServletResponse resp, String why) throws IOException {
        resp.setStatus(400);
        resp.setContentType("text/plain; charset=UTF-8");
        resp.getWriter().println(why);
    }
}
