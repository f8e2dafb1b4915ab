/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Raw;
import io.scflux.core.anndata.Selection;
import io.scflux.core.test.Matrices;
import io.scflux.io.H5ad;
import io.scflux.ops.hvg.HighlyVariableGenes;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import io.scflux.ops.log1p.Log1p;
import io.scflux.ops.log1p.Log1pOptions;
import io.scflux.ops.normalize.NormalizeTotal;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.normalized.NormalizedView;
import io.scflux.ops.pca.Pca;
import io.scflux.ops.pca.PcaOptions;
import io.scflux.ops.reference.Embeddings;
import io.scflux.ops.reference.Reference;
import io.scflux.ops.scale.Scale;
import io.scflux.ops.scale.ScaleOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The normalized view in the container: select without recalculation equals slicing the materialized matrix,
 * with recalculation equals normalizing the slice; HVG and PCA on the view equal them on the materialized matrix,
 * bit for bit; writing the view writes the materialized values; raw refuses it.
 */
class NormalizedViewTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Streaming STREAMING = Streaming.DEFAULT.withThreads(2);
    private static final int[] ROWS = {2999, 0, 17, 17, 1500, 42, 2000, 1999, 3};
    private static final int[] COLS = {5, 1999, 0, 700, 701, 702, 1234, 5};

    private static AnnData normalized;
    private static CsrMatrix materialized;

    @BeforeAll
    static void normalizeTheReferenceCounts() {
        normalized = Reference.counts();
        normalized = NormalizeTotal.normalize(
                        normalized, NormalizeTotalOptions.defaults().withTargetSum(1e4), STREAMING)
                .flatMap(d -> Log1p.log1p(d, Log1pOptions.defaults(), STREAMING))
                .block(WAIT);
        materialized = collect(normalized.x());
    }

    private static CsrMatrix collect(BlockSource x) {
        return CsrMatrix.collect(STREAMING.blocks(x), x.nCols()).block(WAIT);
    }

    @Test
    void subsettingKeepsTheStatisticsLikeSlicingTheNormalizedMatrix() {
        AnnData sub = normalized.subset(Selection.of(ROWS), Selection.of(COLS));
        assertTrue(sub.x() instanceof NormalizedView, "a subset of a view is a view");
        CsrMatrix expected = collect(AnnData.of(materialized)
                .subset(Selection.of(ROWS), Selection.of(COLS))
                .x());
        Matrices.assertSame(expected, collect(sub.x()));
        Matrices.assertSame(expected, collect(((NormalizedView) normalized.x()).select(ROWS, COLS, false)));
    }

    @Test
    void recalculatingEqualsNormalizingTheSlice() {
        AnnData slice = Reference.counts().subset(Selection.of(ROWS), Selection.of(COLS));
        slice = NormalizeTotal.normalize(slice, NormalizeTotalOptions.defaults().withTargetSum(1e4), STREAMING)
                .flatMap(d -> Log1p.log1p(d, Log1pOptions.defaults(), STREAMING))
                .block(WAIT);
        NormalizedView recalculated = ((NormalizedView) normalized.x()).select(ROWS, COLS, true);
        Matrices.assertSame(collect(slice.x()), collect(recalculated));
        CsrMatrix kept = collect(((NormalizedView) normalized.x()).select(ROWS, COLS, false));
        assertTrue(
                kept.value(0) != collect(recalculated).value(0) || kept.nnz() == 0,
                "recalculation changes the values (fewer genes, smaller totals)");
    }

    @Test
    void hvgAndPcaOnTheViewEqualThemOnTheMaterializedMatrix() {
        AnnData onView = copyOf(normalized);
        AnnData onMatrix =
                copyOf(normalized).setX(materialized.withDtype(normalized.x().dtype()));
        HighlyVariableGenesOptions hvg = HighlyVariableGenesOptions.defaults().withNTopGenes(500);
        PcaOptions pca = PcaOptions.defaults().withNComps(20).withUseHighlyVariable(true);
        onView = HighlyVariableGenes.highlyVariableGenes(onView, hvg, STREAMING)
                .flatMap(d -> Pca.pca(d, pca, STREAMING))
                .block(WAIT);
        onMatrix = HighlyVariableGenes.highlyVariableGenes(onMatrix, hvg, STREAMING)
                .flatMap(d -> Pca.pca(d, pca, STREAMING))
                .block(WAIT);
        for (String c : new String[] {"highly_variable", "means", "dispersions", "dispersions_norm"}) {
            assertColumnBits(onMatrix.var().column(c), onView.var().column(c), c);
        }
        assertEquals(Embeddings.xPca(onMatrix), Embeddings.xPca(onView), "X_pca bit for bit");
        assertEquals(onMatrix.varm().get("PCs"), onView.varm().get("PCs"), "PCs bit for bit");
    }

    @Test
    void scalingJoinsTheViewAndSelectsWithIt() {
        int[] genes = java.util.stream.IntStream.range(0, 2000)
                .filter(g -> g % 10 == 3)
                .toArray();
        AnnData onView = copyOf(normalized).subset(Selection.all(), Selection.of(genes));
        AnnData onMatrix = AnnData.of(collect(onView.x()).withDtype(onView.x().dtype()));
        ScaleOptions options = ScaleOptions.defaults().withMaxValue(10.0);
        onView = Scale.scale(onView, options, STREAMING).block(WAIT);
        onMatrix = Scale.scale(onMatrix, options, STREAMING).block(WAIT);
        NormalizedView scaled = (NormalizedView) onView.x();
        assertTrue(scaled.isScaled() && scaled.isDense());
        CsrMatrix viewed = collect(scaled);
        Matrices.assertSame(collect(onMatrix.x()), viewed);
        int[] rows = {5, 2999, 0};
        int[] cols = {7, 0, 199};
        Matrices.assertSame(
                collect(AnnData.of(viewed)
                        .subset(Selection.of(rows), Selection.of(cols))
                        .x()),
                collect(onView.subset(Selection.of(rows), Selection.of(cols)).x()));
        assertThrows(IllegalStateException.class, () -> scaled.select(rows, cols, true));
    }

    private static AnnData copyOf(AnnData a) {
        return a.subset(Selection.all(), Selection.all());
    }

    private static void assertColumnBits(Column expected, Column actual, String name) {
        DenseArray e = ((ArrayColumn) expected).values();
        DenseArray g = ((ArrayColumn) actual).values();
        assertEquals(e, g, name);
    }

    @Test
    void writingTheViewWritesTheNormalizedValues(@TempDir Path dir) {
        Path out = dir.resolve("normalized.h5ad");
        H5ad.write(normalized, out).block(WAIT);
        Matrices.assertSame(materialized, collect(H5ad.read(out).x()));
        @SuppressWarnings("unchecked")
        Map<String, Object> log1p = (Map<String, Object>) H5ad.read(out).uns().get("log1p");
        assertEquals(Map.of(), log1p, "uns['log1p'] with base None, as the writer leaves None out");
    }

    @Test
    void rawHoldsTheViewAsScanpysRawAssignment(@TempDir Path dir) {
        NormalizedView view = (NormalizedView) normalized.x();
        AnnData withRaw = normalized.copy().setRaw(new Raw(view, normalized.var()));
        Path out = dir.resolve("raw.h5ad");
        H5ad.write(withRaw, out).block(WAIT);
        Raw raw = H5ad.read(out).raw();
        assertNotNull(raw, "raw written");
        Matrices.assertSame(materialized, collect(raw.x()));
    }
}
