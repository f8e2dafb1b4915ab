/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.backend.Streaming;
import io.scflux.ops.FilterOptions;
import io.scflux.ops.HighlyVariableGenesOptions;
import io.scflux.ops.Log1pOptions;
import io.scflux.ops.NormalizeTotalOptions;
import io.scflux.ops.PcaOptions;
import io.scflux.ops.Pp;
import io.scflux.ops.PseudobulkOptions;
import io.scflux.ops.QcMetricsOptions;
import io.scflux.ops.RankGenesGroups;
import io.scflux.ops.RankGenesGroupsOptions;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.NullUnmarked;
import reactor.core.publisher.Mono;

/**
 * A step a service job may name, bound to its {@link Params} into the {@link Pp} call the matching CLI command makes:
 * the option records check the values, so the service and the CLI accept the same ones.
 */
@NullUnmarked // its nullness is not annotated yet: NullAway skips it
enum Step {
    FILTER_CELLS {
        @Override
        Bound bind(Params params) {
            FilterOptions options =
                    filter(params, "filter_cells", "min_counts", "min_genes", "max_counts", "max_genes");
            return (data, streaming) -> Pp.filterCells(data, options, streaming);
        }
    },
    FILTER_GENES {
        @Override
        Bound bind(Params params) {
            FilterOptions options =
                    filter(params, "filter_genes", "min_counts", "min_cells", "max_counts", "max_cells");
            return (data, streaming) -> Pp.filterGenes(data, options, streaming);
        }
    },
    QC {
        @Override
        Bound bind(Params params) {
            QcMetricsOptions options = QcMetricsOptions.defaults();
            List<Integer> ranks = params.integers("percent_top", 1); // scanpy's default: 50, 100, 200, 500
            QcMetricsOptions chosen = ranks == null ? options : options.withPercentTop(ranks.toArray(Integer[]::new));
            return (data, streaming) -> Pp.calculateQcMetrics(data, chosen, streaming);
        }
    },
    NORMALIZE {
        @Override
        Bound bind(Params params) {
            NormalizeTotalOptions options =
                    NormalizeTotalOptions.defaults().withTargetSum(params.positive("target_sum"));
            return (data, streaming) -> Pp.normalizeTotal(data, options, streaming);
        }
    },
    LOG1P {
        @Override
        Bound bind(Params params) {
            return (data, streaming) -> Pp.log1p(data, Log1pOptions.defaults(), streaming);
        }
    },
    HVG {
        @Override
        Bound bind(Params params) {
            HighlyVariableGenesOptions options = HighlyVariableGenesOptions.defaults();
            String flavor = params.text("flavor");
            if (flavor != null) {
                options = options.withFlavor(option("flavor", () -> HighlyVariableGenesOptions.Flavor.of(flavor)));
            }
            Integer n = params.integer("n_top_genes", 1);
            if (n != null) {
                options = options.withNTopGenes(n);
            }
            HighlyVariableGenesOptions chosen = options;
            return (data, streaming) -> Pp.highlyVariableGenes(data, chosen, streaming);
        }
    },
    PCA {
        @Override
        Bound bind(Params params) {
            Integer n = params.integer("n_comps", 1);
            PcaOptions options =
                    n == null ? PcaOptions.defaults() : PcaOptions.defaults().withNComps(n);
            return sized((data, streaming) -> Pp.pca(data, options, streaming), (size, input) -> size.withPca(n));
        }
    },
    PSEUDOBULK {
        @Override
        Bound bind(Params params) {
            String sample = params.requiredText("sample_col", "pseudobulk");
            String groups = params.requiredText("groups_col", "pseudobulk");
            PseudobulkOptions options = option("groups_col", () -> PseudobulkOptions.of(sample, groups));
            String mode = params.text("mode");
            PseudobulkOptions chosen = mode == null
                    ? options
                    : options.withMode(
                            option("mode", () -> PseudobulkOptions.Mode.valueOf(mode.toUpperCase(Locale.ROOT))));
            return sized(
                    (data, streaming) -> Pp.pseudobulk(data, chosen, streaming),
                    (size, input) -> size.asPseudobulk(input, sample, groups));
        }
    },
    RANK_GENES_GROUPS {
        @Override
        Bound bind(Params params) {
            String groupby = params.requiredText("groupby", "rank_genes_groups");
            RankGenesGroupsOptions options = RankGenesGroupsOptions.of(groupby);
            String method = params.text("method");
            if (method != null) {
                options = options.withMethod(option("method", () -> RankGenesGroupsOptions.Method.of(method)));
            }
            String reference = params.text("reference");
            if (reference != null) {
                options = options.withReference(reference);
            }
            Integer n = params.integer("n_genes", 1);
            if (n != null) {
                options = options.withNGenes(n);
            }
            RankGenesGroupsOptions chosen = options;
            return sized(
                    (data, streaming) -> RankGenesGroups.rankGenesGroups(data, chosen, streaming),
                    (size, input) -> size.withRankGenesGroups(input, groupby, n));
        }
    };

    /** A step with its options: computes on subscription, as the {@link Pp} call it makes. */
    interface Bound extends BiFunction<AnnData, Streaming, Mono<AnnData>> {

        /**
         * The estimate of this step's output, given that of its input, {@code size}, and the job's {@code input}:
         * by default at most {@link OutputEstimate#COLUMNS_PER_STEP} columns more on obs and on var.
         */
        default OutputEstimate grow(OutputEstimate size, AnnData input) {
            return size.withColumns();
        }
    }

    /** This step with its options read from {@code params}. */
    abstract Bound bind(Params params);

    /** The name a request uses: {@code qc}, {@code hvg}... */
    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The step named {@code name}, or an {@link InvalidField} for {@code field} listing the known ones. */
    static Step of(String name, String field) {
        for (Step s : values()) {
            if (s.wireName().equals(name)) {
                return s;
            }
        }
        throw new InvalidField(
                field,
                "unknown step " + name + " (known: "
                        + Arrays.stream(values()).map(Step::wireName).collect(Collectors.joining(", ")) + ")");
    }

    /**
     * The one criterion of a filter step among {@code min_counts}, the minimum of the other measure, {@code max_counts}
     * and its maximum, in that order (scanpy's parameters).
     */
    private static FilterOptions filter(
            Params params, String step, String minCounts, String minOther, String maxCounts, String maxOther) {
        String given = params.oneOf(step, minCounts, minOther, maxCounts, maxOther);
        if (given.equals(minCounts) || given.equals(maxCounts)) {
            double n = params.number(given);
            return given.equals(minCounts) ? FilterOptions.minCounts(n) : FilterOptions.maxCounts(n);
        }
        long n = params.integer(given, 0);
        return given.equals(minOther) ? FilterOptions.minGenes(n) : FilterOptions.maxGenes(n);
    }

    /** {@code run}, whose output's estimate grows as {@code grow} says rather than by columns. */
    private static Bound sized(Bound run, BiFunction<OutputEstimate, AnnData, OutputEstimate> grow) {
        return new Bound() {
            @Override
            public Mono<AnnData> apply(AnnData data, Streaming streaming) {
                return run.apply(data, streaming);
            }

            @Override
            public OutputEstimate grow(OutputEstimate size, AnnData input) {
                return grow.apply(size, input);
            }
        };
    }

    private static <T> T option(String name, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new InvalidField("params." + name, e.getMessage());
        }
    }
}
