/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.synth;

/**
 * What a synthetic dataset looks like: cells x genes, the mean number of nonzeros per cell, donors, cell types and
 * the seed. Two specs that are equal describe the same data bit for bit.
 *
 * @param cells      rows (cells)
 * @param genes      columns (genes), 13 of them mitochondrial; at least 14
 * @param nnzPerCell target mean number of nonzeros per cell, in {@code [1, genes / 2]}
 * @param donors     donors (obs {@code sample}: D01, D02...)
 * @param cellTypes  cell types (obs {@code cell_type}: T01, T02...), each with its own up-regulated gene program
 * @param seed       everything is a function of the seed and the row
 */
public record SynthSpec(int cells, int genes, double nnzPerCell, int donors, int cellTypes, long seed) {

    /** The mitochondrial genes of every synthetic dataset (human names, as {@code --qc-var mt=MT-} expects). */
    static final String[] MT_GENES = {
        "MT-ND1", "MT-ND2", "MT-CO1", "MT-CO2", "MT-ATP8", "MT-ATP6", "MT-CO3", "MT-ND3", "MT-ND4L", "MT-ND4", "MT-ND5",
        "MT-ND6", "MT-CYB"
    };

    /** Like the reference fixtures (3000 x 2000, 400 nonzeros per cell); see {@link #defaultNnzPerCell}. */
    public static final double DEFAULT_NNZ_PER_CELL = 400;

    public static final int DEFAULT_DONORS = 6;
    public static final int DEFAULT_CELL_TYPES = 8;
    public static final long DEFAULT_SEED = 7;

    public SynthSpec {
        if (cells < 1) {
            throw new IllegalArgumentException("cells must be at least 1, got " + cells);
        }
        if (genes <= MT_GENES.length) {
            throw new IllegalArgumentException(
                    "genes must be more than the " + MT_GENES.length + " mitochondrial genes, got " + genes);
        }
        if (!(nnzPerCell >= 1 && nnzPerCell <= genes / 2.0)) {
            throw new IllegalArgumentException(
                    "nnz per cell must be in [1, genes / 2 = " + genes / 2.0 + "], got " + nnzPerCell);
        }
        if (donors < 1) {
            throw new IllegalArgumentException("donors must be at least 1, got " + donors);
        }
        if (cellTypes < 1 || cellTypes > genes - MT_GENES.length) {
            throw new IllegalArgumentException("cell types must be in [1, " + (genes - MT_GENES.length)
                    + "] (one program gene each at least), got " + cellTypes);
        }
    }

    /** {@code cells x genes} with the default nonzeros per cell, donors, cell types and seed. */
    public static SynthSpec of(int cells, int genes) {
        return new SynthSpec(
                cells,
                genes,
                defaultNnzPerCell(genes),
                DEFAULT_DONORS,
                Math.min(DEFAULT_CELL_TYPES, genes - MT_GENES.length),
                DEFAULT_SEED);
    }

    /** {@value #DEFAULT_NNZ_PER_CELL}, or a fifth of the genes when that is fewer (the fixtures' density). */
    public static double defaultNnzPerCell(int genes) {
        return Math.max(1, Math.min(DEFAULT_NNZ_PER_CELL, genes / 5));
    }

    public SynthSpec withNnzPerCell(double k) {
        return new SynthSpec(cells, genes, k, donors, cellTypes, seed);
    }

    public SynthSpec withDonors(int d) {
        return new SynthSpec(cells, genes, nnzPerCell, d, cellTypes, seed);
    }

    public SynthSpec withCellTypes(int t) {
        return new SynthSpec(cells, genes, nnzPerCell, donors, t, seed);
    }

    public SynthSpec withSeed(long s) {
        return new SynthSpec(cells, genes, nnzPerCell, donors, cellTypes, s);
    }
}
