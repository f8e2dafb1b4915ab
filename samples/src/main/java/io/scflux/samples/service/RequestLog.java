package io.scflux.samples.service;

import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The service's log of requests: one line at info per request once it is answered (a stream once it ends or its
 * client leaves): method, path, status, milliseconds, {@code GET /jobs/5f0c2a9e.../events 200 1840 ms}. Nothing that
 * grants access is written: no query (it may carry the token), header or body, and a job id only by its first 8 hex
 * digits, which tell jobs apart without naming their routes and output ({@link Secrets}).
 */
final class RequestLog {

    private static final Logger LOG = LoggerFactory.getLogger(RequestLog.class);

    /** A job id (32 hex digits), alone or in a file name; its first 8 digits are group 1. */
    private static final Pattern JOB_ID = Pattern.compile("(?<![0-9a-f])([0-9a-f]{8})[0-9a-f]{24}(?![0-9a-f])");

    private RequestLog() {
    }

    /** {@code answer}, the handling of {@code request}, logged when it ends. */
    static Mono<Void> around(HttpServerRequest request, HttpServerResponse response, Mono<Void> answer) {
        long started = System.nanoTime();
        return answer.doFinally(signal -> {
            if (LOG.isInfoEnabled()) {
                LOG.info("{} {} {} {} ms", request.method(), path(request.fullPath()), response.status().code(),
                        (System.nanoTime() - started) / 1_000_000);
            }
        });
    }

    /** {@code path} (without its query) as logged: each job id cut to its first 8 digits. */
    static String path(String path) {
        return JOB_ID.matcher(path).replaceAll("$1...");
    }
}
