package io.slagate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.JmsEndpoint;
import io.slagate.load.service.ServiceTime;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.broker.BrokerService;
import org.apache.activemq.broker.TransportConnector;
import org.junit.jupiter.api.Test;

/** The synthetic service over SOAP/JMS through Axis2's JMS transport, against a real broker. */
class SoapOverJmsServiceTest {
    static String body(Message m) throws Exception {
        if (m instanceof TextMessage t) {
            return t.getText();
        }
        BytesMessage b = (BytesMessage) m;
        byte[] bytes = new byte[(int) b.getBodyLength()];
        b.readBytes(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void requestOnTheServiceQueue_replyOnReplyToWithTheCorrelationId() throws Exception {
        BrokerService broker = new BrokerService();
        broker.setPersistent(false);
        broker.setUseJmx(false);
        broker.setBrokerName("jms-service-test");
        TransportConnector tcp = broker.addConnector("tcp://127.0.0.1:0");
        broker.start();
        String url = "tcp://127.0.0.1:" + tcp.getConnectUri().getPort();
        BackendServer backend = BackendServer.start("127.0.0.1", List.of(0),
                new ServiceTime(Map.of(), Duration.ofMillis(2), 0.5, Duration.ofMillis(1)), new JmsEndpoint(url, 4, null, null));
        Connection c = new ActiveMQConnectionFactory(url).createConnection();
        try {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            TemporaryQueue replies = s.createTemporaryQueue();
            MessageConsumer consumer = s.createConsumer(replies);
            MessageProducer producer = s.createProducer(s.createQueue("StockUtility"));
            for (int i = 0; i < 3; i++) {
                BytesMessage m = s.createBytesMessage();
                m.writeBytes(SoapEnvelopes.request11("getQuote", "IBM").getBytes(StandardCharsets.UTF_8));
                m.setStringProperty("Content-Type", "text/xml; charset=UTF-8");
                m.setStringProperty("SOAPAction", "urn:getQuote");
                m.setJMSReplyTo(replies);
                m.setJMSCorrelationID("corr-" + i);
                producer.send(m);
                Message reply = consumer.receive(20_000);
                assertNotNull(reply, "a reply within 20 s");
                assertEquals("corr-" + i, reply.getJMSCorrelationID());
                String text = body(reply);
                assertTrue(text.contains("getQuoteResponse"), text);
            }
            // HTTP still works on the same server
            assertEquals(1, backend.urls().size());
        } finally {
            c.close();
            backend.close();
            broker.stop();
        }
    }
}
