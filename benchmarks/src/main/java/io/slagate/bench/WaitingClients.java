package io.slagate.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The heap per waiting request (bench/waiting-heap.sh). Two roles, each a process of its own so that the
 * gateway's heap holds nothing of theirs:
 *
 * <ul>
 *   <li>{@code hold PORT}: a backend that accepts connections and reads, and never answers: the gateway's one slot
 *       stays taken, so every later request waits in its queue;</li>
 *   <li>{@code clients HOST PORT N}: opens N connections to the gateway and sends one small SOAP request on each, then
 *       keeps them open without reading until its standard input closes. Sources cycle over 127.0.0.2–127.0.0.9 so that
 *       N can exceed one address's ephemeral ports. One selector thread, non-blocking: N is bounded by file
 *       descriptors, not threads. Prints {@code sent N} when every request was written.</li>
 * </ul>
 */
public final class WaitingClients {
    private WaitingClients() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("hold")) {
            hold(Integer.parseInt(args[1]));
        } else if (args.length >= 4 && args[0].equals("clients")) {
            clients(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        } else {
            System.err.println("usage: WaitingClients hold PORT | clients HOST PORT N");
            System.exit(2);
        }
    }

    private static void hold(int port) throws IOException {
        try (Selector sel = Selector.open(); ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress("127.0.0.1", port), 1024);
            server.configureBlocking(false);
            server.register(sel, SelectionKey.OP_ACCEPT);
            ByteBuffer sink = ByteBuffer.allocateDirect(64 * 1024);
            System.out.println("holding on " + port);
            while (true) {
                sel.select();
                for (Iterator<SelectionKey> it = sel.selectedKeys().iterator(); it.hasNext(); ) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (k.isAcceptable()) {
                        SocketChannel c = server.accept();
                        if (c != null) {
                            c.configureBlocking(false);
                            c.register(sel, SelectionKey.OP_READ);
                        }
                    } else if (k.isReadable()) {
                        sink.clear();
                        if (((SocketChannel) k.channel()).read(sink) < 0) {
                            k.channel().close();
                        }
                    }
                }
            }
        }
    }

    private static void clients(String host, int port, int n) throws Exception {
        String body = "<?xml version=\"1.0\"?><soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                + "<soapenv:Body><ns:getQuote xmlns:ns=\"urn:stock\"><ns:symbol>IBM</ns:symbol></ns:getQuote></soapenv:Body>"
                + "</soapenv:Envelope>";
        byte[] request = ("POST /services/StockUtility HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n"
                + "Content-Type: text/xml; charset=utf-8\r\nSOAPAction: \"urn:getQuote\"\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8);
        List<SocketChannel> open = new ArrayList<>(n);
        int sent = 0;
        int pendingConnects = 0;
        try (Selector sel = Selector.open()) {
            int next = 0;
            while (sent < n) {
                // keep at most 1,000 connects in flight: the gateway accepts at its own pace
                while (next < n && pendingConnects < 1000) {
                    SocketChannel c = SocketChannel.open();
                    c.configureBlocking(false);
                    c.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                    c.bind(new InetSocketAddress("127.0.0." + (2 + next % 8), 0));
                    if (c.connect(new InetSocketAddress(host, port))) {
                        c.register(sel, SelectionKey.OP_WRITE, ByteBuffer.wrap(request));
                    } else {
                        c.register(sel, SelectionKey.OP_CONNECT, ByteBuffer.wrap(request));
                        pendingConnects++;
                    }
                    open.add(c);
                    next++;
                }
                sel.select(1000);
                for (Iterator<SelectionKey> it = sel.selectedKeys().iterator(); it.hasNext(); ) {
                    SelectionKey k = it.next();
                    it.remove();
                    SocketChannel c = (SocketChannel) k.channel();
                    if (k.isConnectable()) {
                        c.finishConnect();
                        pendingConnects--;
                        k.interestOps(SelectionKey.OP_WRITE);
                    } else if (k.isWritable()) {
                        ByteBuffer b = (ByteBuffer) k.attachment();
                        c.write(b);
                        if (!b.hasRemaining()) {
                            k.interestOps(0); // written; never read: the answer would come only once admitted
                            sent++;
                        }
                    }
                }
            }
            System.out.println("sent " + sent);
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold every connection until told to stop
            }
        } finally {
            for (SocketChannel c : open) {
                c.close();
            }
        }
    }
}
