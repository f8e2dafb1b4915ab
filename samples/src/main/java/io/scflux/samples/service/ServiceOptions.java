package io.scflux.samples.service;

/**
 * How a service runs: the address it listens on ({@code port} 0: any free one), the jobs that run at once and the
 * ended ones it remembers, the token every request must carry ({@link Access}; null: 256 random bits), the largest
 * request body it reads ({@link JsonBody}) and the most its results may take in the data folder ({@link Results}; 0:
 * no limit).
 */
public record ServiceOptions(String host, int port, int maxJobs, int keepJobs, String token, long maxBodyBytes,
                      long maxResultsBytes) {

    /** The largest request body read unless told: 1 MiB, far more than a job request of many steps takes. */
    static final long MAX_BODY_BYTES = 1 << 20;

    /** The most the results may take unless told: 10 GiB. */
    static final long MAX_RESULTS_BYTES = 10L << 30;

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
            throw new IllegalArgumentException("--max-results-mb must be 0 (no limit) or more, got "
                    + (maxResultsBytes >> 20));
        }
    }

    /** Loopback, any free port, 2 jobs at once, 1000 remembered, a random token, bodies of 1 MiB, 10 GiB of results. */
    static ServiceOptions defaults() {
        return new ServiceOptions("127.0.0.1", 0, 2, 1000, null, MAX_BODY_BYTES, MAX_RESULTS_BYTES);
    }

    ServiceOptions withMaxJobs(int n) {
        return new ServiceOptions(host, port, n, keepJobs, token, maxBodyBytes, maxResultsBytes);
    }

    ServiceOptions withKeepJobs(int n) {
        return new ServiceOptions(host, port, maxJobs, n, token, maxBodyBytes, maxResultsBytes);
    }

    ServiceOptions withMaxResultsBytes(long n) {
        return new ServiceOptions(host, port, maxJobs, keepJobs, token, maxBodyBytes, n);
    }
}
