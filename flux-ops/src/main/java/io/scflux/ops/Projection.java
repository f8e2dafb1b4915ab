package io.scflux.ops;

import io.scflux.core.BlockSource;
import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;
import io.scflux.core.Streaming;
import java.util.Arrays;
import reactor.core.publisher.Mono;

/**
 * The projection pass: each row's coordinates {@code (x - mean) V} on the components, in float64 as
 * {@code x V - mean V} (scikit-learn centres after projecting, which keeps sparse rows sparse), rounded to float32
 * into the row's own slice of the result. The reduction only
 * counts the rows written, so every row is known to be covered.
 */
final class Projection implements Reducer<Long> {

    private final Components components;
    private final double[] meanV;
    private final float[] out;

    private Projection(Components components, float[] out) {
        this.components = components;
        this.out = out;
        int k = components.k();
        meanV = new double[k];
        double[] mean = components.mean();
        double[] v = components.loadings();
        for (int a = 0; a < mean.length; a++) {
            for (int j = 0; j < k; j++) {
                meanV[j] += mean[a] * v[a * k + j];
            }
        }
    }

    /** The coordinates of the rows of {@code x} ({@code nRows x k}, row-major float32). */
    static Mono<float[]> project(BlockSource x, Components components, Streaming streaming) {
        long n = x.nRows();
        if ((long) n * components.k() > Integer.MAX_VALUE - 8) {
            return Mono.error(new IllegalArgumentException(n + " rows x " + components.k()
                    + " components do not fit one array"));
        }
        float[] out = new float[(int) n * components.k()];
        return streaming.reduce(x, new Projection(components, out)).map(rows -> {
            if (rows != n) {
                throw new IllegalStateException("projected " + rows + " of " + n + " rows");
            }
            return out;
        });
    }

    @Override
    public Long identity() {
        return 0L;
    }

    @Override
    public Long fold(RowBlock block) {
        int k = components.k();
        double[] v = components.loadings();
        double[] acc = new double[k];
        int[] indptr = block.indptr();
        int[] indices = block.indices();
        float[] values = block.values();
        for (int r = 0; r < block.nRows(); r++) {
            Arrays.fill(acc, 0);
            for (int i = indptr[r]; i < indptr[r + 1]; i++) {
                double x = values[i];
                int base = indices[i] * k;
                for (int j = 0; j < k; j++) {
                    acc[j] += x * v[base + j];
                }
            }
            int at = (int) (block.rowStart() + r) * k;
            for (int j = 0; j < k; j++) {
                out[at + j] = (float) (acc[j] - meanV[j]);
            }
        }
        return (long) block.nRows();
    }

    @Override
    public Long merge(Long earlier, Long later) {
        return earlier + later;
    }
}
