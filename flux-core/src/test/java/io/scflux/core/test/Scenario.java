package io.scflux.core.test;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.provider.Arguments;

/** The cartesian product of configuration axes, as Caffeine drives its cache tests. */
public final class Scenario {

    private Scenario() {
    }

    /** Every combination of block size and threads. */
    public static List<Arguments> blockSizesByThreads() {
        List<Arguments> all = new ArrayList<>();
        for (BlockSize b : BlockSize.values()) {
            for (Threads t : Threads.values()) {
                all.add(Arguments.of(b, t));
            }
        }
        return all;
    }
}
