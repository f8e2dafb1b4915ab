/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.leiden;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Frame;
import io.scflux.ops.parameter.InvalidParameterException;
import io.scflux.ops.reference.Reference;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/**
 * leiden on scanpy's connectivities of the 3,000-cell fixture against scanpy's {@code sc.tl.leiden(flavor="igraph",
 * n_iterations=2, random_state=0)}: modularity (computed here, as igraph computes it with the connectivities as
 * weights) at least scanpy's minus 0.005, adjusted Rand index against scanpy's labels at least 0.9 (here: the same
 * labels), leidenalg's numbering by size; the same labels on every run with a seed.
 */
class LeidenTest {

    private static final AnnData SCANPY = Reference.h5ad("graph_neighbors");

    private static CsrMatrix connectivities() {
        return (CsrMatrix)
                CsrMatrix.collect(((io.scflux.core.BlockSource) SCANPY.obsp().get("connectivities")).blocks(), 3000)
                        .block();
    }

    private static int[] labels(AnnData a) {
        CategoricalColumn c = (CategoricalColumn) a.obs().column("leiden");
        int[] out = new int[a.nObs()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Integer.parseInt((String) c.get(i));
        }
        return out;
    }

    /** Newman's modularity of {@code labels} on the weighted undirected graph {@code g}, as igraph's. */
    static double modularity(CsrMatrix g, int[] labels) {
        int k = 0;
        for (int l : labels) {
            k = Math.max(k, l + 1);
        }
        double[] degreeOf = new double[k];
        double inside = 0;
        double total = 0;
        for (int i = 0; i < g.nRows(); i++) {
            for (long e = g.indptr(i); e < g.indptr(i + 1); e++) {
                double w = g.value(e);
                total += w;
                degreeOf[labels[i]] += w;
                if (labels[g.index(e)] == labels[i]) {
                    inside += w;
                }
            }
        }
        double q = inside / total;
        for (double d : degreeOf) {
            q -= (d / total) * (d / total);
        }
        return q;
    }

    /** The adjusted Rand index of two labellings (Hubert and Arabie). */
    static double adjustedRand(int[] a, int[] b) {
        Map<Long, Long> pairs = new HashMap<>();
        Map<Integer, Long> ra = new HashMap<>();
        Map<Integer, Long> rb = new HashMap<>();
        for (int i = 0; i < a.length; i++) {
            pairs.merge(((long) a[i] << 32) | b[i], 1L, Long::sum);
            ra.merge(a[i], 1L, Long::sum);
            rb.merge(b[i], 1L, Long::sum);
        }
        double index = pairs.values().stream().mapToDouble(LeidenTest::choose2).sum();
        double sa = ra.values().stream().mapToDouble(LeidenTest::choose2).sum();
        double sb = rb.values().stream().mapToDouble(LeidenTest::choose2).sum();
        double expected = sa * sb / choose2(a.length);
        return (index - expected) / ((sa + sb) / 2 - expected);
    }

    private static double choose2(long n) {
        return n * (n - 1) / 2.0;
    }

    @Test
    void matchesScanpysModularityAndLabels() throws Exception {
        AnnData ours = Leiden.leiden(SCANPY, LeidenOptions.defaults(), Streaming.DEFAULT)
                .block();
        int[] labels = labels(ours);
        Reference.Table scanpy = Reference.csv("graph_leiden");
        int[] theirs = new int[labels.length];
        String[] names = SCANPY.obs().index();
        for (int i = 0; i < labels.length; i++) {
            theirs[i] = Integer.parseInt(scanpy.string(scanpy.row(names[i]), "leiden"));
        }
        Matcher m = Pattern.compile("\"leiden_modularity\":\\s*([0-9.eE+-]+)")
                .matcher(Files.readString(Reference.resource("graph_metrics.json")));
        assertTrue(m.find(), "graph_metrics.json has leiden_modularity");
        double theirModularity = Double.parseDouble(m.group(1));
        CsrMatrix g = connectivities();
        double q = modularity(g, labels);
        double ari = adjustedRand(labels, theirs);
        System.out.printf(
                "leiden: modularity %.4f (scanpy %.4f, recomputed here %.4f), ARI %.4f%n",
                q, theirModularity, modularity(g, theirs), ari);
        assertEquals(theirModularity, modularity(g, theirs), 1e-9, "this test's modularity is igraph's");
        assertTrue(q >= theirModularity - 0.005, "modularity " + q);
        assertTrue(ari >= 0.9, "adjusted Rand index " + ari);
        assertArrayEquals(theirs, labels, "the same clusters, numbered as igraph numbers them");
        int[] sizes = new int[labels.length];
        for (int l : Leiden.clusters(g, LeidenOptions.defaults().withSizeOrder(true))) {
            sizes[l]++;
        }
        for (int c = 1; c < sizes.length && sizes[c] > 0; c++) {
            assertTrue(sizes[c - 1] >= sizes[c], "leidenalg's numbering: by size");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> params =
                (Map<String, Object>) ((Map<String, Object>) ours.uns().get("leiden")).get("params");
        assertEquals(Map.of("resolution", 1.0, "random_state", 0L, "n_iterations", 2L), params);
    }

    @Test
    void theLabelsDependOnTheGraphAndTheSeedOnly() {
        int[] once = Leiden.clusters(connectivities(), LeidenOptions.defaults());
        assertArrayEquals(once, Leiden.clusters(connectivities(), LeidenOptions.defaults()));
        int[] seeded =
                Leiden.clusters(connectivities(), LeidenOptions.defaults().withRandomState(7));
        assertArrayEquals(
                seeded,
                Leiden.clusters(connectivities(), LeidenOptions.defaults().withRandomState(7)));
        int base = Arrays.stream(once).max().orElseThrow() + 1;
        int finer = Arrays.stream(Leiden.clusters(
                                connectivities(), LeidenOptions.defaults().withResolution(3)))
                        .max()
                        .orElseThrow()
                + 1;
        assertTrue(finer > base, "resolution 3 gives more clusters (" + finer + ") than 1 (" + base + ")");
    }

    @Test
    void withoutNeighborsItIsRefusedOnSubscription() {
        AnnData none = new AnnData(null, SCANPY.obs().indexOnly(), new Frame(new String[0]));
        StepVerifier.create(Leiden.leiden(none, LeidenOptions.defaults(), Streaming.DEFAULT))
                .expectErrorSatisfies(e -> {
                    assertTrue(e instanceof InvalidParameterException, e.toString());
                    assertTrue(e.getMessage().contains("run neighbors first"), e.getMessage());
                })
                .verify();
    }
}
