package io.slagate.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;
import io.slagate.gateway.http1.RequestHead;
import io.slagate.gateway.http1.ResponseHead;

/**
 * A floor of bench/gateway-vs-haproxy.sh below the Netty spike: the gateway's job (two classes by SOAPAction, weighted
 * round robin 8:2 under a cap of N_s outstanding requests per server, the body read before queueing) as a byte relay on
 * plain NIO, one selector loop per core, each owning its client connections, the server connections that serve them and
 * its share of the cap. It parses what a proxy must and nothing more, strictly: the request line, the header fields
 * (names checked, no obsolete line folding, one Content-Length, no Transfer-Encoding: a request it cannot frame is
 * answered 400 and the connection closed), the response's status line and framing (Content-Length, or until close);
 * the bytes of both are relayed as they came, never decoded into an object model nor encoded again. No statistics,
 * timeouts, chunked bodies, pipelining, back-pressure toward a fast server or faults beyond that: what it costs is below
 * what a gateway on it would cost.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.slagate.bench.ByteRelayProxy PORT BACKEND_URL CAP}
 */
public final class ByteRelayProxy {
    /** A request head and body must fit one buffer (the gateway's own limit is larger; the harness's requests are small). */
    static final int BUFFER = 16 * 1024;
    private static final byte[] BAD_REQUEST = ("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] BAD_GATEWAY = ("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        URI url = URI.create(args[1]);
        int cap = Integer.parseInt(args[2]);
        int loops = Runtime.getRuntime().availableProcessors();
        ServerSocketChannel listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress("127.0.0.1", port), 1024);
        listener.configureBlocking(false);
        InetSocketAddress backend = new InetSocketAddress(url.getHost(), url.getPort());
        for (int i = 0; i < loops; i++) {
            Loop loop = new Loop(listener, backend, Math.max(1, cap / loops));
            Thread t = new Thread(loop::run, "relay-" + i);
            t.start();
        }
        System.out.println("byte relay proxy on " + port + ", " + loops + " loops");
    }

    /** One selector thread: its clients, its server connections, its queues and share of the cap. */
    static final class Loop {
        private final Selector selector;
        private final InetSocketAddress backend;
        private final int cap;
        private final WrrQueues<Client> queues = new WrrQueues<>();
        private int outstanding;
        private final ArrayDeque<Server> idle = new ArrayDeque<>();

        Loop(ServerSocketChannel listener, InetSocketAddress backend, int cap) throws IOException {
            this.selector = Selector.open();
            this.backend = backend;
            this.cap = cap;
            listener.register(selector, SelectionKey.OP_ACCEPT, listener);
        }

        void run() {
            try {
                while (true) {
                    selector.select();
                    Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                    while (it.hasNext()) {
                        SelectionKey k = it.next();
                        it.remove();
                        if (!k.isValid()) {
                            continue;
                        }
                        Object a = k.attachment();
                        if (a instanceof ServerSocketChannel l) {
                            accept(l);
                        } else if (a instanceof Client c) {
                            c.ready(k);
                        } else if (a instanceof Server s) {
                            s.ready(k);
                        }
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        private void accept(ServerSocketChannel l) throws IOException {
            SocketChannel ch = l.accept(); // every loop's selector watches the listener: another may have taken it
            if (ch == null) {
                return;
            }
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            Client c = new Client(this, ch);
            c.key = ch.register(selector, SelectionKey.OP_READ, c);
        }

        void offer(int cls, Client c) {
            queues.offer(cls, c);
            admit();
        }

        private void admit() {
            while (outstanding < cap) {
                Client c = queues.next();
                if (c == null) {
                    return;
                }
                outstanding++;
                forward(c);
            }
        }

        private void forward(Client c) {
            Server s = idle.pollFirst();
            try {
                if (s == null) {
                    SocketChannel ch = SocketChannel.open();
                    ch.configureBlocking(false);
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    s = new Server(this, ch);
                    boolean now = ch.connect(backend);
                    s.key = ch.register(selector, now ? 0 : SelectionKey.OP_CONNECT, s);
                    s.start(c, now);
                } else {
                    s.start(c, true);
                }
            } catch (IOException e) {
                refused("connect or write failed: " + e);
                if (s != null) {
                    s.close();
                }
                c.answer(BAD_GATEWAY);
                done();
            }
        }

        void done() {
            outstanding--;
            admit();
        }

        private static final java.util.concurrent.atomic.AtomicInteger REFUSALS = new java.util.concurrent.atomic.AtomicInteger();

        /** A request or answer refused: its reason on stderr, the first 20 times (what a run's errors were). */
        static void refused(String why) {
            if (REFUSALS.incrementAndGet() <= 20) {
                System.err.println("refused: " + why);
            }
        }
    }

    /** A client connection: reads one request whole, queues it, relays its answer back. */
    static final class Client {
        final Loop loop;
        final SocketChannel ch;
        SelectionKey key;
        final ByteBuffer in = ByteBuffer.allocateDirect(BUFFER);
        /** The gateway's strict reading of a request head, in place, reused for each request. */
        final RequestHead head = new RequestHead(BUFFER, 100);
        /** The request's length (head + body) once framed, else 0. */
        int requestLength;
        boolean keepAlive;
        /** Bytes of an answer the socket did not take at once. */
        ByteBuffer pending;
        boolean closeAfterWrite;

        Client(Loop loop, SocketChannel ch) {
            this.loop = loop;
            this.ch = ch;
        }

        void ready(SelectionKey k) {
            try {
                if (k.isWritable()) {
                    flush();
                }
                if (!k.isValid() || !k.isReadable()) {
                    return;
                }
                if (requestLength != 0) {
                    // bytes while a request is out: pipelining, which the relay does not do; closed after the answer
                    ByteBuffer extra = ByteBuffer.allocate(BUFFER);
                    if (ch.read(extra) < 0) {
                        close();
                    } else {
                        closeAfterWrite = true;
                    }
                    return;
                }
                if (ch.read(in) < 0) {
                    close();
                    return;
                }
                parse();
            } catch (IOException e) {
                close();
            }
        }

        /** Frames the request in {@link #in} once its head and body are all there; answers 400 to one it cannot frame. */
        private void parse() {
            int n = in.position();
            RequestHead.Verdict v = head.read(in, 0, n);
            if (v == RequestHead.Verdict.INCOMPLETE) {
                if (n == in.capacity()) {
                    reject("head larger than the buffer");
                }
                return;
            }
            if (v == RequestHead.Verdict.REFUSED || head.chunked()) {
                reject(v == RequestHead.Verdict.REFUSED ? head.refusal() : "chunked (the spike frames by length only)");
                return;
            }
            long length = head.length() + Math.max(0, head.contentLength());
            if (length > in.capacity()) {
                reject("body larger than the buffer");
                return;
            }
            if (n < length) {
                return; // the body is still coming: read before queueing
            }
            if (n > length) {
                reject("bytes after the request"); // pipelined requests are not relayed by the spike
                return;
            }
            requestLength = (int) length;
            keepAlive = head.keepAlive();
            String action = head.value("soapaction");
            boolean premium = action != null && action.contains("urn:premium");
            loop.offer(premium ? 0 : 1, this); // reading stays on: a read now is a close or a pipelined request
        }

        private void reject(String why) {
            Loop.refused(why);
            closeAfterWrite = true;
            requestLength = -1; // no further reads are taken as a request
            answer(BAD_REQUEST);
        }

        /** The request's bytes, for the server leg (position 0 to its length). */
        ByteBuffer request() {
            ByteBuffer b = in.duplicate();
            b.flip();
            return b;
        }

        void answer(byte[] bytes) {
            relay(ByteBuffer.wrap(bytes));
            ended();
        }

        /** Writes answer bytes; what the socket does not take waits for it to be writable. */
        void relay(ByteBuffer bytes) {
            try {
                if (pending == null) {
                    ch.write(bytes);
                    if (!bytes.hasRemaining()) {
                        return;
                    }
                    pending = ByteBuffer.allocate(Math.max(bytes.remaining(), 4096));
                    key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                } else if (pending.remaining() < bytes.remaining()) {
                    ByteBuffer grown = ByteBuffer.allocate(pending.position() + bytes.remaining() + 4096);
                    pending.flip();
                    grown.put(pending);
                    pending = grown;
                }
                pending.put(bytes);
            } catch (IOException e) {
                close();
            }
        }

        /** The answer is complete: the next request may be read (or the connection closes once written). */
        void ended() {
            in.clear();
            if (requestLength >= 0) {
                requestLength = 0;
            }
            if (!keepAlive) {
                closeAfterWrite = true;
            }
            if (pending == null && closeAfterWrite) {
                close();
            }
        }

        private void flush() throws IOException {
            pending.flip();
            ch.write(pending);
            if (pending.hasRemaining()) {
                pending.compact();
                return;
            }
            pending = null;
            if (closeAfterWrite) {
                close();
            } else {
                key.interestOps(SelectionKey.OP_READ);
            }
        }

        void close() {
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    /** A server connection: writes one request's bytes, relays the answer to its client as it arrives. */
    static final class Server {
        final Loop loop;
        final SocketChannel ch;
        SelectionKey key;
        final ByteBuffer in = ByteBuffer.allocateDirect(BUFFER);
        /** The answer's head, read in place by the gateway's strict reading; one per connection, reused. */
        final ResponseHead head = new ResponseHead(BUFFER, 100);
        Client client;
        ByteBuffer out;
        /** Bytes of the answer's body still to relay; −1 until its head is framed, Long.MAX_VALUE: until close. */
        long bodyLeft = -1;
        boolean keepAlive;

        Server(Loop loop, SocketChannel ch) {
            this.loop = loop;
            this.ch = ch;
        }

        void start(Client c, boolean connected) throws IOException {
            client = c;
            out = c.request();
            bodyLeft = -1;
            in.clear();
            if (connected) {
                write();
            }
        }

        void ready(SelectionKey k) {
            try {
                if (k.isConnectable()) {
                    if (ch.finishConnect()) {
                        write();
                    }
                    return;
                }
                if (k.isWritable()) {
                    write();
                }
                if (!k.isValid() || !k.isReadable()) {
                    return;
                }
                if (client == null) { // idle: the server closed it, or spoke unasked; either way not reused
                    loop.idle.remove(this);
                    close();
                    return;
                }
                int r = ch.read(in);
                if (r < 0) {
                    if (bodyLeft == Long.MAX_VALUE) {
                        client.ended(); // close-delimited: complete
                        client = null;
                        close();
                        loop.done();
                    } else {
                        fail();
                    }
                    return;
                }
                relay();
            } catch (IOException e) {
                fail();
            }
        }

        private void write() throws IOException {
            ch.write(out);
            int ops = out.hasRemaining() ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
            if (key.interestOps() != ops) {
                key.interestOps(ops); // once per connection, unless a request does not fit the socket at once
            }
        }

        /** Frames the answer's head, then relays what arrived to the client. */
        private void relay() {
            in.flip();
            if (bodyLeft < 0) {
                ResponseHead.Verdict v = head.read(in, 0, in.limit());
                if (v == ResponseHead.Verdict.INCOMPLETE) {
                    in.position(in.limit());
                    in.limit(in.capacity());
                    if (!in.hasRemaining()) {
                        fail();
                    }
                    return;
                }
                if (v == ResponseHead.Verdict.REFUSED || head.chunked()) {
                    fail(); // outside the grammar, or chunked (the spike frames by length only)
                    return;
                }
                long length = head.bodiless(false) ? 0 : head.contentLength();
                keepAlive = head.keepAlive() && length >= 0;
                bodyLeft = length >= 0 ? length + head.length() : Long.MAX_VALUE;
            }
            int n = in.remaining();
            if (bodyLeft != Long.MAX_VALUE && n > bodyLeft) {
                fail(); // bytes past the answer: a server that speaks unasked is not reused
                return;
            }
            client.relay(in);
            in.clear();
            if (bodyLeft != Long.MAX_VALUE) {
                bodyLeft -= n;
                if (bodyLeft == 0) {
                    Client c = client;
                    client = null;
                    if (keepAlive) {
                        loop.idle.addFirst(this);
                    } else {
                        close();
                    }
                    c.ended();
                    loop.done();
                }
            }
        }

        private void fail() {
            Loop.refused("server leg failed " + (bodyLeft < 0 ? "before" : "in") + " the answer's head");
            Client c = client;
            client = null;
            close();
            if (c != null) {
                if (bodyLeft < 0) {
                    c.answer(BAD_GATEWAY);
                } else {
                    c.closeAfterWrite = true; // part of the answer went out: the client must see the break
                    c.ended();
                }
                loop.done();
            }
        }

        void close() {
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }
}
