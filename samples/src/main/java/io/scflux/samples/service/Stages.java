/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The stages a job's events name: each step as it starts ({@code hvg}), then each pass over X within it, for what the
 * pass computes: the step's own name for its own pass, {@code write: qc} for a pass of another step's work (QC's
 * columns, made when the write asks for them), a number after a name already used ({@code hvg (pass 2)}). Every pass
 * has a stage of its own, so that the progress under one stage never goes back.
 */
final class Stages {

    private final Map<Integer, String> byPass = new HashMap<>();
    private final Map<String, Integer> passesNamed = new HashMap<>();
    private String step = "read";
    private @Nullable String current;

    /** The step {@code name} starts: the current stage. */
    synchronized void step(String name) {
        step = name;
        current = name;
    }

    /**
     * The stage of pass {@code pass}, which computes {@code name} (null: the current step's work); when it differs
     * from the current stage, it becomes the current one and {@code announce} receives it first.
     */
    synchronized String of(int pass, @Nullable String name, Consumer<String> announce) {
        String stage = byPass.get(pass);
        if (stage == null) {
            String base = name == null || name.equals(step) ? step : step + ": " + name;
            int n = passesNamed.merge(base, 1, Integer::sum);
            stage = n == 1 ? base : base + " (pass " + n + ")";
            byPass.put(pass, stage);
            if (!stage.equals(current)) {
                current = stage;
                announce.accept(stage);
            }
        }
        return stage;
    }
}
