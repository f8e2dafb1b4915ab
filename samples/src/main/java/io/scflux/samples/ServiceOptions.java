package io.scflux.samples;

/**
 * How a service runs: the address it listens on ({@code port} 0: any free one), the jobs that run at once and the
 * ended ones it remembers, and the token every request must carry ({@link Access}).
 */
record ServiceOptions(String host, int port, int maxJobs, int keepJobs, String token) {

    ServiceOptions {
        if (maxJobs < 1) {
            throw new IllegalArgumentException("--max-jobs must be at least 1, got " + maxJobs);
        }
        if (keepJobs < 1) {
            throw new IllegalArgumentException("--keep-jobs must be at least 1, got " + keepJobs);
        }
        Access.checkToken(token);
    }

    /** Loopback, any free port, 2 jobs at once, 1000 remembered, a random token. */
    static ServiceOptions defaults() {
        return new ServiceOptions("127.0.0.1", 0, 2, 1000, Secrets.token());
    }

    ServiceOptions withMaxJobs(int n) {
        return new ServiceOptions(host, port, n, keepJobs, token);
    }

    ServiceOptions withKeepJobs(int n) {
        return new ServiceOptions(host, port, maxJobs, n, token);
    }

    ServiceOptions withToken(String t) {
        return new ServiceOptions(host, port, maxJobs, keepJobs, t);
    }
}
