package io.slagate.console;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** The console's pages, scripts and styles from the class path; the overview only with a session (else the login page). */
final class StaticPages {
    private static final Pattern SAFE_PATH = Pattern.compile("/(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_.-]+");
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8", "js",
            "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8", "svg", "image/svg+xml", "png", "image/png");
    private static final String CHART_JS = "/webjars/chart.js/";

    private StaticPages() {
    }

    static void serve(Request request, Response response, Callback callback, String path, Sessions.Session session) {
        if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
            Response.writeError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
            return;
        }
        if (path.equals("/") || path.equals("/index.html")) {
            if (session == null) {
                Response.sendRedirect(request, response, callback, "/login.html");
                return;
            }
            path = "/index.html";
        }
        String resource = path.startsWith(CHART_JS) ? "META-INF/resources" + path : "console" + path;
        if (!SAFE_PATH.matcher(path).matches() || path.contains("..")) {
            Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
            return;
        }
        try (InputStream in = StaticPages.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
                return;
            }
            byte[] bytes = in.readAllBytes();
            String ext = path.substring(path.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, TYPES.getOrDefault(ext, "application/octet-stream"));
            response.getHeaders().put(HttpHeader.CACHE_CONTROL, path.equals("/index.html") ? "no-store" : "max-age=300");
            response.write(true, ByteBuffer.wrap(bytes), callback);
        } catch (IOException e) {
            callback.failed(e);
        }
    }
}
