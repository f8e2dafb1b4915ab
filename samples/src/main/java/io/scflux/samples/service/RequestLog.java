/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The service's log of requests: one line at info per request once it is answered (a stream once it ends or its
 * client leaves): method, path, status, milliseconds, {@code GET /jobs/5f0c2a9e.../events 200 1840 ms}; a request
 * Netty could not read (its line or headers too long, or not HTTP) as {@code - (unread) 431 0 ms}. Nothing that grants
 * access is written: no query, header or body; the path percent-decoded with the token hidden in any spelling and its
 * control characters escaped ({@link Redaction#path}); and a job id only by its first 8 hex digits, which tell jobs
 * apart without naming their routes and output ({@link Secrets}).
 */
final class RequestLog {

    private static final Logger LOG = LoggerFactory.getLogger(RequestLog.class);

    /** A job id (32 hex digits), alone or in a file name; its first 8 digits are group 1. */
    private static final Pattern JOB_ID = Pattern.compile("(?<![0-9a-f])([0-9a-f]{8})[0-9a-f]{24}(?![0-9a-f])");

    private final Redaction redaction;
    private final Consumer<String> lines;

    /** A log to slf4j's {@code RequestLog} at info, each path through {@code redaction}. */
    RequestLog(Redaction redaction) {
        this(redaction, line -> {
            if (LOG.isInfoEnabled()) {
                LOG.info(line);
            }
        });
    }

    /** A log of lines to {@code lines} (a test's capture), each path through {@code redaction}. */
    RequestLog(Redaction redaction, Consumer<String> lines) {
        this.redaction = redaction;
        this.lines = lines;
    }

    /** {@code answer}, the handling of {@code request}, logged when it ends. */
    Mono<Void> around(HttpServerRequest request, HttpServerResponse response, Mono<Void> answer) {
        long started = System.nanoTime();
        return answer.doFinally(signal -> lines.accept(request.method() + " "
                + path(new QueryStringDecoder(request.uri()).rawPath()) + " "
                + response.status().code() + " "
                + (System.nanoTime() - started) / 1_000_000 + " ms"));
    }

    /** Logs a request Netty could not read, answered {@code status}. */
    void unread(int status) {
        lines.accept("- (unread) " + status + " 0 ms");
    }

    /** {@code path}, raw, as logged: decoded and redacted, each job id cut to its first 8 digits. */
    private String path(String path) {
        return JOB_ID.matcher(redaction.path(path)).replaceAll("$1...");
    }
}
