/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.spark;

/**
 * The one Spark context of the test JVM (Spark allows one at a time): local mode with two cores, each task tried up
 * to four times; started by the first test that needs it and stopped when the JVM exits.
 */
final class LocalSpark {

    private static SparkEngine engine;

    private LocalSpark() {}

    static synchronized SparkEngine engine() {
        if (engine == null) {
            engine = SparkEngine.start("local[2,4]");
            Runtime.getRuntime().addShutdownHook(new Thread(engine::close));
        }
        return engine;
    }
}
