/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
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
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.HttpDecoderSpec;

/**
 * One connection's guard, in its pipeline between Netty's HTTP codec and Reactor Netty's handlers; a new one for
 * each connection, so its state is the connection's and is read on its event loop only. It holds no access: the token
 * is checked per request, after it ({@link Access}).
 *
 * <p>It admits the connection among the service's {@link Connections} or closes it. It closes the connection when a
 * request's head (line and headers) has not arrived whole within {@code timeout} of the connection opening or of the
 * last response ending: a client that connects and sends nothing, or its head a byte at a time, would otherwise hold
 * a descriptor for ever (Reactor Netty's {@code idleTimeout} restarts at every byte). And it answers a head Netty could
 * not decode (a line over {@link HttpDecoderSpec#DEFAULT_MAX_INITIAL_LINE_LENGTH} bytes, headers over
 * {@link HttpDecoderSpec#DEFAULT_MAX_HEADER_SIZE}, or no HTTP/1.x) 414, 431 or 400 as a {@link Problem}, as every
 * other error, then closes the connection, where Reactor Netty answers an empty body.
 */
final class ConnectionGuard extends ChannelDuplexHandler {

    /** The handler's name in the pipeline. */
    static final String NAME = "scflux.connectionGuard";

    private final long timeoutNanos;
    private final Connections connections;
    private final Redaction redaction;
    private final RequestLog log;
    /** Request heads read and final responses ended on this connection: it waits for a head when they are equal. */
    private long heads;

    private long ended;
    private @Nullable ScheduledFuture<?> deadline;

    /**
     * A guard admitting its connection among {@code connections}, closing it when a head takes over {@code timeout},
     * answering an unreadable head through {@code redaction} and logging it in {@code log}.
     */
    ConnectionGuard(Duration timeout, Connections connections, Redaction redaction, RequestLog log) {
        this.timeoutNanos = timeout.toNanos();
        this.connections = connections;
        this.redaction = redaction;
        this.log = log;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (connections.admit(ctx.channel())) {
            awaitHead(ctx);
        } else {
            ctx.close();
        }
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
        connections.waiting(ctx.channel(), false);
        if (request.decoderResult().isSuccess()) {
            ctx.fireChannelRead(msg);
            return;
        }
        Throwable cause = request.decoderResult().cause();
        ReferenceCountUtil.release(msg);
        Problem problem = unreadable(cause);
        byte[] body = problem.json(redaction).getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, problem.status(), Unpooled.wrappedBuffer(body));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, Problem.CONTENT_TYPE)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        log.unread(problem.status().code());
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof LastHttpContent
                && !(msg instanceof HttpResponse r
                        && r.status().codeClass() == HttpStatusClass.INFORMATIONAL)) { // a 100 Continue ends no request
            promise = promise.unvoid().addListener(f -> {
                if (++ended == heads && ctx.channel().isActive()) {
                    awaitHead(ctx);
                }
            });
        }
        ctx.write(msg, promise);
    }

    /** The 414, 431 or 400 problem of a head Netty could not decode for {@code cause}. */
    private static Problem unreadable(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return new Problem(
                    HttpResponseStatus.REQUEST_URI_TOO_LONG,
                    "URI too long",
                    "the request line is over " + "the " + HttpDecoderSpec.DEFAULT_MAX_INITIAL_LINE_LENGTH
                            + " bytes this service reads",
                    null);
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return new Problem(
                    HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                    "Request header fields too large",
                    "the request's headers are over the " + HttpDecoderSpec.DEFAULT_MAX_HEADER_SIZE + " bytes this "
                            + "service reads",
                    null);
        }
        String why = cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage();
        return new Problem(
                HttpResponseStatus.BAD_REQUEST,
                "Bad request",
                "the request's line or headers are not " + "HTTP/1.1" + why,
                null);
    }

    /** Waits for the next head: the deadline armed, the connection one that may be closed for a new one. */
    private void awaitHead(ChannelHandlerContext ctx) {
        disarm();
        connections.waiting(ctx.channel(), true);
        deadline = ctx.executor()
                .schedule(
                        () -> {
                            ctx.close();
                        },
                        timeoutNanos,
                        TimeUnit.NANOSECONDS); // a block, as ctx::close would fit Callable and Runnable alike
    }

    private void disarm() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
