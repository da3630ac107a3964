package io.slagate.bench;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AttributeKey;

/**
 * A floor of bench/gateway-vs-haproxy.sh for the data plane's library decision: the gateway's job
 * (two classes by SOAPAction, weighted round robin 8:2 under a cap of N_s outstanding requests per
 * server, the body read before queueing) as a same-loop proxy on Netty 4.2. Each event loop owns
 * its client channels, the server channels that serve them (outbound channel registered on the
 * inbound channel's loop, a LIFO pool per loop) and its share of the cap, so nothing crosses
 * threads. No statistics, faults, timeouts or hostile-input checks: what it costs is below what a
 * gateway on Netty would cost.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.slagate.bench.NettyLoopProxy PORT BACKEND_URL CAP}
 */
public final class NettyLoopProxy {
    private final InetSocketAddress backend;
    private final String backendHost;
    private final Class<? extends SocketChannel> channelType;
    private final int capPerLoop;
    /** Per event loop: its scheduler (confined to the loop's thread, so no locks). */
    private final Map<EventLoop, LoopScheduler> schedulers = new ConcurrentHashMap<>();

    private NettyLoopProxy(InetSocketAddress backend, Class<? extends SocketChannel> channelType, int capPerLoop) {
        this.backend = backend;
        this.backendHost = backend.getHostString() + ":" + backend.getPort();
        this.channelType = channelType;
        this.capPerLoop = capPerLoop;
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        URI url = URI.create(args[1]);
        int cap = Integer.parseInt(args[2]);
        int loops = Runtime.getRuntime().availableProcessors();
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> serverType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        Class<? extends SocketChannel> channelType = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(loops, io);
        NettyLoopProxy proxy = new NettyLoopProxy(new InetSocketAddress(url.getHost(), url.getPort()), channelType,
                Math.max(1, cap / loops));
        new ServerBootstrap().group(group).channel(serverType)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), proxy.new Frontend());
                    }
                })
                .bind("127.0.0.1", port).sync();
        System.out.println("netty loop proxy on " + port + ", " + loops + " loops, " + (epoll ? "epoll" : "nio"));
        group.terminationFuture().sync();
    }

    private LoopScheduler scheduler(EventLoop loop) {
        return schedulers.computeIfAbsent(loop, LoopScheduler::new);
    }

    /** A client's request, read whole, and the channel it came on. */
    private record Exchange(Channel client, FullHttpRequest request, boolean keepAlive) {
    }

    /** Client side: classify, read the body (the aggregator), queue on the loop's scheduler. */
    private final class Frontend extends SimpleChannelInboundHandler<FullHttpRequest> {
        Frontend() {
            super(false);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            if (!request.decoderResult().isSuccess()) {
                request.release();
                FullHttpResponse bad = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_REQUEST);
                HttpUtil.setContentLength(bad, 0);
                ctx.writeAndFlush(bad).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            String action = request.headers().get("SOAPAction");
            int cls = action != null && action.contains("urn:premium") ? 0 : 1;
            scheduler(ctx.channel().eventLoop()).offer(cls, new Exchange(ctx.channel(), request, HttpUtil.isKeepAlive(request)));
        }
    }

    /** One loop's queues, weights 8:2, outstanding count and idle server channels; used only on that loop's thread. */
    private final class LoopScheduler {
        private final EventLoop loop;
        private final WrrQueues<Exchange> queues = new WrrQueues<>();
        private int outstanding;
        private final ArrayDeque<Channel> idle = new ArrayDeque<>();

        LoopScheduler(EventLoop loop) {
            this.loop = loop;
        }

        void offer(int cls, Exchange x) {
            queues.offer(cls, x);
            admit();
        }

        private void admit() {
            while (outstanding < capPerLoop) {
                Exchange x = queues.next();
                if (x == null) {
                    return;
                }
                outstanding++;
                forward(x);
            }
        }

        private void forward(Exchange x) {
            x.request().headers().set(HttpHeaderNames.HOST, backendHost);
            HttpUtil.setKeepAlive(x.request(), true);
            Channel server = idle.pollFirst();
            while (server != null && !server.isActive()) {
                server = idle.pollFirst();
            }
            if (server != null) {
                send(server, x);
                return;
            }
            new Bootstrap().group(loop).channel(channelType).option(ChannelOption.TCP_NODELAY, true)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1 << 20), new Backend());
                        }
                    })
                    .connect(backend).addListener(f -> {
                        if (f.isSuccess()) {
                            send(((ChannelFuture) f).channel(), x);
                        } else {
                            x.request().release();
                            answer(x, new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_GATEWAY));
                            done();
                        }
                    });
        }

        private void send(Channel server, Exchange x) {
            server.attr(EXCHANGE).set(x);
            server.writeAndFlush(x.request());
        }

        void answered(Channel server, FullHttpResponse response) {
            Exchange x = server.attr(EXCHANGE).getAndSet(null);
            if (HttpUtil.isKeepAlive(response)) {
                idle.addFirst(server);
            } else {
                server.close();
            }
            answer(x, response);
            done();
        }

        private void answer(Exchange x, FullHttpResponse response) {
            HttpUtil.setKeepAlive(response, x.keepAlive());
            if (!HttpUtil.isContentLengthSet(response)) {
                HttpUtil.setContentLength(response, response.content().readableBytes());
            }
            if (x.keepAlive()) {
                x.client().writeAndFlush(response);
            } else {
                x.client().writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }

        private void done() {
            outstanding--;
            admit();
        }
    }

    private static final AttributeKey<Exchange> EXCHANGE = AttributeKey.valueOf("exchange");

    /** Server side: the answer goes back to its client on the same loop, the channel to the loop's pool. */
    private final class Backend extends SimpleChannelInboundHandler<FullHttpResponse> {
        Backend() {
            super(false);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
            scheduler(ctx.channel().eventLoop()).answered(ctx.channel(), response);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        /** Closed with an exchange on it: its client gets a 502, the slot goes to the next request. */
        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            Exchange x = ctx.channel().attr(EXCHANGE).getAndSet(null);
            if (x != null) {
                LoopScheduler s = scheduler(ctx.channel().eventLoop());
                s.answer(x, new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_GATEWAY));
                s.done();
            }
        }
    }
}
