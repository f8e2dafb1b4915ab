/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.provider.Arguments;

/** The cartesian product of configuration axes, as Caffeine drives its cache tests. */
public final class Scenario {

    private Scenario() {}

    /** Every combination of block size, threads and emission. */
    public static List<Arguments> blockSizesByThreadsByEmission() {
        List<Arguments> all = new ArrayList<>();
        for (BlockSize b : BlockSize.values()) {
            for (Threads t : Threads.values()) {
                for (Emission e : Emission.values()) {
                    all.add(Arguments.of(b, t, e));
                }
            }
        }
        return all;
    }
}
