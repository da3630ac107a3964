package io.slagate.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the gateway's check of an idle upstream connection costs when it is taken for a request: one non-blocking read
 * on a loopback socket with nothing to read ({@code ServerConnection.activate}: bytes there would be an answer nobody
 * asked for). The same-loop spikes make no such read, so this is the part of slagate's CPU per request that buys the
 * stray-answer defence.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class IdleReadBenchmark {
    private ServerSocketChannel listener;
    private SocketChannel client;
    private SocketChannel accepted;
    private final ByteBuffer input = ByteBuffer.allocateDirect(16 * 1024);

    @Setup
    public void connect() throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client = SocketChannel.open(listener.getLocalAddress());
        accepted = listener.accept();
        client.configureBlocking(false);
    }

    @TearDown
    public void close() throws IOException {
        client.close();
        accepted.close();
        listener.close();
    }

    @Benchmark
    public int idleRead() throws IOException {
        input.clear();
        int n = client.read(input);
        if (n != 0) {
            throw new IllegalStateException("the idle socket read " + n);
        }
        return n;
    }
}
