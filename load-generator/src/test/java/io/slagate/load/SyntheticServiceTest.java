package io.slagate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The synthetic Axis2 service over real HTTP: SOAP 1.1 and 1.2 calls, WSDL, two instances. */
class SyntheticServiceTest {
    private static BackendServer backend;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        backend = BackendServer.start("127.0.0.1", List.of(0, 0),
                new ServiceTime(Map.of(), Duration.ofMillis(2), 0.5, Duration.ofMillis(1)));
    }

    @AfterAll
    static void stop() throws Exception {
        backend.close();
    }

    private static HttpResponse<String> post(String url, String contentType, String action, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + "/services/StockUtility"))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body));
        if (action != null) {
            b.header("SOAPAction", action);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void soap11_getQuote_onBothInstances() throws Exception {
        for (String url : backend.urls()) {
            HttpResponse<String> r = post(url, "text/xml; charset=utf-8", "\"urn:getQuote\"", SoapEnvelopes.request11("getQuote", "IBM"));
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("getQuoteResponse"), r.body());
        }
    }

    @Test
    void soap12_buyShares() throws Exception {
        HttpResponse<String> r = post(backend.urls().get(0), "application/soap+xml; charset=utf-8; action=\"urn:buyShares\"", null,
                SoapEnvelopes.request12("buyShares", "IBM"));
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("buySharesResponse"), r.body());
    }

    @Test
    void wsdl_isServed() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(backend.urls().get(0) + "/services/StockUtility?wsdl")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertTrue(r.body().contains("getQuote") && r.body().contains("definitions"), r.body());
    }
}
