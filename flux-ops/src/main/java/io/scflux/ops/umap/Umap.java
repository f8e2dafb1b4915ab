/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.umap;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.Pass;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.ops.neighbors.NeighborsGraph;
import io.scflux.ops.parameter.InvalidParameterException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import reactor.core.publisher.Mono;

/**
 * scanpy's {@code sc.tl.umap}: the neighbors' connectivities laid out as umap-learn's
 * {@code simplicial_set_embedding} lays them out. Edges lighter than the heaviest over the epochs are dropped; the
 * start is the spectral layout (of each connected component; scaled to 10, with a little seeded noise), random points
 * in [-10, 10], or an obsm entry; it is rescaled to [0, 10] and optimized ({@link Layout}). obsm {@code X_umap} (float32), uns {@code umap}
 * with {@code a} and {@code b}. The map depends on the graph and {@code random_state} only.
 */
public final class Umap {

    private Umap() {}

    /**
     * @param input     the container, with the neighbors' graph, left as it is
     * @param options   scanpy's parameters
     * @param streaming the step's run context (unused: the optimization runs on one thread)
     * @return a cold Mono of a new container with the map
     */
    public static Mono<AnnData> umap(AnnData input, UmapOptions options, Streaming streaming) {
        return Mono.fromCallable(() -> {
                    AnnData data = input.copy();
                    CsrMatrix graph = NeighborsGraph.connectivities(data, options.neighborsKey());
                    int n = (int) graph.nRows();
                    int dims = options.nComponents();
                    int epochs = options.maxiter() != null ? options.maxiter() : n <= 10_000 ? 500 : 200;
                    CsrMatrix kept = withoutLightEdges(graph, epochs);
                    double[] ab = options.a() != null
                            ? new double[] {options.a(), Objects.requireNonNull(options.b(), "b with a")}
                            : CurveFit.ab(options.spread(), options.minDist());
                    SplittableRandom random = new SplittableRandom(options.randomState());
                    float[] embedding = start(data, kept, dims, options, random);
                    rescale(embedding, n, dims);
                    Layout.optimize(embedding, dims, kept, epochs, ab[0], ab[1], options);
                    data.putObsm(options.obsmKey(), DenseArray.of(DType.FLOAT32, embedding, n, dims));
                    Map<String, Object> params = new LinkedHashMap<>();
                    params.put("a", ab[0]);
                    params.put("b", ab[1]);
                    if (options.randomState() != 0) {
                        params.put("random_state", (long) options.randomState());
                    }
                    Map<String, Object> uns = new LinkedHashMap<>();
                    uns.put("params", params);
                    data.uns().put(options.unsKey(), uns);
                    return data;
                })
                .contextWrite(Pass.named("umap"));
    }

    /** The graph without the edges lighter than its heaviest over the epochs, as umap-learn drops them. */
    static CsrMatrix withoutLightEdges(CsrMatrix graph, int epochs) {
        double max = 0;
        for (long k = 0; k < graph.nnz(); k++) {
            max = Math.max(max, graph.value(k));
        }
        float floor = (float) (max / (epochs > 10 ? epochs : 200));
        CsrMatrix.Builder out = CsrMatrix.builder(graph.nCols());
        for (int i = 0; i < graph.nRows(); i++) {
            int m = 0;
            int from = (int) graph.indptr(i);
            int to = (int) graph.indptr(i + 1);
            int[] cols = new int[to - from];
            float[] vals = new float[to - from];
            for (int k = from; k < to; k++) {
                float v = graph.value(k);
                if (v >= floor && v != 0f) {
                    cols[m] = graph.index(k);
                    vals[m++] = v;
                }
            }
            out.addRow(Arrays.copyOf(cols, m), Arrays.copyOf(vals, m));
        }
        return out.build();
    }

    private static float[] start(
            AnnData data, CsrMatrix graph, int dims, UmapOptions options, SplittableRandom random) {
        int n = (int) graph.nRows();
        float[] out = new float[n * dims];
        String init = options.initPos();
        if (init.equals("spectral")) {
            double[] spectral = SpectralLayout.of(graph, dims, random);
            double largest = 0;
            for (double v : spectral) {
                largest = Math.max(largest, Math.abs(v));
            }
            double expansion = 10 / largest;
            for (int i = 0; i < out.length; i++) {
                out[i] = (float) (spectral[i] * expansion) + (float) (gaussian(random) * 1e-4);
            }
        } else if (init.equals("random")) {
            for (int i = 0; i < out.length; i++) {
                out[i] = (float) (random.nextDouble() * 20 - 10);
            }
        } else {
            Object entry = data.obsm().get(init);
            DenseArray given = entry instanceof DenseArray d
                    ? d
                    : entry instanceof BlockSource s ? DenseArray.materialize(s) : null;
            if (given == null || given.ndim() != 2 || given.shape()[1] < dims || given.shape()[0] != n) {
                throw new InvalidParameterException(
                        "init_pos",
                        "is '" + init + "': not spectral, random, nor an obsm entry of at least " + dims
                                + " columns (obsm: " + data.obsm().keySet() + ")");
            }
            int cols = (int) given.shape()[1];
            for (int i = 0; i < n; i++) {
                for (int c = 0; c < dims; c++) {
                    out[i * dims + c] = (float) given.getDouble(i * cols + c);
                }
            }
        }
        return out;
    }

    /** Each coordinate to [0, 10], as umap-learn rescales any start. */
    private static void rescale(float[] x, int n, int dims) {
        for (int c = 0; c < dims; c++) {
            float lo = Float.POSITIVE_INFINITY;
            float hi = Float.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                lo = Math.min(lo, x[i * dims + c]);
                hi = Math.max(hi, x[i * dims + c]);
            }
            float range = hi - lo;
            for (int i = 0; i < n; i++) {
                x[i * dims + c] = range > 0 ? 10 * (x[i * dims + c] - lo) / range : 0f;
            }
        }
    }

    /** A standard normal draw (Box-Muller) from the seeded stream. */
    private static double gaussian(SplittableRandom random) {
        double u = 1 - random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
