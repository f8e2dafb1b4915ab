/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.synth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

@Tag("slow")
class SyntheticCountsTest {

    private static final List<String> MT = List.of(
            "MT-ND1", "MT-ND2", "MT-CO1", "MT-CO2", "MT-ATP8", "MT-ATP6", "MT-CO3", "MT-ND3", "MT-ND4L", "MT-ND4",
            "MT-ND5", "MT-ND6", "MT-CYB");

    private static final SynthSpec SMALL = new SynthSpec(700, 300, 40, 3, 4, 11);
    /** The reference fixtures' parameters (synth-3k.h5ad: 3000 x 2000, 400 per cell, 6 donors, 8 types). */
    private static final SynthSpec FIXTURE_LIKE = new SynthSpec(3000, 2000, 400, 6, 8, 7);

    @Test
    void sameSeedGivesSameBitsWhateverThePlanOrThreads() {
        SyntheticCounts counts = new SyntheticCounts(SMALL);
        Matrix sequential = Matrix.of(counts, counts.blocks(counts.plan(new PlanTarget(1000, 64))));
        Matrix fourThreads =
                Matrix.of(counts, counts.blocks(counts.plan(new PlanTarget(1000, 64)), Execution.threads(4)));
        Matrix otherPlan =
                Matrix.of(counts, counts.blocks(counts.plan(new PlanTarget(7000, 1 << 16)), Execution.threads(4)));
        Matrix freshSource = Matrix.of(counts, new SyntheticCounts(SMALL).blocks());
        for (Matrix m : List.of(fourThreads, otherPlan, freshSource)) {
            assertArrayEquals(sequential.indptr, m.indptr);
            assertArrayEquals(sequential.indices, m.indices);
            assertArrayEquals(sequential.values, m.values);
        }
        assertTrue(counts.plan(new PlanTarget(1000, 64)).size() > 10, "the plan splits the rows");

        Matrix otherSeed = Matrix.of(counts, new SyntheticCounts(SMALL.withSeed(12)).blocks());
        assertFalse(Arrays.equals(sequential.values, otherSeed.values), "another seed gives other counts");
    }

    @Test
    void blocksReadInAnyOrderHoldTheSameRows() {
        SyntheticCounts counts = new SyntheticCounts(SMALL);
        Matrix all = Matrix.of(counts, counts.blocks());
        BlockPlan plan = counts.plan(new PlanTarget(500, 1 << 16));
        try (RowReader reader = counts.open()) {
            for (int b = plan.size() - 1; b >= 0; b--) {
                RowBlock block = reader.read(b, plan.rowStart(b), plan.rowEnd(b));
                long from = all.indptr[(int) plan.rowStart(b)];
                for (int i = 0; i < block.nnz(); i++) {
                    assertEquals(all.indices[(int) from + i], block.indices()[i]);
                    assertEquals(all.values[(int) from + i], block.values()[i]);
                }
            }
        }
    }

    @Test
    void rowNnzAgreesWithTheRows() {
        SyntheticCounts counts = new SyntheticCounts(SMALL);
        Matrix m = Matrix.of(counts, counts.blocks());
        int[] nnz = new int[SMALL.cells()];
        counts.rowNnz(0, nnz.length, nnz);
        for (int r = 0; r < nnz.length; r++) {
            assertEquals(m.indptr[r + 1] - m.indptr[r], nnz[r], "row " + r);
        }
        int[] tail = new int[5];
        counts.rowNnz(300, 5, tail);
        assertArrayEquals(Arrays.copyOfRange(nnz, 300, 305), tail);
    }

    @Test
    void parallelPlanEqualsTheRowByRowPlan() {
        SyntheticCounts counts = new SyntheticCounts(SMALL);
        for (PlanTarget t : List.of(new PlanTarget(1000, 5), new PlanTarget(50_000, 700), PlanTarget.DEFAULT)) {
            assertEquals(BlockPlan.of(counts.nRows(), counts::rowNnz, t), counts.plan(t));
        }
    }

    @Test
    void countsArePositiveIntegersWithSortedIndices() {
        SyntheticCounts counts = new SyntheticCounts(SMALL);
        assertEquals(DType.FLOAT32, counts.dtype());
        StepVerifier.create(counts.blocks(counts.plan(new PlanTarget(2000, 1 << 16))))
                .thenConsumeWhile(block -> {
                    int[] ip = block.indptr();
                    for (int r = 0; r < block.nRows(); r++) {
                        for (int j = ip[r]; j < ip[r + 1]; j++) {
                            float v = block.values()[j];
                            assertTrue(v >= 1 && v == Math.rint(v), "count " + v);
                            assertTrue(block.indices()[j] >= 0 && block.indices()[j] < SMALL.genes());
                            assertTrue(j == ip[r] || block.indices()[j] > block.indices()[j - 1], "sorted, unique");
                        }
                    }
                    return true;
                })
                .verifyComplete();
    }

