package io.slagate.gateway.loop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The loop's staging buffer on a real loopback connection: what it reads lands after what is held, writes go out whole and in order. */
class LoopStageTest {
    private ServerSocketChannel listener;
    private SocketChannel near;
    private SocketChannel far;

    @BeforeEach
    void connect() throws Exception {
        listener = ServerSocketChannel.open();
        listener.setOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024); // small windows: writes come out partial
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        near = SocketChannel.open();
        near.setOption(StandardSocketOptions.SO_SNDBUF, 16 * 1024);
        near.connect(listener.getLocalAddress());
        far = listener.accept();
        near.configureBlocking(false);
    }

    @AfterEach
    void close() throws Exception {
        near.close();
        far.close();
        listener.close();
    }

    @Test
    void read_appendsAfterTheHeldBytes_noMoreThanTheRoomLeft() throws Exception {
        LoopStage stage = new LoopStage(16);
        ByteBuffer heap = ByteBuffer.allocate(8);
        heap.put("abcde".getBytes(StandardCharsets.US_ASCII)).flip(); // flush mode: five bytes held
        heap.get(); // one already consumed: position 1
        far.write(ByteBuffer.wrap("0123456789".getBytes(StandardCharsets.US_ASCII)));

        int n = readSome(stage, heap);

        assertEquals(3, n, "only the room after the limit is filled");
        assertEquals("bcde012", ascii(heap));
        heap.position(heap.limit()).compact().flip(); // all consumed: the whole buffer is room again
        assertEquals(7, readSome(stage, heap));
        assertEquals("3456789", ascii(heap));
    }

    @Test
    void read_asJettysFill_aConsumedBufferFilledFromItsStart_aFullOneCompacted() throws Exception {
        LoopStage stage = new LoopStage(16);
        ByteBuffer consumed = ByteBuffer.allocate(8);
        consumed.position(8); // flush mode, every byte consumed: no room after the limit, all of it before
        far.write(ByteBuffer.wrap("0123456789".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(8, readSome(stage, consumed));
        assertEquals("01234567", ascii(consumed));

        consumed.position(6); // two bytes left, the buffer full
        assertEquals(2, readSome(stage, consumed));
        assertEquals("6789", ascii(consumed));
        assertEquals(0, consumed.position());
    }

    @Test
    void read_endOfInput_isMinusOne() throws Exception {
        LoopStage stage = new LoopStage(16);
        far.shutdownOutput();
        ByteBuffer heap = ByteBuffer.allocate(8).flip();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int n;
        do {
            n = stage.read(near, heap);
        } while (n == 0 && System.nanoTime() < deadline);
        assertEquals(-1, n);
        assertEquals(0, heap.remaining());
    }

    @Test
    void write_manyBuffersLargerThanTheStageAndTheSocket_arriveWholeInOrder() throws Exception {
        LoopStage stage = new LoopStage(16 * 1024);
        byte[] all = new byte[600 * 1024];
        new Random(7).nextBytes(all);
        ByteBuffer[] buffers = {
            ByteBuffer.wrap(all, 0, 5).slice(),
            ByteBuffer.allocateDirect(70_000).put(all, 5, 70_000).flip(),
            ByteBuffer.wrap(all, 70_005, all.length - 70_005 - 3).slice().asReadOnlyBuffer(),
            ByteBuffer.wrap(all, all.length - 3, 3).slice(),
        };

        // Nobody reads yet: the socket takes part, and each buffer is advanced by exactly what of it went out.
        long first = stage.write(near, buffers);
        assertTrue(first > 0 && first < all.length, "a partial write: " + first);
        assertEquals(all.length - first, remaining(buffers));

        CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(this::readAll);
        long total = first;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (remaining(buffers) > 0 && System.nanoTime() < deadline) {
            total += stage.write(near, buffers);
        }
        near.shutdownOutput();

        assertEquals(all.length, total);
        assertArrayEquals(all, received.get(20, TimeUnit.SECONDS));
    }

    @Test
    void write_nothingHeld_writesNothing() throws Exception {
        LoopStage stage = new LoopStage(16);
        assertEquals(0, stage.write(near, new ByteBuffer[] {ByteBuffer.allocate(0), ByteBuffer.allocate(4).flip()}));
    }

    @Test
    void onlyTheFirstThreadToClaimIt_mayUseIt() throws Exception {
        LoopStage stage = new LoopStage(16);
        assertFalse(stage.mine(), "nobody owns it before a claim");
        AtomicBoolean claimantMayUseIt = new AtomicBoolean();
        Thread other = new Thread(() -> {
            stage.claim(Thread.currentThread());
            claimantMayUseIt.set(stage.mine());
        });
        other.start();
        other.join();
        assertTrue(claimantMayUseIt.get(), "the claimant uses it");
        stage.claim(Thread.currentThread());
        assertFalse(stage.mine(), "the first claim stands");
        assertFalse(CompletableFuture.supplyAsync(stage::mine).get(), "nor may any other thread");
    }

    private int readSome(LoopStage stage, ByteBuffer heap) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int n;
        do {
            n = stage.read(near, heap);
        } while (n == 0 && System.nanoTime() < deadline);
        return n;
    }

    private byte[] readAll() {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteBuffer b = ByteBuffer.allocate(8192);
            while (far.read(b.clear()) >= 0) {
                out.write(b.array(), 0, b.position());
            }
            return out.toByteArray();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long remaining(ByteBuffer[] buffers) {
        long r = 0;
        for (ByteBuffer b : buffers) {
            r += b.remaining();
        }
        return r;
    }

    private static String ascii(ByteBuffer b) {
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
