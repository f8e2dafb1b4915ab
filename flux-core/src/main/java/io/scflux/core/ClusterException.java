/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

/**
 * The cluster an engine runs on could not run the work: no executor registered within the bound, or executors kept
 * failing. Its message is the cluster's own reason, for a user to act on; it is not a failure of scflux.
 */
public final class ClusterException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ClusterException(String message) {
        super(message);
    }
}
