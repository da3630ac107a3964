package io.slagate.rm.tune;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A backend's knob through its admin endpoint (the HTTP knob adapter): {@code GET base} answers a JSON object
 * with the knob among its fields; {@code PUT base/NAME} with the value as the body sets it (2xx) or refuses it. Every
 * call has a timeout: a backend that does not answer is a failed knob, never a tuner waiting forever.
 */
public final class HttpKnob extends BoundedKnob {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final URI base;
    private final Duration timeout;
    private final HttpClient http;

    public HttpKnob(String name, URI base, double min, double max, boolean integer, Duration timeout) {
        super(name, min, max, integer);
        this.name = name;
        this.base = base;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    @Override
    public String name() {
        return name + "@" + base.getAuthority();
    }

    @Override
    public double read() throws KnobException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(base).timeout(timeout).GET().build());
        if (r.statusCode() / 100 != 2) {
            throw new KnobException(name() + ": reading answered " + r.statusCode());
        }
        try {
            JsonNode v = JSON.readTree(r.body()).get(name);
            if (v == null || !v.isNumber()) {
                throw new KnobException(name() + ": the endpoint does not report it");
            }
            return v.doubleValue();
        } catch (IOException e) {
            throw new KnobException(name() + ": the endpoint's answer is not JSON", e);
        }
    }

    @Override
    public void apply(double value) throws KnobException {
        double v = clamp(value);
        String body = integer() ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/" + name)).timeout(timeout)
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build());
        if (r.statusCode() / 100 != 2) {
            String why = r.body() == null ? "" : r.body().strip();
            throw new KnobException(name() + " = " + body + " refused (" + r.statusCode() + ")"
                    + (why.isEmpty() ? "" : ": " + (why.length() > 200 ? why.substring(0, 200) : why)));
        }
    }

    private HttpResponse<String> send(HttpRequest req) throws KnobException {
        try {
            return http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new KnobException(name() + ": no answer within " + timeout, e);
        } catch (IOException e) {
            throw new KnobException(name() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KnobException(name() + ": interrupted", e);
        }
    }
}
