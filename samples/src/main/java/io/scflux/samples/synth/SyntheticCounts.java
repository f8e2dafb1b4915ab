/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.synth;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * Realistic single-cell counts made on demand, as a {@link BlockSource} that never holds the matrix: negative
 * binomial counts with cell-type gene programs, donor effects, per-cell library sizes and 13 {@code MT-} genes.
 * Each row depends only on the seed and the row, so blocks come out the same whatever the plan, order or threads.
 *
 * <p>{@link #anndata()} wraps the counts as anndata would hold them: obs {@code sample} (D01...) and
 * {@code cell_type} (T01...) categoricals indexed by unique 16-letter barcodes, var {@code gene_ids}.
 */
public final class SyntheticCounts implements BlockSource {

    private final CountModel model;
    private final Map<PlanTarget, BlockPlan> plans = new ConcurrentHashMap<>();

    public SyntheticCounts(SynthSpec spec) {
        this.model = new CountModel(spec);
    }

    public SynthSpec spec() {
        return model.spec;
    }

    @Override
    public long nRows() {
        return model.spec.cells();
    }

    @Override
    public int nCols() {
        return model.spec.genes();
    }

    /** Counts are whole numbers stored as float32, as in anndata files of raw counts. */
    @Override
    public DType dtype() {
        return DType.FLOAT32;
    }

    @Override
    public String describe() {
        return "synthetic counts [" + nRows() + " x " + nCols() + ", seed " + model.spec.seed() + "]";
    }

    /**
     * The plan, computed once per target. Counting a row costs about its nonzeros, so rows are counted in parallel
     * windows (each row's count depends only on the seed and the row) and fed to the builder in order.
     */
    @Override
    public BlockPlan plan(PlanTarget target) {
        return plans.computeIfAbsent(target, t -> {
            BlockPlan.Builder b = BlockPlan.builder(t);
            int piece = 1 << 14;
            int[] counts = new int[(int) Math.min(nRows(), (long) piece * 64)];
            for (long from = 0; from < nRows(); from += counts.length) {
                long start = from;
                int n = (int) Math.min(counts.length, nRows() - from);
                IntStream.range(0, (n + piece - 1) / piece).parallel().forEach(k -> {
                    int[] part = new int[Math.min(piece, n - k * piece)];
                    rowNnz(start + (long) k * piece, part.length, part);
                    System.arraycopy(part, 0, counts, k * piece, part.length);
                });
                for (int i = 0; i < n; i++) {
                    b.addRow(counts[i]);
                }
            }
            return b.build();
        });
    }

    /** Draws each row's nonzero genes, not its counts: about the cost of the nonzeros, not of the genes. */
    @Override
    public void rowNnz(long rowFrom, int count, int[] out) {
        RowSampler sampler = new RowSampler(model);
        for (int i = 0; i < count; i++) {
            out[i] = sampler.select(rowFrom + i);
        }
    }

    @Override
    public RowReader open() {
        return new RowReader() {
            @Override
            public RowBlock read(int blockIndex, long from, long to) {
                return block(blockIndex, from, to);
            }

            @Override
            public void close() {}
        };
    }

    private RowBlock block(int blockIndex, long from, long to) {
        RowSampler sampler = new RowSampler(model);
        int rows = Math.toIntExact(to - from);
        int[] indptr = new int[rows + 1];
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8, rows * (long) Math.ceil(1.5 * model.spec.nnzPerCell()));
        int[] indices = new int[capacity];
        float[] values = new float[capacity];
        int nnz = 0;
        for (int i = 0; i < rows; i++) {
            int n = sampler.select(from + i);
            if (nnz + n > indices.length) {
                int grown = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(nnz + (long) n, indices.length * 3L / 2));
                indices = Arrays.copyOf(indices, grown);
                values = Arrays.copyOf(values, grown);
            }
            sampler.fill(indices, values, nnz);
            nnz += n;
            indptr[i + 1] = nnz;
        }
        return RowBlock.of(blockIndex, from, nCols(), indptr, Arrays.copyOf(indices, nnz), Arrays.copyOf(values, nnz));
    }

    /** Row {@code row}'s cell type, 0-based (obs {@code cell_type} code). */
    public int cellType(long row) {
        return model.drawCell(model.rowRandom(row)) / model.spec.donors();
    }

    /** Row {@code row}'s donor, 0-based (obs {@code sample} code). */
    public int donor(long row) {
        return model.drawCell(model.rowRandom(row)) % model.spec.donors();
    }

    /** The genes cell type {@code type} up-regulates, ascending. */
    public int[] programGenes(int type) {
        return model.program[type].clone();
    }

    /** The container anndata would read: X these counts, obs barcodes with sample and cell_type, var gene_ids. */
    public AnnData anndata() {
        int cells = model.spec.cells();
        int donors = model.spec.donors();
        String[] barcodes = new String[cells];
        int[] types = new int[cells];
        int[] samples = new int[cells];
        for (int row = 0; row < cells; row++) {
            barcodes[row] = Barcodes.of(model.spec.seed(), row);
            int cell = model.drawCell(model.rowRandom(row));
            types[row] = cell / donors;
            samples[row] = cell % donors;
        }
        Frame obs = new Frame(barcodes);
        obs.put("sample", categorical("D", donors, samples));
        obs.put("cell_type", categorical("T", model.spec.cellTypes(), types));
        Frame var = new Frame(model.geneNames.clone());
        var.put("gene_ids", ArrayColumn.of(model.geneIds.clone()));
        return new AnnData(this, obs, var);
    }

    private static CategoricalColumn categorical(String prefix, int n, int[] codes) {
        String[] names = new String[n];
        int width = Math.max(2, Integer.toString(n).length());
        for (int i = 0; i < n; i++) {
            names[i] = prefix + CountModel.pad(i + 1, width);
        }
        return new CategoricalColumn(DenseArray.of(names), codes, false, CategoricalColumn.smallestCodeType(n));
    }
}
