/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.umap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.ops.parameter.InvalidParameterException;
import io.scflux.ops.reference.Reference;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/**
 * umap on scanpy's neighbors of the 3,000-cell fixture against umap-learn's {@code sc.tl.umap(random_state=0)}: not
 * the same points (another random stream), but as faithful a map: trustworthiness (k=15, as sklearn computes it, the
 * formula checked on umap-learn's own map against the reference's figure) at least umap-learn's minus 0.01, and the
 * fraction of each cell's 15 neighbours kept among its 15 nearest in the map within 0.02 of umap-learn's; a and b as
 * scipy's curve_fit finds them; the same map on every run with a seed.
 */
class UmapTest {

    private static final AnnData SCANPY = Reference.h5ad("graph_neighbors");
    private static final int K = 15;

    private static float[] pcs() {
        return (float[]) ((DenseArray) SCANPY.obsm().get("X_pca")).data();
    }

    private static double metric(String name) throws Exception {
        Matcher m = Pattern.compile("\"" + name + "\":\\s*([0-9.eE+-]+)")
                .matcher(Files.readString(Reference.resource("graph_metrics.json")));
        assertTrue(m.find(), name);
        return Double.parseDouble(m.group(1));
    }

    private static double[] squaredDistances(float[] x, int dims, int i, int n) {
        double[] d = new double[n];
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int c = 0; c < dims; c++) {
                double t = x[i * dims + c] - x[j * dims + c];
                s += t * t;
            }
            d[j] = j == i ? Double.POSITIVE_INFINITY : s;
        }
        return d;
    }

    /** The positions of the {@code n - 1} other cells, nearest first. */
    private static Integer[] order(double[] d) {
        Integer[] o = new Integer[d.length];
        for (int j = 0; j < o.length; j++) {
            o[j] = j;
        }
        Arrays.sort(o, (a, b) -> Double.compare(d[a], d[b]));
        return Arrays.copyOf(o, d.length - 1);
    }

    /** sklearn's trustworthiness and the 15-neighbour preservation of {@code map} against the fixture's X_pca. */
    static double[] faithfulness(float[] map, int dims) {
        float[] x = pcs();
        int n = SCANPY.nObs();
        int pc = x.length / n;
        double penalty = 0;
        double kept = 0;
        int[] rank = new int[n];
        for (int i = 0; i < n; i++) {
            Integer[] inX = order(squaredDistances(x, pc, i, n));
            for (int r = 0; r < inX.length; r++) {
                rank[inX[r]] = r + 1;
            }
            Integer[] inMap = order(squaredDistances(map, dims, i, n));
            for (int r = 0; r < K; r++) {
                int j = inMap[r];
                penalty += Math.max(0, rank[j] - K);
                if (rank[j] <= K) {
                    kept++;
                }
            }
        }
        double trust = 1 - penalty * (2.0 / (n * K * (2.0 * n - 3.0 * K - 1.0)));
        return new double[] {trust, kept / (n * (double) K)};
    }

    private static float[] theirs() {
        Reference.Table t = Reference.csv("graph_umap");
        String[] names = SCANPY.obs().index();
        float[] out = new float[names.length * 2];
        for (int i = 0; i < names.length; i++) {
            int r = t.row(names[i]);
            out[2 * i] = Float.parseFloat(t.string(r, "umap1"));
            out[2 * i + 1] = Float.parseFloat(t.string(r, "umap2"));
        }
        return out;
    }

    @Test
    void asFaithfulAMapAsUmapLearns() throws Exception {
        AnnData ours =
                Umap.umap(SCANPY, UmapOptions.defaults(), Streaming.DEFAULT).block();
        DenseArray map = (DenseArray) ours.obsm().get("X_umap");
        assertArrayEquals(new long[] {3000, 2}, map.shape());
        double[] mine = faithfulness((float[]) map.data(), 2);
        double[] umapLearn = faithfulness(theirs(), 2);
        System.out.printf(
                "umap: trustworthiness %.4f (umap-learn %.4f, the reference's %.4f), preservation %.4f (umap-learn %.4f,"
                        + " the reference's %.4f)%n",
                mine[0],
                umapLearn[0],
                metric("umap_trustworthiness_15"),
                mine[1],
                umapLearn[1],
                metric("umap_preservation_15"));
        // umap.csv holds the map to 9 digits: a tie or two may rank otherwise than in float32
        assertEquals(metric("umap_trustworthiness_15"), umapLearn[0], 1e-6, "this test's trustworthiness is sklearn's");
        assertEquals(metric("umap_preservation_15"), umapLearn[1], 1e-6, "and its preservation the reference's");
        assertTrue(mine[0] >= umapLearn[0] - 0.01, "trustworthiness " + mine[0]);
        assertTrue(mine[1] >= umapLearn[1] - 0.02, "preservation " + mine[1]);
        @SuppressWarnings("unchecked")
        Map<String, Object> params =
                (Map<String, Object>) ((Map<String, Object>) ours.uns().get("umap")).get("params");
        assertEquals(0.583030020479462, (double) params.get("a"), 1e-6, "scipy's curve_fit a for min_dist 0.5");
        assertEquals(1.3341669929263487, (double) params.get("b"), 1e-6, "and b");
    }

    @Test
    void theMapDependsOnTheGraphAndTheSeedOnly() {
        UmapOptions options = UmapOptions.defaults().withMaxiter(50);
        float[] once = (float[]) ((DenseArray) Umap.umap(SCANPY, options, Streaming.DEFAULT)
                        .block()
                        .obsm()
                        .get("X_umap"))
                .data();
        float[] again = (float[]) ((DenseArray) Umap.umap(SCANPY, options, Streaming.DEFAULT)
                        .block()
                        .obsm()
                        .get("X_umap"))
                .data();
        assertArrayEquals(once, again, "the same bits");
        float[] other = (float[]) ((DenseArray) Umap.umap(SCANPY, options.withRandomState(3), Streaming.DEFAULT)
                        .block()
                        .obsm()
                        .get("X_umap"))
                .data();
        assertTrue(!Arrays.equals(once, other), "another seed, another map");
    }

    @Test
    void withoutNeighborsOrWithABadStartItIsRefusedOnSubscription() {
        AnnData none = new AnnData(null, SCANPY.obs().indexOnly(), new Frame(new String[0]));
        StepVerifier.create(Umap.umap(none, UmapOptions.defaults(), Streaming.DEFAULT))
                .expectErrorMatches(e ->
                        e instanceof InvalidParameterException && e.getMessage().contains("run neighbors first"))
                .verify();
        StepVerifier.create(Umap.umap(SCANPY, UmapOptions.defaults().withInitPos("X_nope"), Streaming.DEFAULT))
                .expectErrorMatches(e ->
                        e instanceof InvalidParameterException && e.getMessage().contains("X_nope"))
                .verify();
    }
}
