package io.scflux.samples.service;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import reactor.netty.http.HttpDecoderSpec;

/**
 * The reading of a connection's request heads, in its pipeline between Netty's HTTP codec and Reactor Netty's handler.
 * A head (request line and headers) must have arrived whole within {@code timeout} of the connection opening or of the
 * previous response ending, else the connection is closed: a client that connects and sends nothing, or sends its
 * head a byte at a time, would otherwise hold a descriptor for ever (1,100 such connections exhausted the server's
 * descriptors and its token holder timed out). Reactor Netty's {@code idleTimeout} does not do it, as each byte that
 * comes restarts it. And a head Netty could not decode (a line over
 * {@link HttpDecoderSpec#DEFAULT_MAX_INITIAL_LINE_LENGTH} bytes, headers over
 * {@link HttpDecoderSpec#DEFAULT_MAX_HEADER_SIZE}, or no HTTP at all) is answered 414, 431 or 400 as a problem
 * document, as every other error, then the connection closed; Reactor Netty would answer it with an empty body and a
 * warning in the log.
 */
final class HeadGuard extends ChannelDuplexHandler {

    /** The handler's name in the pipeline. */
    static final String NAME = "scflux.headGuard";

    private final long timeoutNanos;
    private final UnaryOperator<String> redaction;
    private final RequestLog log;
    /** Request heads read and responses ended on this connection: it waits for a head when they are equal. */
    private long heads;
    private long ended;
    private ScheduledFuture<?> deadline;

    /** A guard closing a connection whose head has not come within {@code timeout}. */
    HeadGuard(Duration timeout, UnaryOperator<String> redaction, RequestLog log) {
        this.timeoutNanos = timeout.toNanos();
        this.redaction = redaction;
        this.log = log;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            arm(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        arm(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        disarm();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        disarm();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HttpRequest request)) {
            ctx.fireChannelRead(msg);
            return;
        }
        heads++;
        disarm();
        if (request.decoderResult().isSuccess()) {
            ctx.fireChannelRead(msg);
            return;
        }
        Throwable cause = request.decoderResult().cause();
        ReferenceCountUtil.release(msg);
        Problem problem = unreadable(cause);
        byte[] body = problem.json(redaction).getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, problem.status(),
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, Problem.CONTENT_TYPE)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        log.unread(problem.status().code());
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof LastHttpContent) {
            promise = promise.unvoid().addListener(f -> {
                if (++ended == heads && ctx.channel().isActive()) {
                    arm(ctx);
                }
            });
        }
        ctx.write(msg, promise);
    }

    /** The 414, 431 or 400 problem of a head Netty could not decode for {@code cause}. */
    private static Problem unreadable(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return new Problem(HttpResponseStatus.REQUEST_URI_TOO_LONG, "URI too long", "the request line is over "
                    + "the " + HttpDecoderSpec.DEFAULT_MAX_INITIAL_LINE_LENGTH + " bytes this service reads", null);
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return new Problem(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "Request header fields too large",
                    "the request's headers are over the " + HttpDecoderSpec.DEFAULT_MAX_HEADER_SIZE + " bytes this "
                    + "service reads", null);
        }
        return new Problem(HttpResponseStatus.BAD_REQUEST, "Bad request", "the request is not HTTP/1.1 this service "
                + "can read: " + cause.getMessage(), null);
    }

    private void arm(ChannelHandlerContext ctx) {
        disarm();
        deadline = ctx.executor().schedule(() -> {
            ctx.close();
        }, timeoutNanos, TimeUnit.NANOSECONDS); // a lambda, as ctx::close would fit Callable and Runnable alike
    }

    private void disarm() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
