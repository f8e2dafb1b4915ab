/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.values;

import io.scflux.core.BlockBuffer;
import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.InvalidValueException;
import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.PackedStrings;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Checks the values a step reads, riding along its pass (no second read): steps on raw counts (QC, normalize_total,
 * seurat_v3, pseudobulk) refuse a negative, NaN or infinite value and, as scanpy's {@code check_nonnegative_integers},
 * warn on a fractional one; steps on normalized data (the dispersion HVG flavors, PCA, scale) refuse a NaN or
 * infinite one, and rank_genes_groups warns, as scanpy, when the values look like raw counts. The first such value in
 * row order is named (cell, gene, value), the same on any thread count or engine: a reduction keeps the first finding
 * of the blocks in block order. A pass with a loop over every value of its own may check them there and keep the
 * {@link Findings} in its partial instead (QC's {@code QcPass}): the values are then read once.
 *
 * @param <A> the wrapped pass's partial
 *
 * <p>Public because every step that expects counts or finite values, each in its own package, wraps its pass in it.
 */
public final class ValueCheck<A> implements Reducer<ValueCheck.Checked<A>> {

    /** What a step expects of the values it reads. */
    public enum Expect {
        /** Raw counts: finite, not negative (whole numbers, else a warning). */
        COUNTS("raw counts, finite and not negative"),
        /** Finite values (normalized data may be negative or fractional). */
        FINITE("finite values"),
        /**
         * Finite, logarithmized values: finite values, with scanpy's warning (rank_genes_groups') when every one is a
         * whole number, not negative, as raw counts are.
         */
        LOGARITHMIZED("finite values");

        private final String description;

        Expect(String description) {
            this.description = description;
        }
    }

    private final Reducer<A> pass;
    private final Expect expect;

    private ValueCheck(Reducer<A> pass, Expect expect) {
        this.pass = pass;
        this.expect = expect;
    }

    /**
     * {@code pass} over X of {@code data} on {@code streaming}, checked for {@code expect}: an
     * {@link InvalidValueException} for a value {@code step} (scanpy's name, {@code `normalize_total`}) cannot take;
     * for counts, scanpy's warning when one is not a whole number.
     */
    public static <A> Mono<A> reduce(
            AnnData data, BlockSource x, Reducer<A> pass, String step, Expect expect, Streaming streaming) {
        return streaming
                .reduce(x, checking(pass, expect))
                .map(checked -> unwrap(data, checked, step, expect, streaming));
    }

    /** {@code pass} with its values checked for {@code expect}, for a pass made elsewhere (riding along a write). */
    static <A> Reducer<Checked<A>> checking(Reducer<A> pass, Expect expect) {
        return new ValueCheck<>(pass, expect);
    }

    /**
     * The partial of a {@link #checking} pass over X of {@code data}, once {@link #check}ed.
     */
    static <A> A unwrap(AnnData data, Checked<A> checked, String step, Expect expect, Streaming streaming) {
        check(data, checked, step, expect, streaming);
        return checked.partial;
    }

    /**
     * What {@code step} (scanpy's name, {@code `normalize_total`}) makes of {@code found} in X of {@code data}: an
     * {@link InvalidValueException} for a value it cannot take; for counts, scanpy's warning when one is not a whole
     * number; for logarithmized data, scanpy's warning when every value looked like a count.
     */
    public static void check(AnnData data, Findings found, String step, Expect expect, Streaming streaming) {
        if (found.invalid != null) {
            throw invalid(data, found.invalid, step, expect);
        }
        if (found.fraction != null) {
            streaming.warn(step + " expects raw count data, but non-integers were found (" + found.fraction.value + " "
                    + at(data, found.fraction) + ")");
        }
        if (expect == Expect.LOGARITHMIZED && !found.notCounts) {
            String name = step.replace("`", "");
            streaming.warn("It seems you use " + name + " on the raw count data. Please logarithmize your data "
                    + "before calling " + name + ".");
        }
    }

    /** A pass whose values are checked on the way: what a step hands the solver that makes X's first pass. */
    public interface Pass {
        <A> Mono<A> reduce(BlockSource x, Reducer<A> pass);
    }

    /** The checked first pass of {@code step} over X of {@code data} (obs and var those of X). */
    public static Pass pass(AnnData data, String step, Expect expect, Streaming streaming) {
        return new Pass() {
            @Override
            public <A> Mono<A> reduce(BlockSource x, Reducer<A> pass) {
                return ValueCheck.reduce(data, x, pass, step, expect, streaming);
            }
        };
    }

    /**
     * Fails with a {@link Found} when {@code block} (rows from {@code rowStart}) holds a negative, NaN or infinite
     * value: for a pass that reads blocks in order outside a reduction (pseudobulk), which turns it into the named
     * error with {@link #invalid}.
     */
    public static void requireCounts(BlockBuffer block) {
        Finding f = firstInvalid(block.indptr(), block.indices(), block.values(), block.nnz(), block.rowStart());
        if (f != null) {
            throw new Found(f);
        }
    }

    /** The error naming what {@code found} found in {@code data}'s X, which {@code step} cannot take. */
    public static InvalidValueException invalid(AnnData data, Finding found, String step, Expect expect) {
        boolean wide = data.x() != null && data.x().dtype() != DType.FLOAT32;
        String value = Float.isInfinite(found.value) && wide
                ? found.value + " (or a value too large for float32, " + "in which scflux's blocks carry values)"
                : String.valueOf(found.value);
        return new InvalidValueException(
                "X holds " + value + " " + at(data, found) + ": " + step + " expects " + expect.description);
    }

    private static String at(AnnData data, Finding f) {
        return "at cell " + name(data.obs().names(), f.row) + ", gene "
                + name(data.var().names(), f.col);
    }

    private static String name(PackedStrings names, long i) {
        return "'" + names.get(Math.toIntExact(i)) + "'";
    }

    @Override
    public Checked<A> identity() {
        return new Checked<>(pass.identity());
    }

    @Override
    public Checked<A> fold(RowBlock block) {
        return foldInto(identity(), block);
    }

    @Override
    public Checked<A> foldInto(Checked<A> acc, RowBlock block) {
        acc.scan(expect, block.indptr(), block.indices(), block.values(), 0, block.nnz(), block.rowStart());
        if (expect == Expect.LOGARITHMIZED && !acc.notCounts) {
            acc.notCounts = holdsNotCount(block.values(), block.nnz());
        }
        acc.partial = pass.foldInto(acc.partial, block);
        return acc;
    }

    @Override
    public int segmentBlocks() {
        return pass.segmentBlocks();
    }

    @Override
    public Checked<A> segmentDone(Checked<A> segment) {
        segment.partial = pass.segmentDone(segment.partial);
        return segment;
    }

    @Override
    public Checked<A> merge(Checked<A> earlier, Checked<A> later) {
        earlier.partial = pass.merge(earlier.partial, later.partial);
        earlier.merge(later);
        return earlier;
    }

    /**
     * Whether one of the {@code nnz} values is not zero and not a whole number of at least 1, as scanpy's
     * {@code check_nonnegative_integers} asks once zeros are eliminated: log data answer at their first value.
     */
    private static boolean holdsNotCount(float[] values, int nnz) {
        for (int k = 0; k < nnz; k++) {
            float v = values[k];
            if (v != 0 && !(v > 0 && v == (float) Math.rint(v))) {
                return true;
            }
        }
        return false;
    }

    /** The first entry of a block of counts that is negative, NaN or infinite, or null. */
    private static @Nullable Finding firstInvalid(int[] indptr, int[] indices, float[] values, int nnz, long rowStart) {
        for (int k = 0; k < nnz; k++) {
            float v = values[k];
            if (!(v >= 0 && v <= Float.MAX_VALUE)) {
                return at(indptr, indices, rowStart, k, v);
            }
        }
        return null;
    }

    /** Entry {@code k} of a block whose rows start at {@code rowStart}. */
    private static Finding at(int[] indptr, int[] indices, long rowStart, int k, float v) {
        int r = 0;
        while (indptr[r + 1] <= k) {
            r++;
        }
        return new Finding(rowStart + r, indices[k], v);
    }

    /**
     * The first value refused and the first fractional one of a run of blocks, in row order, if any yet, and (for
     * logarithmized data) whether a value that is no count was seen: what a pass that checks the values it reads
     * keeps beside its partial.
     */
    public static class Findings implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        @Nullable
        Finding invalid;

        @Nullable
        Finding fraction;

        boolean notCounts;

        /**
         * Records the first of entries {@code [from, to)} of a block (rows from {@code rowStart}) that {@code expect}
         * refuses and, for counts, the first fractional one; nothing once a refused value is recorded, as the blocks
         * come in row order. One comparison per value while all are fine.
         */
        public final void scan(
                Expect expect, int[] indptr, int[] indices, float[] values, int from, int to, long rowStart) {
            if (invalid != null) {
                return;
            }
            for (int k = from; k < to; k++) {
                float v = values[k];
                boolean fine = expect == Expect.COUNTS ? v >= 0 && v == (float) (long) v : Float.isFinite(v);
                if (fine) {
                    continue;
                }
                Finding f = at(indptr, indices, rowStart, k, v);
                if (expect != Expect.COUNTS || !(v >= 0 && v <= Float.MAX_VALUE)) {
                    invalid = f;
                    return;
                }
                if (fraction == null) {
                    fraction = f;
                }
            }
        }

        /** Adds the findings of the blocks after these ones. */
        public final void merge(Findings later) {
            if (invalid == null) {
                invalid = later.invalid;
            }
            if (fraction == null) {
                fraction = later.fraction;
            }
            notCounts |= later.notCounts;
        }
    }

    /** The wrapped partial and the {@link Findings} of its blocks. */
    static final class Checked<A> extends Findings {
        private static final long serialVersionUID = 1L;
        A partial;

        Checked(A partial) {
            this.partial = partial;
        }
    }

    /** A value at cell {@code row}, gene {@code col}. */
    record Finding(long row, int col, float value) implements java.io.Serializable {}

    /**
     * What {@link #requireCounts} throws, turned into the named error by the step (an illegal argument still, should
     * it reach a caller unnamed through an engine).
     */
    public static final class Found extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        public final Finding finding;

        Found(Finding finding) {
            super("X holds " + finding.value + " at cell " + finding.row + ", gene " + finding.col);
            this.finding = finding;
        }
    }
}
