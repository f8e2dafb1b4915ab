/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import io.scflux.core.Execution;

/** The thread axis of the scenario matrix. */
public enum Threads {
    ONE(1),
    TWO(2),
    EIGHT(8);

    private final int n;

    Threads(int n) {
        this.n = n;
    }

    public Execution execution() {
        return Execution.threads(n);
    }

    public int count() {
        return n;
    }
}
