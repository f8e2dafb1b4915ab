package io.scflux.ops;

import io.scflux.core.BlockSource;
import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import reactor.core.publisher.Mono;

/**
 * A pass over what a step expects to be raw counts (QC, normalize_total, seurat_v3), which also looks for the first
 * value that is not a non-negative whole number, as scanpy's {@code check_nonnegative_integers}; finding one, the
 * step warns as scanpy does ("expects raw count data, but non-integers were found"), naming the cell, gene and value.
 * The search rides along the pass (no second read) and keeps the first finding in block order, on any engine.
 *
 * @param <A> the wrapped pass's partial
 */
final class CountsCheck<A> implements Reducer<CountsCheck.Checked<A>> {

    private final Reducer<A> pass;

    private CountsCheck(Reducer<A> pass) {
        this.pass = pass;
    }

    /**
     * {@code pass} over X of {@code data} on {@code streaming}; warns through it when X holds a value that is not a
     * count, saying that {@code step} (scanpy's name: {@code `normalize_total`}) expects raw counts.
     */
    static <A> Mono<A> reduce(AnnData data, BlockSource x, Reducer<A> pass, String step, Streaming streaming) {
        return streaming.reduce(x, new CountsCheck<>(pass)).map(checked -> {
            if (checked.finding != null) {
                Finding f = checked.finding;
                streaming.warn(step + " expects raw count data, but non-integers were found (" + f.value
                        + " at cell " + name(data.obs().names(), f.row) + ", gene " + name(data.var().names(),
                        f.col) + ")");
            }
            return checked.partial;
        });
    }

    private static String name(io.scflux.core.anndata.PackedStrings names, long i) {
        return "'" + names.get(Math.toIntExact(i)) + "'";
    }

    @Override
    public Checked<A> identity() {
        return new Checked<>(pass.identity(), null);
    }

    @Override
    public Checked<A> fold(RowBlock block) {
        return new Checked<>(pass.fold(block), find(block));
    }

    @Override
    public Checked<A> foldInto(Checked<A> acc, RowBlock block) {
        if (acc.finding == null) {
            acc.finding = find(block);
        }
        acc.partial = pass.foldInto(acc.partial, block);
        return acc;
    }

    @Override
    public Checked<A> merge(Checked<A> earlier, Checked<A> later) {
        earlier.partial = pass.merge(earlier.partial, later.partial);
        if (earlier.finding == null) {
            earlier.finding = later.finding;
        }
        return earlier;
    }

    /** The first entry of {@code block} that is negative, fractional or not finite, or null. */
    private static Finding find(RowBlock block) {
        float[] values = block.values();
        for (int k = 0; k < block.nnz(); k++) {
            float v = values[k];
            if (v < 0 || v != (float) (long) v) {
                int[] indptr = block.indptr();
                int r = 0;
                while (indptr[r + 1] <= k) {
                    r++;
                }
                return new Finding(block.rowStart() + r, block.indices()[k], v);
            }
        }
        return null;
    }

    /** The wrapped partial and the first value that is not a count, if any yet. */
    static final class Checked<A> implements java.io.Serializable {
        A partial;
        Finding finding;

        Checked(A partial, Finding finding) {
            this.partial = partial;
            this.finding = finding;
        }
    }

    /** A value that is not a count, at cell {@code row}, gene {@code col}. */
    record Finding(long row, int col, float value) implements java.io.Serializable {
    }
}
