package io.slagate.load.service;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;

/**
 * Where the synthetic service listens for SOAP over JMS: a broker and how many messages it processes
 * at once. Produces the Axis2 configuration with Axis2's JMS transport (listener and sender) added to
 * the HTTP one; JNDI is ActiveMQ's own, so the queue named after the service needs no set-up.
 *
 * @param brokerUrl  the ActiveMQ broker, e.g. {@code tcp://127.0.0.1:61616}
 * @param consumers  messages processed concurrently (Axis2's JMS listener is one thread per consumer)
 * @param user       broker user, or null
 * @param password   broker password, or null
 */
public record JmsEndpoint(String brokerUrl, int consumers, String user, String password) {
    public JmsEndpoint {
        if (brokerUrl == null || brokerUrl.isBlank()) {
            throw new IllegalArgumentException("a JMS endpoint needs a broker URL");
        }
        if (consumers < 1) {
            throw new IllegalArgumentException("consumers must be at least 1: " + consumers);
        }
    }

    /**
     * slagate-axis2.xml with the JMS transport inserted, written to a temporary file (owner-only, as
     * it may hold the broker password) for Axis2 to read; the caller deletes it once read.
     */
    Path axis2Xml() throws IOException {
        String base;
        try (InputStream in = JmsEndpoint.class.getResourceAsStream("/slagate-axis2.xml")) {
            base = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String credentials = user == null ? "" : param("transport.jms.UserName", user)
                + param("transport.jms.Password", password == null ? "" : password);
        String transport = """
                    <transportReceiver name="jms" class="org.apache.axis2.transport.jms.JMSListener">
                        <parameter name="default" locked="false">
                            %s%s%s%s%s%s%s%s
                        </parameter>
                    </transportReceiver>
                    <transportSender name="jms" class="org.apache.axis2.transport.jms.JMSSender"/>
                """.formatted(
                param("java.naming.factory.initial", "org.apache.activemq.jndi.ActiveMQInitialContextFactory"),
                param("java.naming.provider.url", providerUrl()),
                param("transport.jms.ConnectionFactoryJNDIName", "ConnectionFactory"),
                param("transport.jms.ConnectionFactoryType", "queue"),
                param("transport.jms.ConcurrentConsumers", Integer.toString(consumers)),
                param("transport.jms.MaxConcurrentConsumers", Integer.toString(consumers)),
                param("transport.jms.CacheLevel", "consumer"),
                credentials);
        String xml = base.replaceFirst("(?s)(\\s*<phaseOrder type=\"InFlow\">)", Matcher.quoteReplacement(transport) + "$1");
        Path file = Files.createTempFile("slagate-axis2-jms", ".xml"); // rw------- on POSIX
        Files.writeString(file, xml);
        return file;
    }

    /**
     * The broker URL with advisory watching off: slagate's broker sends no advisories, and an
     * ActiveMQ client that watches them and sees none takes every reply-to temporary queue for a
     * deleted one ("Cannot publish to a deleted Destination").
     */
    String providerUrl() {
        if (brokerUrl.contains("watchTopicAdvisories")) {
            return brokerUrl;
        }
        return brokerUrl + (brokerUrl.contains("?") ? "&" : "?") + "jms.watchTopicAdvisories=false";
    }

    private static String param(String name, String value) {
        return "<parameter name=\"" + name + "\" locked=\"false\">" + escape(value) + "</parameter>";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    @Override
    public String toString() {
        return "JmsEndpoint[" + brokerUrl + ", consumers=" + consumers + ", user=" + user + "]";
    }
}
