package io.slagate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ItemCache;
import io.slagate.load.service.ServiceTime;
import io.slagate.load.service.WorkingSetModel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ItemCacheTest {
    /** 400 items (promo 40, lists 60, catalog 140, carts 50, customers 50, orders 60), blocks of 10, no costs. */
    private static WorkingSetModel model(int cache) {
        return new WorkingSetModel(400, cache, Duration.ZERO, Duration.ZERO, Duration.ZERO, 2, 10);
    }

    @Test
    void aWorkingSetThatFits_isAllHitsOnceWarm_andOneThatDoesNot_missesAtTheLruRate() throws Exception {
        ItemCache cache = new ItemCache(model(50));
        for (int i = 0; i < 300; i++) {
            cache.perform("home"); // promo: 40 items, 4 per request
        }
        for (int i = 0; i < 50; i++) {
            ItemCache.Outcome o = cache.perform("home");
            assertEquals(0, o.misses(), "40 items in a cache of 50: all hits once warm");
            assertEquals(4, o.hits());
        }
        // the catalog (140 items, uniform) in the same 50 slots: a hit about 50/140 of the time, never all
        long hitsBefore = cache.hits();
        long missesBefore = cache.misses();
        for (int i = 0; i < 2000; i++) {
            cache.perform("productDetail");
        }
        double ratio = (double) (cache.hits() - hitsBefore) / (cache.hits() - hitsBefore + cache.misses() - missesBefore);
        assertEquals(50.0 / 140, ratio, 0.05);
    }

    @Test
    void theDeclaredBlocks_areThoseOfTheTablesRead() throws Exception {
        ItemCache cache = new ItemCache(model(0));
        for (int i = 0; i < 100; i++) {
            ItemCache.Outcome o = cache.perform("orderDisplay"); // orders: items 340-399, blocks 34-39
            assertEquals(4, o.misses(), "no cache: every read misses");
            assertTrue(Arrays.stream(o.blocks().split(",")).mapToInt(Integer::parseInt).allMatch(b -> b >= 34 && b <= 39), o.blocks());
        }
        assertThrows(IllegalArgumentException.class, () -> cache.perform("noSuchInteraction"));
    }

    @Test
    void theTablesCoverTheDataSet() {
        WorkingSetModel m = WorkingSetModel.store(1000);
        int total = m.tables().values().stream().mapToInt(WorkingSetModel.Table::size).sum();
        assertEquals(m.items(), total);
        assertEquals(16, m.operations().size(), "TPC-W's fourteen interactions, document and anyItem");
    }

    @Test
    void aDocumentsReads_stayInItsBlock_andRepeatingItHitsTheCache() throws Exception {
        ItemCache cache = new ItemCache(model(50));
        assertEquals(40, model(50).documents());
        for (int i = 0; i < 50; i++) {
            for (String b : cache.perform("document", 7).blocks().split(",")) {
                assertEquals(7, Integer.parseInt(b));
            }
        }
        // 50 requests of 4 reads from a block of 10 items that the cache holds whole: at most 10 misses
        assertEquals(200, cache.hits() + cache.misses());
        assertTrue(cache.misses() <= 10, "misses " + cache.misses());
    }

    @Test
    void aDocumentOutsideTheDataSet_isRefusedWithItsRange() {
        ItemCache cache = new ItemCache(model(50));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> cache.perform("document", 40));
        assertEquals("no document 40 (documents are 0 to 39)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> cache.perform("document", -1));
    }

    @Test
    void theDocumentHeader_namesTheDocument_overHttp_andAMissingOrBadOneIsAFault() throws Exception {
        try (BackendServer b = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.of(Duration.ofMillis(1), 0), null, model(50))) {
            HttpClient http = HttpClient.newHttpClient();
            String body = "<?xml version=\"1.0\"?><soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                    + " xmlns:ns=\"http://service.load.slagate.io\"><soapenv:Body><ns:document><ns:who>c</ns:who></ns:document>"
                    + "</soapenv:Body></soapenv:Envelope>";
            HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(b.urls().get(0) + "/services/Bookstore"))
                    .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"urn:document\"")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            HttpResponse<String> ok = http.send(req.copy().header(WorkingSetModel.DOCUMENT_HEADER, "12").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, ok.statusCode(), ok.body());
            assertEquals("12,12,12,12", ok.headers().firstValue(WorkingSetModel.WORKING_SET_HEADER).orElse(""));
            for (String bad : new String[] {null, "x", "40"}) {
                HttpRequest r = bad == null ? req.copy().build() : req.copy().header(WorkingSetModel.DOCUMENT_HEADER, bad).build();
                HttpResponse<String> fault = http.send(r, HttpResponse.BodyHandlers.ofString());
                assertEquals(500, fault.statusCode(), "document " + bad);
                assertTrue(fault.body().contains("document"), fault.body());
            }
        }
    }

    @Test
    void eachServerReportsItsOwnCounters_overHttp() throws Exception {
        try (BackendServer b = BackendServer.start("127.0.0.1", List.of(0, 0),
                ServiceTime.of(Duration.ofMillis(1), 0), null, model(50))) {
            b.caches().get(0).perform("home");
            HttpClient http = HttpClient.newHttpClient();
            String first = http.send(HttpRequest.newBuilder(URI.create(b.urls().get(0) + "/bookstore/stats")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            String second = http.send(HttpRequest.newBuilder(URI.create(b.urls().get(1) + "/bookstore/stats")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            JsonNode j = new ObjectMapper().readTree(first);
            assertEquals(4, j.path("hits").asInt() + j.path("misses").asInt(), "one request of four reads: " + first);
            assertEquals(50, j.path("cacheItems").asInt());
            assertTrue(second.contains("\"misses\":0") && second.contains("\"hits\":0"), "a cache per server: " + second);
        }
    }

    @Test
    void zipfPopularity_makesAHalfSizeCacheHitMoreThanUniform_andSeededDrawsRepeat() throws Exception {
        // the catalog's 140 items through a cache of 70: uniform hits about half the time; with Zipf s = 0.9 the hot
        // items stay cached and the rate is higher (about 0.84 if the cache held the top half: Σ_{r≤70} r^-0.9 / Σ_{r≤140})
        double uniform = hitRate(new ItemCache(model(70).with(0, 0, 5)));
        double zipf = hitRate(new ItemCache(model(70).with(0.9, 0, 5)));
        assertTrue(uniform > 0.4 && uniform < 0.6, "uniform: " + uniform);
        assertTrue(zipf > uniform + 0.12, "zipf " + zipf + " against uniform " + uniform);
        assertEquals(zipf, hitRate(new ItemCache(model(70).with(0.9, 0, 5))), "the same seed, the same draws");
    }

    @Test
    void zipfCumulativeWeights_riseToOne_theFirstRankHeaviest() {
        double[] cdf = ItemCache.zipfCdf(4, 1);
        // weights 1, 1/2, 1/3, 1/4 over 25/12
        assertEquals(12.0 / 25, cdf[0], 1e-12);
        assertEquals(18.0 / 25, cdf[1], 1e-12);
        assertEquals(1.0, cdf[3], 1e-12);
    }

    private static double hitRate(ItemCache cache) throws Exception {
        for (int i = 0; i < 2000; i++) {
            cache.perform("productDetail");
        }
        long h = cache.hits();
        long m = cache.misses();
        for (int i = 0; i < 4000; i++) {
            cache.perform("productDetail");
        }
        return (double) (cache.hits() - h) / (cache.hits() - h + cache.misses() - m);
    }
}
