/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.test.ReadmeSnippet;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.Pp;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import io.scflux.ops.log1p.Log1pOptions;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.pca.PcaOptions;
import io.scflux.ops.qc.QcMetricsOptions;
import io.scflux.ops.reference.Reference;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The Java examples compile (they are the methods below), run, give the reference's results, and match the pages
 * that show them word for word: the README's pipeline of steps, docs/java.md's pass by hand.
 */
class ReadmeExampleTest {

    private static final Path README = Path.of("../README.md");
    private static final Path JAVA_PAGE = Path.of("../docs/java.md");
    private static final Path SELF = Path.of("src/test/java/io/scflux/samples/ReadmeExampleTest.java");

    // README steps begins
    // scanpy's preprocessing of a file larger than memory: each step a cold Mono, composed with flatMap
    static Mono<AnnData> preprocess(Path file, Path out) {
        Streaming streaming = Streaming.DEFAULT.withThreads(4); // same bits on 1 or 16 threads
        return H5ad.open(file) // obs and var read on a worker; X stays in the file
                .flatMap(a -> Pp.calculateQcMetrics(a, QcMetricsOptions.defaults(), streaming))
                .flatMap(a ->
                        Pp.normalizeTotal(a, NormalizeTotalOptions.defaults().withTargetSum(1e4), streaming))
                .flatMap(a -> Pp.log1p(a, Log1pOptions.defaults(), streaming))
                .flatMap(a -> Pp.highlyVariableGenes(
                        a, HighlyVariableGenesOptions.defaults().withNTopGenes(500), streaming))
                .flatMap(a -> Pp.pca(a, PcaOptions.defaults().withNComps(30), streaming))
                .flatMap(a -> H5ad.write(a, out).thenReturn(a)); // renamed into place when complete
    }
    // README steps ends

    // README example begins
    // sum of log1p(counts) per gene, on 4 threads, in the memory of a few blocks
    static double[] geneLog1pSums(Path file) {
        AnnData adata = H5ad.read(file); // obs and var in memory, X stays in the file
        BlockSource x = adata.x();
        BlockPlan plan = x.plan(PlanTarget.DEFAULT); // from the data only: same bits on 1 or 16 threads
        Execution exec = Execution.threads(4);
        Stage log1p = block -> {
            float[] v = block.values().clone(); // a stage never writes into its input
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) Math.log1p(v[i]);
            }
            return block.withValues(v);
        };
        Reducer<double[]> geneSums = new Reducer<>() {
            public double[] identity() {
                return new double[x.nCols()];
            }

            public double[] fold(RowBlock b) { // one partial per block, on any worker
                double[] sums = identity();
                for (int i = 0; i < b.nnz(); i++) {
                    sums[b.indices()[i]] += b.values()[i];
                }
                return sums;
            }

            public double[] merge(double[] earlier, double[] later) { // always in block order
                for (int g = 0; g < earlier.length; g++) {
                    earlier[g] += later[g];
                }
                return earlier;
            }
        };
        Flux<RowBlock> blocks = log1p.on(x.blocks(plan, exec)); // a block is read when it is requested
        return geneSums.reduce(blocks, exec).block();
    }
    // README example ends

    @Test
    void theExampleComputesWhatNumpyComputes() {
        double[] sums = geneLog1pSums(TestFixtures.path("synth-3k.int64.h5ad"));
        // numpy: np.bincount(indices, weights=np.log1p(data.astype(np.float32)), minlength=2000)
        assertEquals(2000, sums.length);
        assertEquals(71.10647773742676, sums[0], 1e-4);
        assertEquals(3115.490617752075, sums[110], 1e-3);
        assertEquals(14.556090831756592, sums[1000], 1e-4);
        assertEquals(1057.8935759067535, sums[1999], 1e-3);
        double total = 0;
        for (double s : sums) {
            total += s;
        }
        assertEquals(1239008.2589907646, total, 0.1);
    }

    @Test
    void theStepsGiveScanpysGenesAndComponents(@TempDir Path tmp) {
        AnnData a = preprocess(TestFixtures.path("synth-3k.int64.h5ad"), tmp.resolve("out.h5ad"))
                .block();
        AnnData written = H5ad.read(tmp.resolve("out.h5ad"));
        for (AnnData result : new AnnData[] {a, written}) {
            boolean[] hv = (boolean[]) ((ArrayColumn) result.var().column("highly_variable"))
                    .values()
                    .data();
            assertArrayEquals(Reference.csv("hvg_seurat").bools("highly_variable"), hv);
            @SuppressWarnings("unchecked")
            DenseArray ratio = (DenseArray) ((Map<String, Object>) result.uns().get("pca")).get("variance_ratio");
            double[] expected = Reference.csv("pca_variance").doubles("variance_ratio");
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i], ratio.getDouble(i), 1e-4 * expected[i], "PC" + (i + 1));
            }
        }
    }

    @Test
    void theReadmeShowsThisCode() throws IOException {
        ReadmeSnippet.assertShown(README, "```java\n// steps\n", SELF, "README steps");
        ReadmeSnippet.assertShown(JAVA_PAGE, "```java\n// by hand\n", SELF, "README example");
    }
}
