package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import io.slagate.node.EmbeddedSystem;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.Combining;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.console.Role;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.SoapEnvelopes;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import io.slagate.rm.ControlLoop;
import io.slagate.rm.tune.Tuner;
import io.slagate.rm.tune.TuningPartition;
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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;

/**
 * The console in a real browser (Debian's chromium through chromedriver; `.ci/run` installs them):
 * log in, watch the charts follow live load through the gateway, change a class's target and see
 * the resource manager use it, pin and unpin a weight. A screenshot of the overview is saved as
 * {@code launcher/target/console-overview.png}.
 */
class ConsoleBrowserTest {
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration DEADLINE = Duration.ofSeconds(40);

    @TempDir
    Path dir;

    @Test
    void loginLiveChartsClassEditAndOverride() throws Exception {
        assumeTrue(Files.isExecutable(CHROMEDRIVER), "chromium-driver is not installed (.ci/run installs it)");
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(0.02, 0.02))) {
            Path file = dir.resolve("slagate.yaml");
            Files.writeString(file, """
                    gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", stats: { reportingInterval: 250ms, window: 2s } }
                    servers: [ { id: s1, url: "%s", concurrency: 6 } ]
                    classes:
                      - { name: premium, target: 60ms }
                      - { name: basic, target: 200ms }
                    classification:
                      subscriptions: { gold-customer: { "*": gold } }
                      rules: [ { grade: gold, class: premium } ]
                      defaultClass: basic
                    bus: { url: "vm://browser-test", listen: "" }
                    controller: { cycle: 250ms, combining: min }
                    console: { listen: "127.0.0.1:0" }
                    """.formatted(backend.urls().get(0)));
            SlagateConfig config = ConfigLoader.load(file);
            try (EmbeddedSystem system = EmbeddedSystem.start(config, EmbeddedSystem.Parts.ALL)) {
                system.console().putUser("operator", Role.ADMIN, "operator-password-for-test".toCharArray());
                String base = "http://127.0.0.1:" + system.console().port();
                LoadSpec spec = new LoadSpec("http://127.0.0.1:" + system.gateway().port(), "/services/StockUtility", null,
                        List.of(new LoadSpec.ClassSpec("premium", "getQuote", "gold-customer", false, null),
                                new LoadSpec.ClassSpec("basic", "getQuote", "silver-customer", false, null)),
                        List.of(new LoadSpec.Phase(Duration.ofSeconds(60), List.of(8.0, 8.0))),
                        false, Duration.ofMillis(20), Duration.ZERO, 3, Duration.ofSeconds(30), null);
                LoadGenerator load = new LoadGenerator(spec, null);
                CompletableFuture<?> running = CompletableFuture.runAsync(() -> {
                    try {
                        load.run();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                WebDriver browser = headlessChromium();
                try {
                    browser.get(base + "/");
                    assertTrue(browser.getCurrentUrl().endsWith("/login.html"), "redirected to the login page");
                    browser.findElement(By.id("user")).sendKeys("operator");
                    browser.findElement(By.id("password")).sendKeys("wrong");
                    browser.findElement(By.id("submit")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> !browser.findElement(By.id("error")).getText().isEmpty());
                    browser.findElement(By.id("user")).clear();
                    logIn(browser, "operator-password-for-test");

                    // live charts: the response-time chart gains points while the load runs
                    JavascriptExecutor js = (JavascriptExecutor) browser;
                    String points = "const c = Chart.getChart('chart-rt'); return c ? c.data.datasets.reduce((n, d) => n + d.data.length, 0) : 0;";
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> ((Number) js.executeScript(points)).longValue() > 2);
                    long first = ((Number) js.executeScript(points)).longValue();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> ((Number) js.executeScript(points)).longValue() > first + 4);
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElements(By.cssSelector("#flows tbody tr")).size() == 2);
                    // failed/s, the last column: what the gateway or a server caused; nothing under this light load
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElements(By.cssSelector("#flows tbody tr")).stream()
                            .map(r -> r.findElements(By.tagName("td"))).allMatch(td -> td.size() == 12 && td.get(11).getText().equals("0.00")));
                    Path shot = Path.of("target", "console-overview.png");
                    Files.createDirectories(shot.getParent());
                    Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

                    // the tab follows the URL: a link sets #classes, back returns to the overview
                    browser.findElement(By.cssSelector("a[data-tab=classes]")).click();
                    await().atMost(DEADLINE).until(() -> browser.getCurrentUrl().endsWith("#classes")
                            && browser.findElement(By.id("class-form")).isDisplayed());
                    browser.navigate().back();
                    await().atMost(DEADLINE).until(() -> browser.findElement(By.id("flows")).isDisplayed()
                            && !browser.findElement(By.id("class-form")).isDisplayed());
                    // the capacity line of the pool: what it has, what its classes need, what an autoscaler is told
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> {
                        String row = browser.findElement(By.cssSelector("#capacity tbody tr")).getText();
                        return row.startsWith("default") && row.contains("premium") && row.contains("basic")
                                && (row.contains("to add") || row.contains("to spare") || row.contains("enough"));
                    });
                    // and the gateway shows the same line on /stats (it comes with every allocation)
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> {
                        String stats = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + system.gateway().adminPort() + "/stats")).build(),
                                HttpResponse.BodyHandlers.ofString()).body();
                        return stats.contains("\"capacity\"") && stats.contains("\"neededByClass\"") && stats.contains("\"pool\" : \"default\"");
                    });
                    browser.navigate().forward();
                    await().atMost(DEADLINE).until(() -> browser.findElement(By.id("class-form")).isDisplayed());
                    assertEquals("/favicon.svg", new URI(browser.findElement(By.cssSelector("link[rel=icon]")).getAttribute("href")).getPath());
                    HttpResponse<String> icon = HttpClient.newHttpClient().send(
                            HttpRequest.newBuilder(URI.create(base + "/favicon.svg")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, icon.statusCode());
                    assertEquals("image/svg+xml", icon.headers().firstValue("Content-Type").orElse(""));

                    // change basic's target: a click on its row opens it in the form; saved and used by the resource manager
                    WebElement form = browser.findElement(By.id("class-form"));
                    WebElement name = form.findElement(By.name("name"));
                    browser.findElements(By.cssSelector("#class-table tbody tr")).stream()
                            .filter(r -> r.getText().startsWith("basic")).findFirst().orElseThrow().click();
                    assertEquals("basic", name.getAttribute("value"), "the clicked class is in the form");
                    WebElement target = form.findElement(By.name("targetSeconds"));
                    assertEquals(0.2, Double.parseDouble(target.getAttribute("value")), 1e-9, "with its values");
                    target.clear();
                    target.sendKeys("0.35");
                    form.findElement(By.cssSelector("button[type=submit]")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> Math.abs(system.controlLoop().status().config().classes().get(1).targetSeconds() - 0.35) < 1e-9);
                    assertEquals(0.35, ConfigLoader.load(file).classes().get(1).targetSeconds(), 1e-9, "persisted");

                    // create a class: the gateway builds its queue live (no restart) and reports it; the load keeps running
                    name.clear();
                    name.sendKeys("gold", Keys.TAB);
                    target.clear();
                    target.sendKeys("0.5");
                    form.findElement(By.name("percentile")).sendKeys("95");
                    form.findElement(By.name("percentileTargetSeconds")).sendKeys("0.8");
                    form.findElement(By.cssSelector("button[type=submit]")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> system.gateway().config().classIndex("gold") >= 0
                            && system.controlLoop().status().config().classIndex("gold") >= 0);
                    long answeredBefore = system.gateway().metrics().totals().completed();
                    await().atMost(DEADLINE).until(() -> system.gateway().metrics().totals().completed() > answeredBefore + 20);
                    browser.findElement(By.cssSelector("a[data-tab=overview]")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElements(By.cssSelector("#flows tbody tr")).size() == 3);
                    assertEquals(95, ConfigLoader.load(file).classes().get(system.controlLoop().status().config().classIndex("gold"))
                            .percentileGoal().percentile(), 0, "the percentile goal persisted");
                    // attainment, the headline of a class with traffic: a share in percent
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElements(By.cssSelector("#flows tbody tr")).stream()
                            .anyMatch(r -> r.findElement(By.cssSelector("td.attainment")).getText().matches("\\d+\\.\\d%")));
                    // the table is redrawn with every report: read it whole, as the page has it now
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElement(By.id("flows")).getText()
                            .contains("p95 ≤ 800ms"));
                    browser.findElement(By.cssSelector("a[data-tab=classes]")).click();
                    // a rule added in the rules table and moved first: saved and in force at the gateway
                    WebElement rulesForm = browser.findElement(By.id("classification-form"));
                    assertEquals(1, rulesForm.findElements(By.cssSelector("#rule-table tbody tr")).size(), "the file's rule is listed");
                    assertEquals("gold-customer", rulesForm.findElement(By.cssSelector("#subscription-table input[name=customer]")).getAttribute("value"));
                    browser.findElement(By.id("add-rule")).click();
                    WebElement added = rulesForm.findElements(By.cssSelector("#rule-table tbody tr")).get(1);
                    added.findElement(By.name("operation")).sendKeys("urn:buyShares");
                    new Select(added.findElement(By.name("class"))).selectByValue("gold");
                    added.findElement(By.xpath(".//button[text()='↑']")).click();
                    rulesForm.findElement(By.cssSelector("button[type=submit]")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> "urn:buyShares".equals(
                            system.gateway().config().classification().rules().get(0).operation()));
                    assertEquals("gold", system.gateway().config().classification().rules().get(0).className());
                    assertEquals("premium", ConfigLoader.load(file).classification().rules().get(1).className(), "persisted in order");
                    Files.write(Path.of("target", "console-classes.png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

                    // the combining function and the cycle, changed in the controller tab, reach the resource manager
                    browser.findElement(By.cssSelector("a[data-tab=controller]")).click();
                    WebElement controllerForm = browser.findElement(By.id("controller-form"));
                    new Select(controllerForm.findElement(By.name("combining"))).selectByValue("sum");
                    WebElement cycle = controllerForm.findElement(By.name("cycleSeconds"));
                    cycle.clear();
                    cycle.sendKeys("0.3");
                    controllerForm.findElement(By.cssSelector("button[type=submit]")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> system.controlLoop().status().config().controller().combining()
                            == Combining.SUM && system.controlLoop().status().config().controller().cycle().toMillis() == 300);

                    // pin premium's weight at gw1, see the manager hold it, then unpin
                    WebElement pin = browser.findElement(By.id("pin-weight"));
                    pin.findElement(By.name("gateway")).sendKeys("gw1");
                    new Select(pin.findElement(By.name("class"))).selectByValue("premium");
                    pin.findElement(By.name("weight")).sendKeys("2.5");
                    pin.findElement(By.cssSelector("button[type=submit]")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> Double.valueOf(2.5).equals(
                            system.controlLoop().overrides().weight("gw1", "premium", System.nanoTime())));
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> system.gateway().queues().caps().allocation().weight(0) == 2.5);
                    pin.findElement(By.cssSelector("button[data-unpin=weight]")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> system.controlLoop().overrides().weight("gw1", "premium", System.nanoTime()) == null);
                    browser.findElement(By.cssSelector("a[data-tab=audit]")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElement(By.id("audit-table")).getText().contains("unpin-weight"));

                    // a gateway that joins, reports and then leaves: listed while it reports, gone from the table at once when it leaves
                    browser.findElement(By.cssSelector("a[data-tab=overview]")).click();
                    StatsMessage ghost = new StatsMessage(BusMessage.SCHEMA,
                            "gw-ghost", 1, System.currentTimeMillis(), 2, 0, List.of(new FlowStatsMessage(
                                    "premium", 1, 1, 0, 0.05, 0, 0.05, 0, 1, 1)), List.of(), null, Map.of("customer:acme", 12.5));
                    system.gatewayBus().publish(Topics.HEARTBEAT_GATEWAY, new HeartbeatMessage(
                            BusMessage.SCHEMA, "gw-ghost", "gateway", HeartbeatMessage.JOIN,
                            System.currentTimeMillis(), 0)); // as a gateway does: it joins, then reports
                    // it reports every 200 ms while the page is read, as a live gateway does (reportingInterval here is 250 ms,
                    // and the manager forgets a gateway silent for three intervals)
                    ScheduledExecutorService reports = Executors.newSingleThreadScheduledExecutor();
                    reports.scheduleAtFixedRate(() -> system.gatewayBus().publish(Topics.STATS, ghost), 0, 200,
                            TimeUnit.MILLISECONDS);
                    try {
                        await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElement(By.id("flows")).getText().contains("gw-ghost"));
                        // its quota demand, in the quotas card
                        await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElement(By.id("quotas")).getText()
                                .contains("customer:acme 12.5 gw-ghost 12.5"));
                    } finally {
                        reports.shutdownNow();
                        assertTrue(reports.awaitTermination(10, TimeUnit.SECONDS));
                    }
                    system.gatewayBus().publish(Topics.HEARTBEAT_GATEWAY, new HeartbeatMessage(
                            BusMessage.SCHEMA, "gw-ghost", "gateway", HeartbeatMessage.LEAVE,
                            System.currentTimeMillis(), 0));
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> !browser.findElement(By.id("flows")).getText().contains("gw-ghost"));
                    assertTrue(browser.findElement(By.id("flows")).getText().contains("gw1"), "the live gateway stays");

                    // add a read-only user on the users page: listed, stored hashed
                    browser.findElement(By.cssSelector("a[data-tab=users]")).click();
                    WebElement userForm = browser.findElement(By.id("user-form"));
                    userForm.findElement(By.name("user")).sendKeys("auditor");
                    userForm.findElement(By.name("password")).sendKeys("auditor-password-for-test");
                    userForm.findElement(By.cssSelector("button[type=submit]")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElement(By.id("user-table")).getText().contains("auditor"));
                    String usersFile = Files.readString(dir.resolve("console-users.json"));
                    assertTrue(usersFile.contains("\"auditor\"") && usersFile.contains("read-only") && !usersFile.contains("auditor-password-for-test"),
                            "stored with its role, hashed");
                } finally {
                    browser.quit();
                    running.cancel(true);
                }
            }
        }
    }

    /**
     * Where controller.tuning is configured, the controller tab shows the tuner; with two partitions, the
     * selector picks one, and the buttons reach that partition's tuner and no other.
     */
    @Test
    void tuningCard_showsEachPartitionsTuner_andItsButtonsStopAndStartThatOne() throws Exception {
        assumeTrue(Files.isExecutable(CHROMEDRIVER), "chromium-driver is not installed (.ci/run installs it)");
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0, 0, 0, 0), ServiceTime.paper(0.02, 0.02))) {
            Path file = dir.resolve("slagate.yaml");
            Files.writeString(file, """
                    gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", stats: { reportingInterval: 250ms, window: 2s } }
                    servers:
                      - { id: a1, url: "%s", concurrency: 6, pool: a }
                      - { id: a2, url: "%s", concurrency: 6, pool: a-trial }
                      - { id: b1, url: "%s", concurrency: 6, pool: b }
                      - { id: b2, url: "%s", concurrency: 6, pool: b-trial }
                    classes:
                      - { name: p, target: 60ms, pool: a }
                      - { name: p-trial, target: 60ms, pool: a-trial }
                      - { name: q, target: 60ms, pool: b }
                      - { name: q-trial, target: 60ms, pool: b-trial }
                    classification: { defaultClass: p }
                    bus: { url: "vm://browser-tuning-test", listen: "" }
                    controller: { cycle: 250ms, tuning: { partitions: {
                      quotes: { safe: a, experimental: a-trial, twins: { p: p-trial }, knobs: [ { name: concurrency, min: 1, max: 12 } ] },
                      trades: { safe: b, experimental: b-trial, twins: { q: q-trial }, knobs: [ { name: concurrency, min: 1, max: 12 } ] } } } }
                    console: { listen: "127.0.0.1:0" }
                    """.formatted(backend.urls().get(0), backend.urls().get(1), backend.urls().get(2), backend.urls().get(3)));
            try (EmbeddedSystem system = EmbeddedSystem.start(ConfigLoader.load(file), EmbeddedSystem.Parts.ALL)) {
                system.console().putUser("operator", Role.ADMIN, "operator-password-for-test".toCharArray());
                WebDriver browser = headlessChromium();
                try {
                    browser.get("http://127.0.0.1:" + system.console().port() + "/login.html");
                    logIn(browser, "operator-password-for-test");
                    browser.findElement(By.cssSelector("a[data-tab=controller]")).click();
                    WebElement card = browser.findElement(By.id("tuning"));
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> card.isDisplayed()
                            && browser.findElement(By.id("tuning-summary")).getText().startsWith("state baseline"));
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElement(By.id("tuning-partition")).isDisplayed());
                    new Select(browser.findElement(By.id("tuning-partition"))).selectByValue("trades");
                    browser.findElement(By.id("tuning-stop")).click();
                    ControlLoop loop = system.controlLoop();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> partition(loop, "trades").tuner().state()
                            == Tuner.State.STOPPED);
                    assertTrue(partition(loop, "quotes").tuner().state() != Tuner.State.STOPPED,
                            "the other partition's tuner goes on");
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElement(By.id("tuning-summary")).getText()
                            .startsWith("state stopped"));
                    browser.findElement(By.id("tuning-start")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> partition(loop, "trades").tuner().state()
                            != Tuner.State.STOPPED);
                    Files.createDirectories(Path.of("target"));
                    Files.write(Path.of("target", "console-tuning.png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
                } finally {
                    browser.quit();
                }
            }
        }
    }

    private static TuningPartition partition(ControlLoop loop, String name) {
        return loop.tuningPartitions().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * The Customers tab, in a real browser: a Basic customer added and an API key made (shown once), both listed by
     * name only; the gateway serves the customer with that password; the key revoked leaves the password.
     */
    @Test
    void customersTab_addsABasicCustomerAndAKey_keyShownOnce_revoked() throws Exception {
        assumeTrue(Files.isExecutable(CHROMEDRIVER), "chromium-driver is not installed (.ci/run installs it)");
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(0.001, 0.001))) {
            Path htpasswd = Files.writeString(dir.resolve("customers.htpasswd"), "");
            Path keys = Files.writeString(dir.resolve("customers.keys"), "");
            Path file = dir.resolve("slagate.yaml");
            Files.writeString(file, """
                    gateway:
                      id: gw1
                      listen: "127.0.0.1:0"
                      admin: "127.0.0.1:0"
                      authentication: { mode: required, basic: { htpasswd: "%s" }, apiKey: { header: X-Api-Key, file: "%s" } }
                    servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                    classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                    classification: { subscriptions: { acme: { "*": gold } }, rules: [ { grade: gold, class: premium } ], defaultClass: basic }
                    bus: { url: "vm://browser-customers", listen: "" }
                    console: { listen: "127.0.0.1:0" }
                    """.formatted(htpasswd, keys, backend.urls().get(0)));
            try (EmbeddedSystem system = EmbeddedSystem.start(ConfigLoader.load(file), EmbeddedSystem.Parts.ALL)) {
                system.console().putUser("operator", Role.ADMIN, "operator-password-for-test".toCharArray());
                WebDriver browser = headlessChromium();
                try {
                    browser.get("http://127.0.0.1:" + system.console().port() + "/#customers");
                    logIn(browser, "operator-password-for-test");
                    browser.get("http://127.0.0.1:" + system.console().port() + "/#customers");
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElement(By.id("customer-mechanisms")).getText()
                            .contains("Basic passwords on"));
                    await("the console hears the gateway").atMost(DEADLINE).ignoreExceptions().until(() -> {
                        browser.navigate().refresh();
                        return browser.findElement(By.id("customer-rollout")).getText().contains("gw1 has it");
                    });
                    WebElement basic = browser.findElement(By.id("customer-basic-form"));
                    basic.findElement(By.name("customer")).sendKeys("acme");
                    basic.findElement(By.name("password")).sendKeys("acme-password-for-test");
                    basic.findElement(By.cssSelector("button[type=submit]")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElement(By.id("customer-table")).getText().contains("acme"));
                    WebElement added = browser.findElement(By.cssSelector("#customer-basic-form .result"));
                    assertTrue(added.getText().contains("acme added (applied by gw1)"), added.getText());
                    WebElement key = browser.findElement(By.id("customer-key-form"));
                    key.findElement(By.name("customer")).sendKeys("acme");
                    key.findElement(By.cssSelector("button[type=submit]")).click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> key.findElement(By.className("result")).getText().contains("sk_"));
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElement(By.id("customer-table")).getText()
                            .contains("api-key, basic"));
                    assertFalse(browser.findElement(By.id("customer-table")).getText().contains("$2y$"), "never a hash");
                    int gw = system.gateway().port();
                    await().atMost(DEADLINE).until(() -> soapStatus(gw, "Basic " + Base64.getEncoder().encodeToString(
                            "acme:acme-password-for-test".getBytes(StandardCharsets.UTF_8))) == 200);
                    ((JavascriptExecutor) browser).executeScript("window.confirm = () => true;");
                    browser.findElements(By.cssSelector("#customer-table button")).stream().filter(b -> b.getText().equals("Revoke key"))
                            .findFirst().orElseThrow().click();
                    await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElement(By.id("customer-result")).getText()
                            .contains("key revoked") && !browser.findElement(By.id("customer-table")).getText().contains("api-key"));
                    assertFalse(Files.readString(keys).contains("acme:"), "the key's line is gone from the file");
                } finally {
                    browser.quit();
                }
            }
        }
    }

    private static int soapStatus(int port, String authorization) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/services/StockUtility"))
                .header("Content-Type", "text/xml").header("SOAPAction", "\"urn:getQuote\"").header("Authorization", authorization)
                .POST(HttpRequest.BodyPublishers.ofString(SoapEnvelopes.request11("getQuote", "IBM"))).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    static WebDriver headlessChromium() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000");
        return new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build(), options);
    }

    /** Logs in as operator on the login page the browser shows, and waits for the console to say who is logged in. */
    static void logIn(WebDriver browser, String password) {
        browser.findElement(By.id("user")).sendKeys("operator");
        browser.findElement(By.id("password")).clear();
        browser.findElement(By.id("password")).sendKeys(password);
        browser.findElement(By.id("submit")).click();
        await().atMost(DEADLINE).ignoreExceptions().until(() -> browser.findElement(By.id("me")).getText().contains("operator"));
    }
}
