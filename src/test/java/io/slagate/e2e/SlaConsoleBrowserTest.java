package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.console.Role;
import io.slagate.load.SoapEnvelopes;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import io.slagate.node.EmbeddedSystem;
import io.slagate.sla.SlaStore;
import io.slagate.sla.SlaStores;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The console's SLA tab in a real browser: a customer's row with its attainment and error budget, the same figure
 * the console's API gives, the row's chart drawn hour by hour, and a customer burning its budget marked. A screenshot
 * of the tab is saved as {@code launcher/target/console-sla.png}.
 */
class SlaConsoleBrowserTest {
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration DEADLINE = Duration.ofSeconds(40);

    @TempDir
    Path dir;

    private static int send(int port, String customer, String operation) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/services/StockUtility"))
                .header("Content-Type", "text/xml").header("SOAPAction", "\"urn:" + operation + "\"")
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((customer + ":x").getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.ofString(SoapEnvelopes.request11(operation, "IBM"))).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void slaTab_showsTheApisBudget_drawsTheChart_marksTheCustomerBurningItsBudget() throws Exception {
        assumeTrue(Files.isExecutable(CHROMEDRIVER), "chromium-driver is not installed (.ci/run installs it)");
        // requests take about 50 ms: within premium's 1 s, seldom within basic's 10 ms
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(0.05, 0.05))) {
            Path file = dir.resolve("slagate.yaml");
            Files.writeString(file, """
                    gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", stats: { reportingInterval: 1s, window: 5s } }
                    servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                    classes:
                      - { name: premium, target: 1s, objective: 99%% }
                      - { name: basic, target: 10ms, objective: 99%% }
                    classification:
                      subscriptions: { acme: { "*": gold }, globex: { "*": standard } }
                      rules: [ { grade: gold, class: premium } ]
                      defaultClass: basic
                    bus: { url: "vm://browser-sla", listen: "" }
                    console: { listen: "127.0.0.1:0" }
                    sla: { store: "jdbc:sqlite:sla.db" }
                    """.formatted(backend.urls().get(0)));
            SlagateConfig config = ConfigLoader.load(file);
            try (EmbeddedSystem system = EmbeddedSystem.start(config, EmbeddedSystem.Parts.ALL)) {
                system.console().putUser("operator", Role.READ_ONLY, "operator-password-for-test".toCharArray());
                int gw = system.gateway().port();
                for (int i = 0; i < 20; i++) {
                    assertEquals(200, send(gw, "acme", "getQuote"));
                    assertEquals(200, send(gw, "globex", "getQuote"));
                }
                await("both customers' counts written").atMost(DEADLINE).until(() -> {
                    try (SlaStore store = SlaStores.of(config).open()) {
                        long now = System.currentTimeMillis();
                        return store.totals(now - 600_000, now + 1, null, now).stream().mapToLong(SlaStore.Totals::requests).sum() == 40;
                    }
                });
                assertTrue(Files.exists(dir.resolve("sla.db")), "the store's file beside the configuration");
                WebDriver browser = ConsoleBrowserTest.headlessChromium();
                try {
                    String url = "http://127.0.0.1:" + system.console().port() + "/#sla";
                    browser.get(url);
                    ConsoleBrowserTest.logIn(browser, "operator-password-for-test");
                    browser.get(url);
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElements(By.cssSelector("#sla-table tbody tr")).size() == 2);
                    @SuppressWarnings("unchecked")
                    Map<String, Object> api = (Map<String, Object>) ((JavascriptExecutor) browser).executeAsyncScript(
                            "const done = arguments[arguments.length - 1];"
                                    + "fetch('/api/sla').then(r => r.json()).then(done, e => done({error: String(e)}));");
                    @SuppressWarnings("unchecked")
                    List<Map<String, Object>> rows = (List<Map<String, Object>>) api.get("rows");
                    for (Map<String, Object> row : rows) {
                        WebElement tr = browser.findElement(By.cssSelector("#sla-table tr[data-customer='" + row.get("customer") + "']"));
                        String budget = String.format(Locale.ROOT, "%.2f%%", ((Number) row.get("budget_remaining")).doubleValue() * 100);
                        assertEquals(budget, tr.findElements(By.tagName("td")).get(6).getText(), "the page's budget is the API's: " + row);
                    }
                    WebElement globex = browser.findElement(By.cssSelector("#sla-table tr[data-customer='globex']"));
                    assertTrue(globex.getAttribute("class").contains("burning"), "globex misses most requests: burning");
                    assertTrue(globex.getText().contains("▲ burning"), globex.getText());
                    assertTrue(globex.getAttribute("class").contains("missed"), "its budget spent: " + globex.getText());
                    WebElement acme = browser.findElement(By.cssSelector("#sla-table tr[data-customer='acme']"));
                    assertTrue(!acme.getAttribute("class").contains("burning"), acme.getText());
                    acme.click();
                    await("the chart drawn for acme").atMost(DEADLINE).ignoreExceptions().until(() -> {
                        Object n = ((JavascriptExecutor) browser).executeScript(
                                "const c = Chart.getChart('chart-sla'); return c ? c.data.datasets[0].data.length : 0;");
                        return ((Number) n).intValue() >= 1
                                && browser.findElement(By.id("sla-chart-title")).getText().startsWith("acme in premium");
                    });
                    Object drawn = ((JavascriptExecutor) browser).executeScript(
                            "const c = document.getElementById('chart-sla'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
                                    + "let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n;");
                    assertTrue(((Number) drawn).intValue() > 1000, "pixels drawn on the chart's canvas: " + drawn);
                    Files.write(Path.of("target", "console-sla.png"),
                            ((org.openqa.selenium.TakesScreenshot) browser).getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
                } finally {
                    browser.quit();
                }
            }
        }
    }
}
