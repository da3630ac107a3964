package io.slagate.load.service;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.transport.http.AxisServlet;

/**
 * Axis2's servlet with its configuration built in code rather than from a WAR's WEB-INF (STACK.md,
 * pitfall 1): our own axis2.xml, the {@link StockUtility} POJO deployed as a service.
 */
public final class SyntheticServiceServlet extends AxisServlet {
    public static final String SERVICE = "StockUtility";

    private final JmsEndpoint jms;
    /** This server's data set and cache for the {@link Bookstore} service, or null: no Bookstore here. */
    private ItemCache itemCache;
    /** This server's knobs (worker pool, contention), or null: StockUtility's JVM-wide settings. */
    private ServerKnobs knobs;

    /** Runs StockUtility's work on this server's own knobs. */
    public SyntheticServiceServlet withKnobs(ServerKnobs k) {
        this.knobs = k;
        return this;
    }

    /** The service over HTTP only. */
    public SyntheticServiceServlet() {
        this(null);
    }

    /**
     * The service over HTTP and, when {@code jms} is given, over SOAP/JMS too: Axis2's JMS transport
     * consumes the queue named after the service on that broker and sends each reply to the request's
     * reply-to destination.
     */
    public SyntheticServiceServlet(JmsEndpoint jms) {
        this.jms = jms;
    }

    /** Deploys the {@link Bookstore} service too, on this server's own data set and cache. */
    public SyntheticServiceServlet withBookstore(ItemCache cache) {
        this.itemCache = cache;
        return this;
    }

    @Override
    protected ConfigurationContext initConfigContext(ServletConfig config) throws ServletException {
        try {
            ConfigurationContext ctx;
            if (jms == null) {
                ctx = ConfigurationContextFactory.createConfigurationContextFromURIs(
                        SyntheticServiceServlet.class.getResource("/slagate-axis2.xml"), null);
            } else {
                Path xml = jms.axis2Xml();
                try {
                    ctx = ConfigurationContextFactory.createConfigurationContextFromURIs(xml.toUri().toURL(), null);
                } finally {
                    Files.deleteIfExists(xml); // read: the broker password leaves the disk
                }
            }
            AxisService service = AxisService.createService(StockUtility.class.getName(), ctx.getAxisConfiguration());
            service.setName(SERVICE);
            ctx.getAxisConfiguration().addService(service);
            if (knobs != null) {
                ctx.setProperty(ServerKnobs.PROPERTY, knobs);
            }
            if (itemCache != null) {
                AxisService store = AxisService.createService(Bookstore.class.getName(), ctx.getAxisConfiguration());
                store.setName(Bookstore.SERVICE);
                ctx.getAxisConfiguration().addService(store);
                ctx.setProperty(ItemCache.PROPERTY, itemCache);
            }
            return ctx;
        } catch (IOException e) { // AxisFault included
            throw new ServletException("cannot build the Axis2 configuration: " + e.getMessage(), e);
        }
    }

    /**
     * Terminates the Axis2 runtime without Axis2's own destroy(), which looks for the commons-httpclient
     * 3 connection manager (not on the classpath: the sender is httpclient5) and logs an ERROR trace.
     */
    @Override
    public void destroy() {
        try {
            if (configContext != null) {
                configContext.terminate();
            }
        } catch (AxisFault e) {
            log("Axis2 did not terminate cleanly: " + e.getMessage());
        }
    }

    /**
     * Axis2 may return before reading a chunked body's last chunk; Jetty would then close the
     * connection and the client's next request on it fails (pitfall 4). Drain what is left.
     */
    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
        super.service(req, resp);
        try (InputStream in = req.getInputStream()) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException | IllegalStateException ignored) {
            // nothing left to read, or the body was read as a reader: either way nothing to drain
        }
    }
}
