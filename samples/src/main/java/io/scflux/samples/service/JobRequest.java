/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.ops.CatalogStep;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
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
     * The most steps a job may have: ten times the longest pipeline of the catalog's ten steps, so no real job meets
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
        List<Step> read = new ArrayList<>();
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
            Step step = Step.read(Step.named(entry.textValue(), field), stepParams);
            names.add(Step.wireName(step.step()));
            read.add(step);
        }
        params.checkAllRead();
        for (Params p : own) {
            p.checkAllRead();
        }
        checkColumns(file, input, read);
        return new JobRequest(
                input,
                file,
                folder,
                List.copyOf(names),
                read.stream().map(Step::bound).toList());
    }

    /**
     * Refuses a column parameter naming a column that neither the input {@code file} nor an earlier step of
     * {@code steps} has (hvg's highly_variable, normalize's key_added), as an {@link InvalidField} naming the
     * parameter. Reads the input's annotations only when some parameter names a column.
     */
    private static void checkColumns(Path file, String input, List<Step> steps) {
        if (steps.stream()
                .allMatch(s -> s.step().columns(s.arguments(), true).isEmpty()
                        && s.step().columns(s.arguments(), false).isEmpty())) {
            return;
        }
        AnnData data = H5ad.read(file);
        Set<String> obs = new LinkedHashSet<>(data.obs().columns().keySet());
        Set<String> var = new LinkedHashSet<>(data.var().columns().keySet());
        for (Step s : steps) {
            for (boolean onObs : new boolean[] {true, false}) {
                Set<String> have = onObs ? obs : var;
                for (CatalogStep.ColumnArgument c : s.step().columns(s.arguments(), onObs)) {
                    if (!have.contains(c.column())) {
                        throw new InvalidField(
                                s.params().fieldOf(c.parameter().name()),
                                c.parameter().name() + ": " + input + " has no " + (onObs ? "obs" : "var") + " column "
                                        + c.column() + " (columns: " + String.join(", ", have) + ")");
                    }
                }
            }
            obs.addAll(s.step().adds(s.arguments(), true));
            var.addAll(s.step().adds(s.arguments(), false));
        }
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
