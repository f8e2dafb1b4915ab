/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.normalized;

import io.scflux.core.Backend;
import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.DerivedSource;
import io.scflux.core.FoldingSource;
import io.scflux.core.HostBackend;
import io.scflux.core.Pass;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowReader;
import io.scflux.core.Stage;
import io.scflux.core.Streaming;
import io.scflux.core.SubsetSource;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The normalized matrix, never materialized: a counts source, each cell's size factor (its total over the target
 * sum, as {@code normalize_total} computes it), optionally {@code log1p} and optionally a per-gene scaling. Its
 * blocks are the counts' blocks divided by the factors (logged, scaled) as they are read, so the normalized matrix
 * costs no memory and the counts are read, or cached, once for every pass.
 *
 * <p>{@link #select} keeps the factors the view was normalized with (slicing an already normalized matrix), or
 * recomputes them on the selection ({@code normalize_total} on the subset) with the {@link SizeFactorRule} the view
 * was made with.
 */
public final class NormalizedView implements DerivedSource, java.io.Serializable {

    /** How size factors are computed from counts: {@code normalize_total}'s rule, supplied by whoever normalizes. */
    @FunctionalInterface
    public interface SizeFactorRule {
        /** Each row's factor for {@code counts}, exactly representable in the type the division runs in. */
        Mono<double[]> factors(BlockSource counts, Streaming streaming);
    }

    private final BlockSource counts;
    private final Mono<double[]> factors;
    private final SizeFactorRule rule;
    private final boolean log1p;
    private final @Nullable Double base;
    private final @Nullable ColumnScale scaling;
    private final DType dtype;
    private final Backend backend;

    private NormalizedView(
            BlockSource counts,
            Mono<double[]> factors,
            SizeFactorRule rule,
            boolean log1p,
            @Nullable Double base,
            @Nullable ColumnScale scaling,
            Backend backend) {
        if (counts instanceof DerivedSource) {
            throw new IllegalArgumentException("a normalized view reads counts, not " + counts.describe());
        }
        this.counts = counts;
        this.factors = factors;
        this.rule = rule;
        this.log1p = log1p;
        this.base = base;
        this.scaling = scaling;
        this.backend = backend;
        this.dtype = counts.dtype() == DType.FLOAT64 || scaling != null ? DType.FLOAT64 : DType.FLOAT32;
    }

    /**
     * The view of {@code counts} divided row by row by {@code factors} (one per row; a factor of 0 leaves the row as
     * it is), which {@code rule} computed and can compute again for a selection. The factors are not copied (a
     * million cells' are 8 MB): the caller hands them over and does not change them.
     */
    public static NormalizedView of(BlockSource counts, double[] factors, SizeFactorRule rule) {
        Objects.requireNonNull(rule, "rule");
        if (factors.length != counts.nRows()) {
            throw new IllegalArgumentException(factors.length + " size factors for " + counts.nRows() + " rows");
        }
        return new NormalizedView(counts, Mono.just(factors), rule, false, null, null, HostBackend.INSTANCE);
    }

    /** This view with {@code log1p} applied after the division ({@code base} null for the natural logarithm). */
    public NormalizedView withLog1p(@Nullable Double base) {
        return withLog1p(base, HostBackend.INSTANCE);
    }

    /** {@link #withLog1p(Double)} with the division and logarithm fused on {@code on}'s kernel. */
    public NormalizedView withLog1p(@Nullable Double base, Backend on) {
        if (log1p || scaling != null) {
            throw new IllegalStateException("the view is already " + (log1p ? "log-transformed" : "scaled"));
        }
        return new NormalizedView(counts, factors, rule, true, base, null, on);
    }

    /**
     * This view scaled per gene, as {@code sc.pp.scale} scales the normalized matrix (values become float64; with
     * centring every row is filled, and the view is dense).
     */
    public NormalizedView withScaling(ColumnScale columnScale) {
        if (scaling != null) {
            throw new IllegalStateException("the view is already scaled");
        }
        return new NormalizedView(counts, factors, rule, log1p, this.base, columnScale, backend);
    }

    /**
     * The rows and columns selected (positions in this view, any order, null for all). With {@code recalculate}
     * false the selection keeps this view's factors: the values equal slicing the materialized matrix. With
     * {@code recalculate} true the factors are computed on the selection (the columns selected) by the view's rule the
     * first time a block is read: the values equal normalizing the selected counts.
     */
    public NormalizedView select(int @Nullable [] rows, int @Nullable [] cols, boolean recalculate) {
        if (recalculate && scaling != null) {
            throw new IllegalStateException("a scaled view keeps its statistics; select without recalculating, or "
                    + "renormalize and scale again");
        }
        BlockSource selected = rows == null && cols == null ? counts : new SubsetSource(counts, rows, cols);
        Mono<double[]> f = recalculate
                ? Mono.defer(() -> rule.factors(selected, Streaming.DEFAULT))
                        .contextWrite(Pass.named("normalize"))
                        .cache()
                : settled().map(all -> rows == null ? all : pick(all, rows)).cache();
        ColumnScale s = scaling == null || cols == null ? scaling : scaling.select(cols);
        return new NormalizedView(selected, f, rule, log1p, base, s, backend);
    }

    /** The selection keeping this view's factors: slicing the normalized matrix. */
    @Override
    public NormalizedView select(int @Nullable [] rows, int @Nullable [] cols) {
        return select(rows, cols, false);
    }

    /** This view with its factors computed again on its counts by its rule (normalize_total on this data). */
    public Mono<NormalizedView> renormalized(Streaming streaming) {
        if (scaling != null) {
            return Mono.error(new IllegalStateException(
                    "a scaled view keeps its statistics; scale again after " + "renormalizing"));
        }
        return rule.factors(counts, streaming)
                .map(f -> new NormalizedView(counts, Mono.just(f), rule, log1p, base, null, backend));
    }

    private static double[] pick(double[] all, int[] rows) {
        double[] out = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            out[i] = all[rows[i]];
        }
        return out;
    }

    /**
     * What crosses to another JVM: the counts, the factors (resolved here), log1p and scaling. There the view reads on
     * the host backend, whose kernels the others are checked against, and cannot recompute its factors.
     */
    private Object writeReplace() {
        return new Shipped(counts, Objects.requireNonNull(settled().block(), "factors"), log1p, base, scaling);
    }

    private record Shipped(
            BlockSource counts,
            double[] factors,
            boolean log1p,
            @Nullable Double base,
            @Nullable ColumnScale scaling) implements java.io.Serializable {
        private Object readResolve() {
            SizeFactorRule none = (c, s) -> Mono.error(new UnsupportedOperationException(
                    "size factors are recomputed where the view was made, not where it was shipped"));
            return new NormalizedView(counts, Mono.just(factors), none, log1p, base, scaling, HostBackend.INSTANCE);
        }
    }

    /** The counts' files: the view reads nothing else. */
    @Override
    public Set<Path> files() {
        return counts.files();
    }

    /** The counts the view reads. */
    @Override
    public BlockSource base() {
        return counts;
    }

    /** The size factors (resolving them first when the view was selected with recalculation). */
    public Mono<double[]> factors() {
        return settled().map(double[]::clone);
    }

    /**
     * The factors for a use beyond this view's own reads (a selection, a copy, another JVM): over counts that fold as
     * they are read ({@link FoldingSource}, whose folds make the factors row by row), once the fold has made them all.
     */
    private Mono<double[]> settled() {
        return counts instanceof FoldingSource<?> folding ? folding.result().then(factors) : factors;
    }

    public boolean isLog1p() {
        return log1p;
    }

    public boolean isScaled() {
        return scaling != null;
    }

    /** The logarithm's base, null for the natural logarithm (or when the view is not log-transformed). */
    public @Nullable Double log1pBase() {
        return base;
    }

    @Override
    public long nRows() {
        return counts.nRows();
    }

    @Override
    public int nCols() {
        return counts.nCols();
    }

    /**
     * float32, as normalize_total leaves float32 and integer counts; float64 for float64 counts, and once scaled
     * (scanpy's scale gives float64).
     */
    @Override
    public DType dtype() {
        return dtype;
    }

    /** Dense once scaled with centring, as scanpy's scale makes X dense. */
    @Override
    public boolean isDense() {
        return scaling != null && scaling.fillsRows();
    }

    /** The counts' entries, or at least {@code nCols} when centring fills the rows (what a block then holds). */
    @Override
    public void rowNnz(long rowFrom, int count, int[] out) {
        counts.rowNnz(rowFrom, count, out);
        if (isDense()) {
            for (int i = 0; i < count; i++) {
                out[i] = Math.max(out[i], nCols());
            }
        }
    }

    /** The counts' plan, or one weighing rows by {@link #rowNnz} when centring fills them. */
    @Override
    public BlockPlan plan(PlanTarget target) {
        return isDense() ? BlockPlan.of(nRows(), this::rowNnz, target) : counts.plan(target);
    }

    @Override
    public RowReader open() {
        return normalizing(counts.open());
    }

    @Override
    public RowReader open(Pass pass) {
        return normalizing(counts.open(pass));
    }

    /** {@code reader}, the counts', its rows normalized (log-transformed, scaled) as they are read. */
    private RowReader normalizing(RowReader reader) {
        // factors emits the array: Mono.just, or the rule's factors (cached), never empty
        double[] f = Objects.requireNonNull(factors.block(), "size factors");
        boolean single = counts.dtype() != DType.FLOAT64;
        Stage normalized = log1p
                ? backend.kernel(NormalizeLog1pKernel.class)
                        .map(k -> k.normalizeLog1p(f, single, base))
                        .orElseGet(() -> NormalizeLog1p.of(f, single, base))
                : new RowScale(f);
        Stage stage = scaling == null ? normalized : normalized.then(scaling);
        return RowReader.over(reader, (blockIndex, from, to) -> stage.apply(reader.read(blockIndex, from, to)));
    }

    @Override
    public String describe() {
        return "normalized" + (log1p ? " log1p" : "") + (scaling != null ? " scaled" : "") + " view of "
                + counts.describe();
    }
}
