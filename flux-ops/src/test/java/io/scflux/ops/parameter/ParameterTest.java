/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.parameter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.ops.CatalogStep;
import io.scflux.ops.StepCatalog;
import io.scflux.ops.filter.FilterOptions;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import io.scflux.ops.log1p.Log1pOptions;
import io.scflux.ops.markers.RankGenesGroupsOptions;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.pca.PcaOptions;
import io.scflux.ops.pseudobulk.PseudobulkOptions;
import io.scflux.ops.qc.QcMetricsOptions;
import io.scflux.ops.scale.ScaleOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Parameters read values as the command line gives them (strings) and as JSON does (numbers, bools, lists), check
 * them against their bounds and choices, naming themselves; the options records built from no arguments are scanpy's
 * defaults, written out here from scanpy's (decoupler's) signatures.
 */
class ParameterTest {

    @Test
    void theRecordsDefaultsAreScanpys() {
        assertEquals(
                new HighlyVariableGenesOptions(
                        HighlyVariableGenesOptions.Flavor.SEURAT,
                        0,
                        0.0125,
                        3,
                        0.5,
                        Double.POSITIVE_INFINITY,
                        20,
                        0.3,
                        null),
                HighlyVariableGenesOptions.defaults());
        assertEquals(new NormalizeTotalOptions(null, false, 0.05, null), NormalizeTotalOptions.defaults());
        assertEquals(new QcMetricsOptions(List.of(), List.of(50, 100, 200, 500), true), QcMetricsOptions.defaults());
        assertEquals(new Log1pOptions(null), Log1pOptions.defaults());
        assertEquals(new ScaleOptions(true, null), ScaleOptions.defaults());
        assertEquals(new PcaOptions(null, null, PcaOptions.Solver.AUTO, null), PcaOptions.defaults());
        assertEquals(
                new RankGenesGroupsOptions(
                        "g",
                        RankGenesGroupsOptions.Method.T_TEST,
                        null,
                        "rest",
                        null,
                        false,
                        RankGenesGroupsOptions.CorrMethod.BENJAMINI_HOCHBERG,
                        false,
                        null),
                RankGenesGroupsOptions.of("g"));
        assertEquals(new PseudobulkOptions("s", "g", PseudobulkOptions.Mode.SUM, 0, 0), PseudobulkOptions.of("s", "g"));
    }

    @Test
    void valuesAreReadFromStringsAndFromJsonValues() {
        Arguments cli = Arguments.of(Map.of("n_top_genes", "500", "flavor", "seurat_v3", "max_disp", "Infinity"));
        HighlyVariableGenesOptions o = HighlyVariableGenesOptions.from(cli);
        assertEquals(500, o.nTopGenes());
        assertEquals(HighlyVariableGenesOptions.Flavor.SEURAT_V3, o.flavor());
        assertEquals(Double.POSITIVE_INFINITY, o.maxDisp());
        Arguments json = Arguments.of(Map.of("percent_top", List.of(20L, 5), "log1p", false));
        assertEquals(new QcMetricsOptions(List.of(), List.of(5, 20), false), QcMetricsOptions.from(json));
        assertEquals(
                10_000.0,
                NormalizeTotalOptions.from(Arguments.of(Map.of("target_sum", 10_000)))
                        .targetSum());
    }

    @Test
    void aRefusedValueNamesItsParameter() {
        Map<Object, String> refused = Map.of(
                "0",
                "n_top_genes must be at least 1, got 0",
                "2.5",
                "n_top_genes must be a whole number, got 2.5",
                2.0,
                "n_top_genes must be a whole number, got 2.0",
                true,
                "n_top_genes must be a whole number, got true");
        refused.forEach((value, message) -> {
            InvalidParameterException e = assertThrows(
                    InvalidParameterException.class,
                    () -> HighlyVariableGenesOptions.from(Arguments.of(Map.of("n_top_genes", value))));
            assertEquals("n_top_genes", e.parameter());
            assertEquals(message, e.getMessage());
        });
        assertEquals(
                "target_sum must be positive, got -1",
                assertThrows(InvalidParameterException.class, () -> NormalizeTotalOptions.TARGET_SUM.parse(-1))
                        .getMessage());
        assertEquals(
                "target_sum must be finite, got Infinity",
                assertThrows(InvalidParameterException.class, () -> NormalizeTotalOptions.TARGET_SUM.parse("Infinity"))
                        .getMessage());
        assertTrue(assertThrows(InvalidParameterException.class, () -> Log1pOptions.BASE.parse(1))
                .getMessage()
                .contains("base must not be 1"));
        assertEquals(
                "method logreg is not supported: expected t-test, t-test_overestim_var, wilcoxon",
                assertThrows(InvalidParameterException.class, () -> RankGenesGroupsOptions.METHOD.parse("logreg"))
                        .getMessage());
        assertTrue(assertThrows(InvalidParameterException.class, () -> PseudobulkOptions.MODE.parse("sums"))
                .getMessage()
                .startsWith("unknown mode sums"));
        assertThrows(InvalidParameterException.class, () -> NormalizeTotalOptions.MAX_FRACTION.parse(Double.NaN));
        InvalidParameterException missing =
                assertThrows(InvalidParameterException.class, () -> PseudobulkOptions.from(Arguments.none()));
        assertEquals("sample_col", missing.parameter());
    }

    @Test
    void aFilterTakesOneCriterionAndAStepOnlyItsParameters() {
        assertEquals(FilterOptions.minGenes(5), FilterOptions.cellsFrom(Arguments.of(Map.of("min_genes", 5))));
        assertEquals(FilterOptions.maxCounts(9.5), FilterOptions.genesFrom(Arguments.of(Map.of("max_counts", "9.5"))));
        InvalidParameterException two = assertThrows(
                InvalidParameterException.class,
                () -> FilterOptions.cellsFrom(Arguments.of(Map.of("min_genes", 5, "max_genes", 9))));
        assertTrue(two.getMessage().contains("mutually exclusive"), two.getMessage());
        assertTrue(List.of("min_genes", "max_genes").contains(two.parameter()));
        assertNull(assertThrows(InvalidParameterException.class, () -> FilterOptions.genesFrom(Arguments.none()))
                .parameter());
        CatalogStep pca = StepCatalog.byFunction("pca");
        InvalidParameterException unknown =
                assertThrows(InvalidParameterException.class, () -> pca.bind(Arguments.of(Map.of("n_top_genes", 5))));
        assertEquals("n_top_genes", unknown.parameter());
        assertEquals(
                List.of(new CatalogStep.ColumnArgument(PcaOptions.MASK_VAR, "hv")),
                pca.columns(Arguments.of(Map.of("mask_var", "hv")), false));
    }
}