    @Test
    void namesAndCategoricalsAreShapedLikeAnndatas() {
        AnnData data = new SyntheticCounts(SMALL).anndata();
        assertEquals(SMALL.cells(), data.nObs());
        assertEquals(SMALL.genes(), data.nVars());

        String[] genes = data.var().index();
        List<String> mtFound = new ArrayList<>();
        int next = 1;
        for (String g : genes) {
            if (g.startsWith("MT-")) {
                mtFound.add(g);
            } else {
                assertEquals(String.format("GENE%05d", next++), g);
            }
        }
        assertEquals(MT, mtFound);
        assertEquals(SMALL.genes() - 13 + 1, next);
        ArrayColumn ids = (ArrayColumn) data.var().column("gene_ids");
        assertEquals(DType.STRING, ids.values().dtype());
        for (int i = 0; i < genes.length; i++) {
            assertEquals(String.format("ENSG%011d", i + 1), ids.get(i));
        }

        String[] barcodes = data.obs().index();
        for (String b : barcodes) {
            assertTrue(b.matches("[ACGT]{16}-1"), b);
        }
        assertEquals(barcodes.length, new HashSet<>(Arrays.asList(barcodes)).size(), "barcodes are unique");

        CategoricalColumn sample = (CategoricalColumn) data.obs().column("sample");
        CategoricalColumn type = (CategoricalColumn) data.obs().column("cell_type");
        assertArrayEquals(
                new String[] {"D01", "D02", "D03"}, sample.categories().strings());
        assertArrayEquals(
                new String[] {"T01", "T02", "T03", "T04"}, type.categories().strings());
        assertEquals(
                List.of("sample", "cell_type"), List.copyOf(data.obs().columns().keySet()));
        assertEquals(Set.of(0, 1, 2), codes(sample), "every donor has cells");
        assertEquals(Set.of(0, 1, 2, 3), codes(type), "every type has cells");
        assertFalse(sample.ordered());
        assertEquals(DType.INT8, sample.codeType());
    }

    @Test
    void manyGenesGetWiderNumbersAndManyDonorsWiderNames() {
        List<String> names = Arrays.asList(new SyntheticCounts(new SynthSpec(3, 100_013, 10, 1, 2, 1))
                .anndata()
                .var()
                .index());
        assertTrue(names.contains("GENE000001") && names.contains("GENE100000"), "six digits");
        CategoricalColumn samples = (CategoricalColumn) new SyntheticCounts(new SynthSpec(3, 100, 10, 120, 2, 1))
                .anndata()
                .obs()
                .column("sample");
        assertEquals(
                List.of("D001", "D002"),
                Arrays.asList(samples.categories().strings()).subList(0, 2));
        assertEquals("D120", samples.categories().strings()[119]);
    }

    @Test
    void meanNonzerosPerCellIsNearTheTarget() {
        for (SynthSpec spec : List.of(FIXTURE_LIKE.withSeed(3), new SynthSpec(2000, 5000, 150, 4, 5, 9))) {
            SyntheticCounts counts = new SyntheticCounts(spec);
            double mean = (double) counts.plan().totalNnz() / spec.cells();
            assertEquals(spec.nnzPerCell(), mean, 0.05 * spec.nnzPerCell(), spec.toString());
        }
    }

    @Test
    void looksLikeTheReferenceFixture() {
        Matrix m = Matrix.of(new SyntheticCounts(FIXTURE_LIKE), new SyntheticCounts(FIXTURE_LIKE).blocks());
        // synth-3k.h5ad, read with anndata 0.8: mean count per nonzero 2.450, median cell total 858.0,
        // 59.1% of the nonzeros are 1, 13 MT genes hold 5.7% of all counts
        double sum = 0;
        int ones = 0;
        for (float v : m.values) {
            sum += v;
            ones += v == 1 ? 1 : 0;
        }
        assertEquals(2.45, sum / m.values.length, 0.3);
        double[] totals = m.rowSums();
        Arrays.sort(totals);
        assertEquals(858, totals[totals.length / 2], 0.2 * 858);
        assertEquals(0.59, (double) ones / m.values.length, 0.05);
    }

    @Test
    void mitochondrialGenesHoldAFewPercent() {
        SyntheticCounts counts = new SyntheticCounts(FIXTURE_LIKE);
        AnnData data = counts.anndata();
        Matrix m = Matrix.of(counts, counts.blocks());
        boolean[] mt = new boolean[FIXTURE_LIKE.genes()];
        for (int g = 0; g < mt.length; g++) {
            mt[g] = data.var().index()[g].startsWith("MT-");
        }
        double[] fraction = new double[FIXTURE_LIKE.cells()];
        double mtTotal = 0;
        double total = 0;
        for (int r = 0; r < fraction.length; r++) {
            double rowMt = 0;
            double row = 0;
            for (long j = m.indptr[r]; j < m.indptr[r + 1]; j++) {
                row += m.values[(int) j];
                rowMt += mt[m.indices[(int) j]] ? m.values[(int) j] : 0;
            }
            fraction[r] = rowMt / row;
            mtTotal += rowMt;
            total += row;
        }
        Arrays.sort(fraction);
        assertEquals(0.05, mtTotal / total, 0.025);
        assertEquals(0.05, fraction[fraction.length / 2], 0.025);
        assertTrue(fraction[fraction.length * 9 / 10] > 1.3 * fraction[fraction.length / 10], "MT share varies");
    }

