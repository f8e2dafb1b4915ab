/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import io.scflux.core.PlanTarget;

/** The block-size axis of the scenario matrix: from one row per block to everything in one block. */
public enum BlockSize {
    ONE_ROW(new PlanTarget(1, 1)),
    TINY(new PlanTarget(97, 7)),
    SMALL(new PlanTarget(5_000, 1_000)),
    DEFAULT(PlanTarget.DEFAULT);

    private final PlanTarget target;

    BlockSize(PlanTarget target) {
        this.target = target;
    }

    public PlanTarget target() {
        return target;
    }
}
