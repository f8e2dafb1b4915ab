/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.scflux.core.InvalidOptionException;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.StepCatalog;
import io.scflux.ops.markers.RankGenesGroupsOptions;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.InvalidParameterException;
import io.scflux.ops.pca.PcaOptions;
import io.scflux.ops.pseudobulk.PseudobulkOptions;
import io.scflux.samples.report.StepCatalogJson;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import reactor.core.publisher.Mono;

/**
 * A step a service job may name: a step of the {@link StepCatalog}, by the command line's name with {@code _} for
 * {@code -} ({@code qc}, {@code hvg}, {@code filter_cells}) or by scanpy's function name ({@code
 * highly_variable_genes}); its params, under scanpy's names, are read and checked by the catalog's parameters, so the
 * service takes every step and parameter the command line takes, and refuses the values it refuses.
 *
 * @param step      the catalog's step
 * @param arguments its values, by scanpy's names
 * @param params    the params they were read from (for the field an error names)
 * @param bound     the step's call
 */
record Step(CatalogStep step, Arguments arguments, Params params, Bound bound) {

    /** A step with its options: computes on subscription, as the call the catalog makes. */
    interface Bound extends BiFunction<AnnData, Streaming, Mono<AnnData>> {

        /**
         * The estimate of this step's output, given that of its input, {@code size}, and the job's {@code input}:
         * by default at most {@link OutputEstimate#COLUMNS_PER_STEP} columns more on obs and on var.
         */
        default OutputEstimate grow(OutputEstimate size, AnnData input) {
            return size.withColumns();
        }
    }

    /** The name a request uses for {@code step}: {@code qc}, {@code hvg}, {@code filter_cells}... */
    static String wireName(CatalogStep step) {
        return StepCatalogJson.serviceName(step);
    }

    /** The catalog's step named {@code name}, or an {@link InvalidField} for {@code field} listing the known ones. */
    static CatalogStep named(String name, String field) {
        for (CatalogStep s : StepCatalog.steps()) {
            if (wireName(s).equals(name) || s.function().equals(name)) {
                return s;
            }
        }
        throw new InvalidField(
                field,
                "unknown step " + name + " (known: "
                        + StepCatalog.steps().stream().map(Step::wireName).collect(Collectors.joining(", ")) + ")");
    }

    /**
     * {@code step}, a step that {@link CatalogStep#combines combines} the job's inputs (concat), with its values read
     * from {@code params}: checked now, refused as an {@link InvalidField}.
     */
    static CatalogStep.Combined readCombining(CatalogStep step, Params params) {
        return checked(params, () -> step.combine(params.arguments(step)));
    }

    /** {@code make}'s value, or its refusal of a parameter of {@code params} as an {@link InvalidField} naming it. */
    private static <T> T checked(Params params, Supplier<T> make) {
        try {
            return make.get();
        } catch (InvalidParameterException e) {
            throw new InvalidField(params.fieldOf(e.parameter()), e.getMessage());
        } catch (InvalidOptionException e) {
            throw new InvalidField(params.fieldOf(null), e.getMessage());
        }
    }

    /** {@code step} with its values read from {@code params}: checked now, refused as an {@link InvalidField}. */
    static Step read(CatalogStep step, Params params) {
        Arguments arguments = params.arguments(step);
        CatalogStep.Bound run = checked(params, () -> step.bind(arguments));
        BiFunction<OutputEstimate, AnnData, OutputEstimate> grow = switch (step.function()) {
            case "pca" -> (size, input) -> size.withPca(arguments.get(PcaOptions.N_COMPS));
            case "pseudobulk" ->
                (size, input) -> size.asPseudobulk(
                        input,
                        arguments.require(PseudobulkOptions.SAMPLE_COL),
                        arguments.require(PseudobulkOptions.GROUPS_COL));
            case "rank_genes_groups" ->
                (size, input) -> size.withRankGenesGroups(
                        input,
                        arguments.require(RankGenesGroupsOptions.GROUPBY),
                        arguments.get(RankGenesGroupsOptions.N_GENES));
            default -> (size, input) -> size.withColumns();
        };
        return new Step(step, arguments, params, new Bound() {
            @Override
            public Mono<AnnData> apply(AnnData data, Streaming streaming) {
                return run.apply(data, streaming);
            }

            @Override
            public OutputEstimate grow(OutputEstimate size, AnnData input) {
                return grow.apply(size, input);
            }
        });
    }
}