    @Test
    void countsAreOverdispersed() {
        SyntheticCounts counts = new SyntheticCounts(FIXTURE_LIKE);
        double[][] dense = Matrix.of(counts, counts.blocks()).dense(FIXTURE_LIKE.genes());
        int tested = 0;
        int overdispersed = 0;
        for (int g = 0; g < FIXTURE_LIKE.genes(); g++) {
            double mean = 0;
            for (double[] row : dense) {
                mean += row[g] / dense.length;
            }
            if (mean < 1) {
                continue;
            }
            double var = 0;
            for (double[] row : dense) {
                var += (row[g] - mean) * (row[g] - mean) / (dense.length - 1);
            }
            tested++;
            overdispersed += var > 1.2 * mean ? 1 : 0;
        }
        assertTrue(tested > 50, "genes with mean >= 1: " + tested);
        assertTrue(overdispersed >= 0.95 * tested, overdispersed + " of " + tested + " overdispersed");
    }

    @Test
    void eachCellTypeUpregulatesItsProgram() {
        SyntheticCounts counts = new SyntheticCounts(FIXTURE_LIKE);
        CategoricalColumn type = (CategoricalColumn) counts.anndata().obs().column("cell_type");
        double[][] dense = Matrix.of(counts, counts.blocks()).dense(FIXTURE_LIKE.genes());
        Set<Integer> seen = new HashSet<>();
        for (int t = 0; t < FIXTURE_LIKE.cellTypes(); t++) {
            int[] program = counts.programGenes(t);
            assertTrue(program.length >= 50, "program of type " + t + ": " + program.length + " genes");
            int higher = 0;
            for (int g : program) {
                assertTrue(seen.add(g), "programs are disjoint");
                double in = 0;
                double out = 0;
                int nIn = 0;
                for (int r = 0; r < dense.length; r++) {
                    if (type.codes()[r] == t) {
                        in += dense[r][g];
                        nIn++;
                    } else {
                        out += dense[r][g];
                    }
                }
                higher += in / nIn > 2 * out / (dense.length - nIn) ? 1 : 0;
            }
            assertTrue(
                    higher >= 0.8 * program.length,
                    "type " + t + ": " + higher + " of " + program.length
                            + " program genes over twice as high as elsewhere");
        }
    }

    @Test
    void rejectsSpecsItCannotMake() {
        assertThrows(IllegalArgumentException.class, () -> new SynthSpec(0, 100, 10, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new SynthSpec(10, 13, 1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new SynthSpec(10, 100, 51, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new SynthSpec(10, 100, 10, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new SynthSpec(10, 100, 10, 1, 88, 1));
    }

    private static Set<Integer> codes(CategoricalColumn c) {
        Set<Integer> s = new HashSet<>();
        for (int code : c.codes()) {
            s.add(code);
        }
        return s;
    }

    /** All blocks of a flux laid end to end as one CSR matrix, checking that they arrive in row order. */
    private static final class Matrix {
        final long[] indptr;
        final int[] indices;
        final float[] values;

        private Matrix(long[] indptr, int[] indices, float[] values) {
            this.indptr = indptr;
            this.indices = indices;
            this.values = values;
        }

        static Matrix of(SyntheticCounts source, Flux<RowBlock> blocks) {
            List<RowBlock> list = blocks.collectList().block();
            long[] indptr = new long[(int) source.nRows() + 1];
            int nnz = list.stream().mapToInt(RowBlock::nnz).sum();
            int[] indices = new int[nnz];
            float[] values = new float[nnz];
            int row = 0;
            int at = 0;
            for (int b = 0; b < list.size(); b++) {
                RowBlock block = list.get(b);
                assertEquals(b, block.blockIndex());
                assertEquals(row, block.rowStart());
                for (int r = 0; r < block.nRows(); r++) {
                    indptr[row + r + 1] = at + block.indptr()[r + 1];
                }
                System.arraycopy(block.indices(), 0, indices, at, block.nnz());
                System.arraycopy(block.values(), 0, values, at, block.nnz());
                row += block.nRows();
                at += block.nnz();
            }
            assertEquals(source.nRows(), row);
            return new Matrix(indptr, indices, values);
        }

        double[] rowSums() {
            double[] s = new double[indptr.length - 1];
            for (int r = 0; r < s.length; r++) {
                for (long j = indptr[r]; j < indptr[r + 1]; j++) {
                    s[r] += values[(int) j];
                }
            }
            return s;
        }

        double[][] dense(int cols) {
            double[][] d = new double[indptr.length - 1][cols];
            for (int r = 0; r < d.length; r++) {
                for (long j = indptr[r]; j < indptr[r + 1]; j++) {
                    d[r][indices[(int) j]] = values[(int) j];
                }
            }
            return d;
        }
    }
}
