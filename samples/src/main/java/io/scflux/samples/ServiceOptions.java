package io.scflux.samples;

/**
 * How a service runs: the address it listens on ({@code port} 0: any free one), the jobs that run at once and the
 * ended ones it remembers, the token every request must carry ({@link Access}) and the largest request body it reads
 * ({@link JsonBody}).
 */
record ServiceOptions(String host, int port, int maxJobs, int keepJobs, String token, long maxBodyBytes) {

    /** The largest request body read unless told: 1 MiB, a thousand times a job request with many steps. */
    static final long MAX_BODY_BYTES = 1 << 20;

    ServiceOptions {
        if (maxJobs < 1) {
            throw new IllegalArgumentException("--max-jobs must be at least 1, got " + maxJobs);
        }
        if (keepJobs < 1) {
            throw new IllegalArgumentException("--keep-jobs must be at least 1, got " + keepJobs);
        }
        Access.checkToken(token);
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("--max-body must be at least 1 byte, got " + maxBodyBytes);
        }
    }

    /** Loopback, any free port, 2 jobs at once, 1000 remembered, a random token, bodies of 1 MiB. */
    static ServiceOptions defaults() {
        return new ServiceOptions("127.0.0.1", 0, 2, 1000, Secrets.token(), MAX_BODY_BYTES);
    }

    ServiceOptions withMaxJobs(int n) {
        return new ServiceOptions(host, port, n, keepJobs, token, maxBodyBytes);
    }

    ServiceOptions withKeepJobs(int n) {
        return new ServiceOptions(host, port, maxJobs, n, token, maxBodyBytes);
    }

    ServiceOptions withToken(String t) {
        return new ServiceOptions(host, port, maxJobs, keepJobs, t, maxBodyBytes);
    }

    ServiceOptions withMaxBodyBytes(long n) {
        return new ServiceOptions(host, port, maxJobs, keepJobs, token, n);
    }
}
