/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * How a service runs: the address it listens on ({@code port} 0: any free one), the jobs that run at once and the
 * ended ones it remembers, the token every request must carry ({@link Access}; null: 256 random bits), the largest
 * request body it reads ({@link JsonBody}), the most its results may take in the data folder ({@link Results}; 0:
 * no limit), how long a connection may wait for a request's head, or between two reads of its body, before it is
 * closed ({@link ConnectionGuard}), and the most connections open at once ({@link Connections}).
 */
public record ServiceOptions(
        String host,
        int port,
        int maxJobs,
        int keepJobs,
        @Nullable String token,
        long maxBodyBytes,
        long maxResultsBytes,
        Duration idleTimeout,
        int maxConnections) {

    /** The largest request body read unless told: 1 MiB, far more than a job request of many steps takes. */
    static final long MAX_BODY_BYTES = 1 << 20;

    /** The most the results may take unless told: 10 GiB. */
    static final long MAX_RESULTS_BYTES = 10L << 30;

    /**
     * How long a connection waits for a request's head unless told: 30 s, far longer than a head takes to arrive on
     * any network, and short enough that connections which send nothing do not pile up.
     */
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

    /**
     * The most connections open at once unless told: 512, half the 1,024 descriptors of a default {@code ulimit -n},
     * so that the jobs' files always have descriptors left; far more than the clients of one data folder hold.
     */
    static final int MAX_CONNECTIONS = 512;

    public ServiceOptions {
        if (maxJobs < 1) {
            throw new IllegalArgumentException("--max-jobs must be at least 1, got " + maxJobs);
        }
        if (keepJobs < 1) {
            throw new IllegalArgumentException("--keep-jobs must be at least 1, got " + keepJobs);
        }
        token = token == null ? Secrets.token() : Access.checkToken(token);
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("--max-body must be at least 1 byte, got " + maxBodyBytes);
        }
        if (maxResultsBytes < 0) {
            throw new IllegalArgumentException(
                    "--max-results-mb must be 0 (no limit) or more, got " + (maxResultsBytes >> 20));
        }
        if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("the idle timeout must be positive, got " + idleTimeout);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("the most connections must be at least 1, got " + maxConnections);
        }
    }

    /**
     * These options with connections closed after {@link #IDLE_TIMEOUT} without a request, and at most
     * {@link #MAX_CONNECTIONS} open.
     *
     * @param host the address to listen on
     * @param port the port (0: any free one)
     * @param maxJobs the jobs that run at once
     * @param keepJobs the ended jobs remembered
     * @param token the token (null: 256 random bits)
     * @param maxBodyBytes the largest request body read
     * @param maxResultsBytes the most the results may take (0: no limit)
     */
    public ServiceOptions(
            String host,
            int port,
            int maxJobs,
            int keepJobs,
            @Nullable String token,
            long maxBodyBytes,
            long maxResultsBytes) {
        this(host, port, maxJobs, keepJobs, token, maxBodyBytes, maxResultsBytes, IDLE_TIMEOUT, MAX_CONNECTIONS);
    }

    /** Loopback, any free port, 2 jobs at once, 1000 remembered, a random token, bodies of 1 MiB, 10 GiB of results. */
    static ServiceOptions defaults() {
        return new ServiceOptions("127.0.0.1", 0, 2, 1000, null, MAX_BODY_BYTES, MAX_RESULTS_BYTES);
    }

    ServiceOptions withMaxJobs(int n) {
        return new ServiceOptions(
                host, port, n, keepJobs, token, maxBodyBytes, maxResultsBytes, idleTimeout, maxConnections);
    }

    ServiceOptions withKeepJobs(int n) {
        return new ServiceOptions(
                host, port, maxJobs, n, token, maxBodyBytes, maxResultsBytes, idleTimeout, maxConnections);
    }

    ServiceOptions withMaxResultsBytes(long n) {
        return new ServiceOptions(host, port, maxJobs, keepJobs, token, maxBodyBytes, n, idleTimeout, maxConnections);
    }

    ServiceOptions withIdleTimeout(Duration timeout) {
        return new ServiceOptions(
                host, port, maxJobs, keepJobs, token, maxBodyBytes, maxResultsBytes, timeout, maxConnections);
    }

    ServiceOptions withMaxConnections(int n) {
        return new ServiceOptions(host, port, maxJobs, keepJobs, token, maxBodyBytes, maxResultsBytes, idleTimeout, n);
    }

    ServiceOptions withToken(String t) {
        return new ServiceOptions(
                host, port, maxJobs, keepJobs, t, maxBodyBytes, maxResultsBytes, idleTimeout, maxConnections);
    }
}
