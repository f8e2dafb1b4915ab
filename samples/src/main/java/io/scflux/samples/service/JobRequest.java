/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.scflux.core.Settings;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.CellRangerOptions;
import io.scflux.io.H5ad;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.StepCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A checked {@code POST /jobs} body: an input {@code .h5ad} (or Cell Ranger {@code .h5}), a dataset of the data
 * folder ({@code files} holds its real path, what the job reads), and the steps bound to their parameters; a step is a
 * name, or {@code {"step": NAME, "params": {...}}} with params of its own (two filters in one job each take their
 * criterion). Instead of {@code input}, {@code inputs} names two or more datasets, which the first step, one that
 * combines containers (concat), makes one of. Reading it touches the file system (the inputs must exist), so it runs
 * off the event loop.
 *
 * @param inputs    the datasets' names in the data folder, in order
 * @param files     their real paths
 * @param folder    the data folder
 * @param combine   the first step when it combines the inputs, else null (then there is one input)
 * @param stepNames every step's name, the combining one included
 * @param steps     the steps applied to the one container, in order
 */
record JobRequest(
        List<String> inputs,
        List<Path> files,
        DataFolder folder,
        CatalogStep.@Nullable Combined combine,
        List<String> stepNames,
        List<Step.Bound> steps) {

    /**
     * The most steps a job may have: ten times the longest pipeline of the catalog's eleven steps, so no real job meets
     * it, while each step is at least a view over X that every read goes through, and often a pass over X: a job of
     * thousands is a mistake or an attack (5,000 overflowed the stack of the thread that ran them). 100 steps with
     * their own params take a few KB of JSON, far under --max-body, so the cap, not the body's size, bounds a job.
     */
    static final int MAX_STEPS = 100;

    /** The most inputs a job may combine: each is an open file and a re-index per block. */
    static final int MAX_INPUTS = 100;

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
        List<String> inputs = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        readInputs(root, folder, inputs, files);
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
        CatalogStep.Combined combine = null;
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
            CatalogStep named = Step.named(entry.textValue(), field);
            names.add(Step.wireName(named));
            if (named.combines()) {
                if (i > 0) {
                    throw new InvalidField(
                            field, Step.wireName(named) + " combines the job's inputs: it can only be the first step");
                }
                if (inputs.size() < 2) {
                    throw new InvalidField(
                            "inputs", Step.wireName(named) + " combines two or more inputs: give them as inputs");
                }
                combine = Step.readCombining(named, stepParams);
            } else {
                read.add(Step.read(named, stepParams));
            }
        }
        if (inputs.size() > 1 && combine == null) {
            throw new InvalidField(
                    "inputs",
                    "a job of " + inputs.size() + " inputs starts with a step that combines them ("
                            + StepCatalog.steps().stream()
                                    .filter(CatalogStep::combines)
                                    .map(Step::wireName)
                                    .collect(Collectors.joining(", "))
                            + ")");
        }
        params.checkAllRead();
        for (Params p : own) {
            p.checkAllRead();
        }
        checkColumns(files, folder.settings(), inputs, combine, read);
        return new JobRequest(
                List.copyOf(inputs),
                List.copyOf(files),
                folder,
                combine,
                List.copyOf(names),
                read.stream().map(Step::bound).toList());
    }

    /** Reads {@code input} (one dataset) or {@code inputs} (two or more) of {@code root} into the lists. */
    private static void readInputs(JsonNode root, DataFolder folder, List<String> inputs, List<Path> files) {
        JsonNode several = root.get("inputs");
        if (several == null || several.isNull()) {
            readInput(root.path("input"), "input", folder, inputs, files);
            return;
        }
        if (root.has("input")) {
            throw new InvalidField("inputs", "give input (one dataset) or inputs (several), not both");
        }
        if (!several.isArray() || several.size() < 2) {
            throw new InvalidField("inputs", "inputs must be an array of two or more dataset names");
        }
        if (several.size() > MAX_INPUTS) {
            throw new InvalidField("inputs", "a job has at most " + MAX_INPUTS + " inputs, got " + several.size());
        }
        for (int i = 0; i < several.size(); i++) {
            readInput(several.get(i), "inputs[" + i + "]", folder, inputs, files);
        }
    }

    /** Reads the dataset named by {@code name} (the request's {@code field}) into the lists. */
    private static void readInput(
            JsonNode name, String field, DataFolder folder, List<String> inputs, List<Path> files) {
        String input = name.isTextual() ? name.textValue() : null;
        files.add(folder.dataset(input, field));
        inputs.add(Objects.requireNonNull(input)); // dataset refuses a missing name
    }

    /** The first input's name in the data folder, which names the output. */
    String input() {
        return inputs.get(0);
    }

    /**
     * The job's one container, made of its inputs {@code opened} (one per file, in order): the input itself, or what
     * the combining step makes of them.
     */
    AnnData container(List<AnnData> opened) {
        return combine == null ? opened.get(0) : combine.apply(opened);
    }

    /**
     * Refuses a column parameter naming a column that neither the input {@code file} nor an earlier step of
     * {@code steps} has (hvg's highly_variable, normalize's key_added), as an {@link InvalidField} naming the
     * parameter. Reads the input's annotations only when some parameter names a column.
     */
    private static void checkColumns(
            List<Path> files,
            Settings settings,
            List<String> inputs,
            CatalogStep.@Nullable Combined combine,
            List<Step> steps) {
        if (steps.stream()
                .allMatch(s -> s.step().columns(s.arguments(), true).isEmpty()
                        && s.step().columns(s.arguments(), false).isEmpty())) {
            return;
        }
        List<AnnData> read = files.stream()
                .map(f -> H5ad.read(f, CellRangerOptions.defaults(), settings))
                .toList();
        AnnData data = combine == null ? read.get(0) : combine.apply(read);
        String input = String.join(", ", inputs);
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

    /**
     * The job's output in the data folder: {@code <input>-<id>.h5ad}, the (first) input's name without its extension.
     */
    Path output(String id) {
        String input = input();
        return folder.path().resolve(input.substring(0, input.lastIndexOf('.')) + "-" + id + ".h5ad");
    }
}
