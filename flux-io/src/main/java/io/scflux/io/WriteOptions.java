/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.Execution;
import io.scflux.core.InvalidOptionException;
import io.scflux.core.PlanTarget;
import io.scflux.core.Settings;
import io.scflux.core.Streaming;
import java.util.Objects;

/**
 * How an {@code .h5ad} is written: compression of the large datasets ({@code none} or {@code gzip} with a level),
 * the block plan and execution used to stream X and layers, and the settings an edge read (whether a file another
 * process holds open for writing is refused as the target of an in-place rewrite: {@link Settings#fileLocking}).
 */
public record WriteOptions(
        Compression compression, int gzipLevel, PlanTarget plan, Execution execution, Settings settings) {

    /** Filters for the large datasets (X, layers, obsm). */
    public enum Compression {
        NONE,
        GZIP
    }

    public static final WriteOptions DEFAULT =
            new WriteOptions(Compression.NONE, 4, PlanTarget.DEFAULT, Execution.sequential(), Settings.DEFAULT);

    public WriteOptions {
        Objects.requireNonNull(compression, "compression");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(execution, "execution");
        Objects.requireNonNull(settings, "settings");
        if (gzipLevel < 0 || gzipLevel > 9) {
            throw new InvalidOptionException("gzip level must be in [0, 9], got " + gzipLevel);
        }
    }

    public WriteOptions withCompression(Compression c) {
        return new WriteOptions(c, gzipLevel, plan, execution, settings);
    }

    public WriteOptions withPlan(PlanTarget p) {
        return new WriteOptions(compression, gzipLevel, p, execution, settings);
    }

    public WriteOptions withExecution(Execution e) {
        return new WriteOptions(compression, gzipLevel, plan, e, settings);
    }

    public WriteOptions withSettings(Settings s) {
        return new WriteOptions(compression, gzipLevel, plan, execution, s);
    }

    /**
     * These options writing as {@code run} streams: its block target, its execution and its settings, so that a step's
     * output is written on the blocks and workers the step read with.
     *
     * @param run the run context
     * @return the new options
     */
    public WriteOptions streamedAs(Streaming run) {
        return new WriteOptions(compression, gzipLevel, run.target(), run.execution(), run.settings());
    }
}
