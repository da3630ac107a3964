package io.slagate.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Idle keep-alive clients held open against a gateway: each connects, makes one request, reads its answer and then
 * sends nothing more, as a fleet of mostly quiet clients does. Prints {@code ready N} once N are open and answered,
 * then holds them until it is killed (or its input ends).
 *
 * <pre>IdleConnections PORT COUNT</pre>
 */
public final class IdleConnections {
    private IdleConnections() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int count = Integer.parseInt(args[1]);
        byte[] request = ("GET /services/StockUtility?wsdl HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        List<Socket> held = new ArrayList<>(count);
        int failed = 0;
        for (int i = 0; i < count; i++) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                s.setSoTimeout(10_000);
                s.getOutputStream().write(request);
                AuthFlood.readResponse(s.getInputStream());
                held.add(s);
            } catch (IOException e) {
                failed++;
                s.close();
            }
        }
        System.out.println("ready " + held.size() + " failed " + failed);
        System.out.flush();
        InputStream in = System.in;
        while (in.read() >= 0) {
            // held until killed, or until whoever started it closes its input
        }
        for (Socket s : held) {
            s.close();
        }
    }
}
