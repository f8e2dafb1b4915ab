/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.scflux.core.BlockSource;
import io.scflux.core.PlanTarget;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Matrices;
import io.scflux.ops.Pp;
import io.scflux.ops.reference.Reference;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/**
 * {@code filter_cells} / {@code filter_genes} against scanpy's ({@code filter_obs.csv}, {@code filter_var.csv}:
 * {@code filter_cells(min_counts=359)}, {@code filter_cells(min_genes=220)}, {@code filter_genes(min_cells=52)} on
 * synth-3k), and their semantics on small matrices whose answers are worked out here.
 */
class FilterTest {

    private static final Streaming STREAMING =
            Streaming.DEFAULT.withTarget(PlanTarget.ofChunkNnz(30_000)).withThreads(3);

    @Test
    void tutorialFiltersSelectScanpysCellsAndGenesWithItsColumns() {
        AnnData counts = Reference.counts();
        AnnData out = Pp.filterCells(counts, FilterOptions.minCounts(359), STREAMING)
                .flatMap(a -> Pp.filterCells(a, FilterOptions.minGenes(220), STREAMING))
                .flatMap(a -> Pp.filterGenes(a, FilterOptions.minCells(52), STREAMING))
                .block();
        Reference.Table obs = Reference.csv("filter_obs");
        Reference.Table var = Reference.csv("filter_var");
        assertEquals(2833, out.nObs());
        assertEquals(1801, out.nVars());
        assertArrayEquals(obs.rowNames(), out.obs().index());
        assertArrayEquals(var.rowNames(), out.var().index());
        assertEquals("float32", out.obs().column("n_counts").typeName());
        assertEquals("int64", out.obs().column("n_genes").typeName());
        assertEquals("int64", out.var().column("n_cells").typeName());
        assertColumn(obs.doubles("n_counts"), out.obs(), "n_counts");
        assertColumn(obs.doubles("n_genes"), out.obs(), "n_genes");
        assertColumn(var.doubles("n_cells"), out.var(), "n_cells");
        // the counts of the kept cells and genes, selected here by name from the whole matrix
        Matrices.assertSame(select(counts, out.obs().index(), out.var().index()), collect(out.x()));
    }

    @Test
    void countsPositiveValuesAndKeepsBothEndsOfTheThreshold() {
        CsrMatrix x = CsrMatrix.builder(3)
                .addRow(new int[] {0, 1, 2}, new float[] {2, 0, 1}) // a stored zero is not expressed
                .addRow(new int[] {1}, new float[] {3})
                .addRow(new int[0], new float[0]) // an empty cell
                .addRow(new int[] {0, 2}, new float[] {-1, 4}) // a negative value is not expressed
                .build();
        AnnData data = AnnData.of(x);
        AnnData minGenes =
                Pp.filterCells(data, FilterOptions.minGenes(2), STREAMING).block();
        assertArrayEquals(new String[] {"0"}, minGenes.obs().index());
        AnnData maxGenes =
                Pp.filterCells(data, FilterOptions.maxGenes(1), STREAMING).block();
        assertArrayEquals(new String[] {"1", "2", "3"}, maxGenes.obs().index());
        assertArrayEquals(new long[] {1, 0, 1}, (long[]) values(maxGenes.obs(), "n_genes"));
        AnnData minCounts =
                Pp.filterCells(data, FilterOptions.minCounts(3), STREAMING).block();
        assertArrayEquals(new String[] {"0", "1", "3"}, minCounts.obs().index());
        assertArrayEquals(new float[] {3, 3, 3}, (float[]) values(minCounts.obs(), "n_counts"));
        AnnData genes =
                Pp.filterGenes(data, FilterOptions.maxCounts(3), STREAMING).block();
        assertArrayEquals(new String[] {"0", "1"}, genes.var().index());
        assertArrayEquals(new float[] {1, 3}, (float[]) values(genes.var(), "n_counts"));
        AnnData cells =
                Pp.filterGenes(data, FilterOptions.minCells(2), STREAMING).block();
        assertArrayEquals(new String[] {"2"}, cells.var().index());
        assertArrayEquals(new long[] {2}, (long[]) values(cells.var(), "n_cells"));
    }

