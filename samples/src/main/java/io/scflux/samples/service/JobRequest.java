/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.scflux.core.anndata.AnnData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.NullUnmarked;
import org.jspecify.annotations.Nullable;

/**
 * A checked {@code POST /jobs} body: an input {@code .h5ad} (or Cell Ranger {@code .h5}), a dataset of the data
 * folder ({@code file} is its real path, what the job reads), and the steps bound to their parameters; a step is a
 * name, or {@code {"step": NAME, "params": {...}}} with params of its own (two filters in one job each take their
 * criterion). Reading it touches the file system (the input must exist), so it runs off the event loop.
 */
@NullUnmarked // its nullness is not annotated yet: NullAway skips it
record JobRequest(
        @Nullable String input, Path file, DataFolder folder, List<String> stepNames, List<Step.Bound> steps) {

    /**
     * The most steps a job may have: ten times the longest pipeline of the catalog's nine steps, so no real job meets
     * it, while each step is at least a view over X that every read goes through, and often a pass over X: a job of
     * thousands is a mistake or an attack (5,000 overflowed the stack of the thread that ran them). 100 steps with
     * their own params take a few KB of JSON, far under --max-body, so the cap, not the body's size, bounds a job.
     */
    static final int MAX_STEPS = 100;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Parses {@code body}, or throws the {@link InvalidField} naming the first field at fault. */
    static JobRequest parse(byte[] body, DataFolder folder) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new InvalidField("body", "the body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (root == null || !root.isObject()) {
            throw new InvalidField("body", "the body must be a JSON object with input, steps and params");
        }
        String input = root.path("input").isTextual() ? root.get("input").textValue() : null;
        Path file = folder.dataset(input, "input");
        JsonNode steps = root.get("steps");
        if (steps == null || !steps.isArray() || steps.isEmpty()) {
            throw new InvalidField("steps", "steps must be a non-empty array of step names");
        }
        if (steps.size() > MAX_STEPS) {
            throw new InvalidField("steps", "a job has at most " + MAX_STEPS + " steps, got " + steps.size());
        }
        Params params = new Params(root.get("params"));
        List<String> names = new ArrayList<>();
        List<Step.Bound> bound = new ArrayList<>();
        List<Params> own = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            String field = "steps[" + i + "]";
            JsonNode entry = steps.get(i);
            Params stepParams = params;
            if (entry.isObject()) {
                stepParams = params.forStep(entry.get("params"), field + ".params");
                own.add(stepParams);
                entry = entry.get("step");
                field = field + ".step";
            }
            if (entry == null || !entry.isTextual()) {
                throw new InvalidField(
                        field,
                        field + " must be a step name (or {\"step\": NAME, \"params\": " + "{...}}), got " + entry);
            }
            Step step = Step.of(entry.textValue(), field);
            names.add(step.wireName());
            bound.add(step.bind(stepParams));
        }
        params.checkAllRead();
        for (Params p : own) {
            p.checkAllRead();
        }
        return new JobRequest(input, file, folder, List.copyOf(names), List.copyOf(bound));
    }

    /**
     * The most bytes the job's output may take ({@link OutputEstimate}), from {@code input}, the input file read.
     * Touches the file system.
     */
    long estimate(AnnData input) throws IOException {
        OutputEstimate size = OutputEstimate.of(input);
        for (Step.Bound step : steps) {
            size = step.grow(size, input);
        }
        return size.bytes();
    }

    /** The job's output in the data folder: {@code <input>-<id>.h5ad}, the input's name without its extension. */
    Path output(String id) {
        return folder.path().resolve(input.substring(0, input.lastIndexOf('.')) + "-" + id + ".h5ad");
    }
}