    @Test
    void selectsLazilyWithEveryAxisAlignedElement() {
        CsrMatrix x = Matrices.random(40, 12, 0.3, 5);
        CountingSource counted = CountingSource.of(x);
        AnnData data = AnnData.of(counted);
        data.putLayer("counts", x);
        data.putObsm("X_emb", DenseArray.of(io.scflux.core.DType.FLOAT64, new double[80], 40, 2));
        data.putVarm("loadings", DenseArray.of(io.scflux.core.DType.FLOAT64, new double[24], 12, 2));
        data.obs().put("idx", ArrayColumn.of(new long[40]));
        AnnData out = Pp.filterCells(data, FilterOptions.minGenes(4), STREAMING).block();
        int readsToCount = counted.reads.get();
        int kept = out.nObs();
        assertEquals(kept, out.layers().get("counts").nRows());
        assertEquals(kept, ((DenseArray) out.obsm().get("X_emb")).shape()[0]);
        assertEquals(kept, out.obs().column("idx").size());
        assertEquals(12, ((DenseArray) out.varm().get("loadings")).shape()[0]);
        assertEquals(readsToCount, counted.reads.get(), "nothing of X is read until the result is");
        assertEquals(collect(out.layers().get("counts")).nnz(), collect(out.x()).nnz());
        assertEquals(40, data.nObs(), "the input container is left as it was");
    }

    @Test
    void isAColdMonoThatFailsOnADataFreeContainer() {
        AnnData data = AnnData.of(Matrices.random(10, 5, 0.5, 1));
        var filter = Pp.filterGenes(data, FilterOptions.minCells(3), STREAMING);
        AnnData first = filter.block();
        AnnData second = filter.block();
        assertArrayEquals(first.var().index(), second.var().index());
        AnnData empty = new AnnData(null, Frame.ofRange(3), Frame.ofRange(2));
        StepVerifier.create(Pp.filterCells(empty, FilterOptions.minCounts(1), STREAMING))
                .expectErrorMessage("the container has no X")
                .verify(Duration.ofSeconds(10));
    }

    private static Object values(Frame frame, String column) {
        return ((ArrayColumn) frame.column(column)).values().data();
    }

    private static void assertColumn(double[] expected, Frame frame, String name) {
        ArrayColumn c = (ArrayColumn) frame.column(name);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], c.getDouble(i), name + " row " + i);
        }
    }

    private static CsrMatrix collect(BlockSource x) {
        return CsrMatrix.collect(x.blocks(x.plan()), x.nCols()).block();
    }

    /** The entries of {@code cells} x {@code genes} (by name) of {@code data}'s X, built from its rows. */
    private static CsrMatrix select(AnnData data, String[] cells, String[] genes) {
        CsrMatrix all = collect(data.x());
        Map<String, Integer> row = new HashMap<>();
        String[] names = data.obs().index();
        for (int i = 0; i < names.length; i++) {
            row.put(names[i], i);
        }
        Map<Integer, Integer> column = new HashMap<>();
        String[] allGenes = data.var().index();
        Map<String, Integer> gene = new HashMap<>();
        for (int g = 0; g < allGenes.length; g++) {
            gene.put(allGenes[g], g);
        }
        for (int j = 0; j < genes.length; j++) {
            column.put(gene.get(genes[j]), j);
        }
        CsrMatrix.Builder b = CsrMatrix.builder(genes.length);
        for (String cell : cells) {
            int r = row.get(cell);
            int[] idx = new int[(int) (all.indptr(r + 1) - all.indptr(r))];
            float[] val = new float[idx.length];
            int n = 0;
            for (long k = all.indptr(r); k < all.indptr(r + 1); k++) {
                Integer j = column.get(all.index(k));
                if (j != null) {
                    idx[n] = j;
                    val[n++] = all.value(k);
                }
            }
            b.addRow(Arrays.copyOf(idx, n), Arrays.copyOf(val, n));
        }
        return b.build();
    }
}
